/**
 * The result of one benchmark, as printed and as written to `results/latest.json`.
 */

/** A figure: a number, or a short text (units are in the name). */
export type Figure = number | string | boolean

/** One benchmark's outcome. */
export interface Result {
  /** `B1`…`B5`. */
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
}
