/**
 * How the client's counters record what happens, as both Effect lines record it: which series of
 * which counter ({@link MetricNames}) each event adds to, decided here from the event alone. Each line
 * gives its own counters and makes a series of one of them for a set of tag values (a closure over
 * Effect 3's labels, a tagged Effect 4 `Metric`); the recorder makes each series once, on first use,
 * so that a call's path, measured in microseconds, never makes a series again. The series known ahead
 * ({@link Recorder.known}) each line sets at zero once a client is made.
 *
 * @since 0.1.0
 */
import * as MetricNames from "./MetricNames.js"
import * as Operations from "./Operations.js"

/**
 * How a call ended: a success, a failure with its error, an interruption, or a defect.
 *
 * @since 0.1.0
 * @category models
 */
export type End =
  | { readonly _tag: "Success" }
  | { readonly _tag: "Failure"; readonly error: unknown }
  | { readonly _tag: "Interrupted" }
  | { readonly _tag: "Defect" }

/**
 * A call that succeeded.
 *
 * @since 0.1.0
 * @category constructors
 */
export const success: End = { _tag: "Success" }

/**
 * A call that failed with `error`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const failure = (error: unknown): End => ({ _tag: "Failure", error })

/**
 * A call interrupted before it ended.
 *
 * @since 0.1.0
 * @category constructors
 */
export const interrupted: End = { _tag: "Interrupted" }

/**
 * A call that died (a defect).
 *
 * @since 0.1.0
 * @category constructors
 */
export const defect: End = { _tag: "Defect" }

const field = (error: unknown, name: string): unknown =>
  typeof error === "object" && error !== null ? (error as Record<string, unknown>)[name] : undefined

const text = (value: unknown): string | undefined => typeof value === "string" ? value : undefined

/**
 * The outcome of a failure ({@link MetricNames.outcomeOf}), read from the error's `_tag`, `code` and
 * `scope`.
 *
 * @since 0.1.0
 * @category utils
 */
export const outcomeOfError = (error: unknown): string => {
  const code = field(error, "code")
  return MetricNames.outcomeOf(
    text(field(error, "_tag")),
    typeof code === "number" ? code : undefined,
    text(field(error, "scope"))
  )
}

/**
 * The outcome of a call that ended so: `ok`, its error's outcome, `interrupted`, or `other` (a defect).
 *
 * @since 0.1.0
 * @category utils
 */
export const outcomeOfEnd = (end: End): string => {
  switch (end._tag) {
    case "Success":
      return MetricNames.ok
    case "Failure":
      return outcomeOfError(end.error)
    case "Interrupted":
      return MetricNames.interrupted
    case "Defect":
      return "other"
  }
}

/** The window of a creation the client's own quota refused (nothing sent), if `end` is one. */
const quotaWindowOf = (end: End): string | undefined =>
  end._tag === "Failure" && field(end.error, "_tag") === "CreationQuotaExceeded"
    ? text(field(end.error, "window"))
    : undefined

/**
 * A line's three counters: {@link MetricNames.calls}, {@link MetricNames.retries} and
 * {@link MetricNames.refusals}.
 *
 * @since 0.1.0
 * @category models
 */
export interface Counters<M> {
  readonly calls: M
  readonly retries: M
  readonly refusals: M
}

/**
 * The series each event adds one to, made by the line's `seriesOf`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Recorder<S> {
  /**
   * A call of `operation` ended so: its series of `calls`, and, for a creation that the client's own
   * quota refused (nothing sent), the series of `refusals` with the source `client`.
   */
  readonly callEnded: (operation: string, end: End) => ReadonlyArray<S>
  /** An attempt is sent again after `error`: the series of `retries` by its reason. */
  readonly retried: (error: unknown) => S
  /** The server refused a request with error 5, read as `kind` (`rate`, `minute`, `day`). */
  readonly refused: (kind: string) => S
  /**
   * The series known ahead, which a line adds zero to once a client is made, so that they are there
   * before anything happens: each operation's calls that ended `ok` (the failures' outcomes are an
   * open set: any code the API answers), each retry reason ({@link MetricNames.retryReasons}) and
   * each refusal ({@link MetricNames.refusalSeries}).
   */
  readonly known: () => ReadonlyArray<S>
  /**
   * Whether the series known ahead are yet to be declared in `registry` (the line's registry of
   * metrics): `true` the first time only, so that a line declares them, and registers what it reads
   * of its gauges, once in each registry however many clients are made.
   */
  readonly declares: (registry: object) => boolean
}

/**
 * A recorder over a line's counters: `seriesOf` makes the series of a counter for its tags (by the
 * keys of the counter's definition, in order), once per set of tag values.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <M, S>(
  counters: Counters<M>,
  seriesOf: (counter: M, tags: Readonly<Record<string, string>>) => S
): Recorder<S> => {
  const by = (counter: M, definition: MetricNames.Definition) => {
    const made = new Map<string, S>()
    return (...values: ReadonlyArray<string>): S => {
      const id = values.join("\u0000")
      let series = made.get(id)
      if (series === undefined) {
        series = seriesOf(counter, Object.fromEntries(definition.tags.map((key, i) => [key, values[i]!])))
        made.set(id, series)
      }
      return series
    }
  }
  const calls = by(counters.calls, MetricNames.calls)
  // The series a call's end adds to, by operation and outcome, each list made once: every call ends
  // here, and a lookup of two maps costs less than joining the tags and making a new list each time.
  const ended = new Map<string, Map<string, ReadonlyArray<S>>>()
  const callsOf = (operation: string, outcome: string): ReadonlyArray<S> => {
    let byOutcome = ended.get(operation)
    if (byOutcome === undefined) {
      byOutcome = new Map()
      ended.set(operation, byOutcome)
    }
    let series = byOutcome.get(outcome)
    if (series === undefined) {
      series = [calls(operation, outcome)]
      byOutcome.set(outcome, series)
    }
    return series
  }
  const retries = by(counters.retries, MetricNames.retries)
  const refusals = by(counters.refusals, MetricNames.refusals)
  const declared = new WeakSet<object>()
  const client: MetricNames.Source = "client"
  const server: MetricNames.Source = "server"
  return {
    callEnded: (operation, end) => {
      const call = callsOf(operation, outcomeOfEnd(end))
      const window = quotaWindowOf(end)
      return window === undefined ? call : [...call, refusals(window, client)]
    },
    retried: (error) => retries(outcomeOfError(error)),
    refused: (kind) => refusals(kind, server),
    known: () => [
      ...Operations.all.map((operation) => calls(operation.path, MetricNames.ok)),
      ...MetricNames.retryReasons.map((reason) => retries(reason)),
      ...MetricNames.refusalSeries.map(({ kind, source }) => refusals(kind, source))
    ],
    declares: (registry) => {
      if (declared.has(registry)) return false
      declared.add(registry)
      return true
    }
  }
}
