/**
 * The result of one benchmark, as printed and as written to `results/latest.json`. Plain types, shared
 * with the Effect 4 line's side of the lines comparison.
 */

/** A figure: a number, or a short text (units are in the name). */
export type Figure = number | string | boolean

/** One benchmark's outcome. */
export interface Result {
  /** `B1`…`B8`; in the lines comparison, `B1/effect3`, `B1/effect4`… */
  readonly id: string
  readonly title: string
  /** What was measured and how, in one or two sentences. */
  readonly method: string
  /** The measured figures, by name. */
  readonly figures: Readonly<Record<string, Figure>>
  /** The target of the issue, in words. */
  readonly target: string
  /** Whether the target is met (`null`: the benchmark has no target). */
  readonly met: boolean | null
  /** The headline figure for the table. */
  readonly headline: string
  /** By how much a target is missed and why, or caveats. */
  readonly note?: string
  /** In the lines comparison: the Effect line measured and the Node it ran on. */
  readonly line?: { readonly effect: "effect3" | "effect4"; readonly node: string }
  /** In the lines comparison, on the Effect 4 line's entries: how it stands against the Effect 3 line's. */
  readonly versusEffect3?: Versus
}

/** An Effect 4 entry against the Effect 3 entry of the same benchmark, measured in the same run. */
export interface Versus {
  /** Each numeric figure of the Effect 4 line over the same figure of the Effect 3 line. */
  readonly ratios: Readonly<Record<string, number>>
  /** The figures the target holds to, in words. */
  readonly target: string
  readonly met: boolean
  /** Which figures missed, and where the time goes when one did. */
  readonly note?: string
}
