/**
 * The client's metrics as both Effect lines declare them: names, units, descriptions, tag keys, the
 * values of their tags and the boundaries of the permit wait's histogram. Each line builds its own
 * `Metric`s from these, so that an exporter sees the same series from either line. The names follow
 * Prometheus's conventions: a counter ends in `_total`, a duration is in seconds and ends in
 * `_seconds`; the tag values known ahead ({@link retryReasons}, {@link refusalSeries}) are series at
 * zero from the moment a client is made, so that a rate or an alert over them is never empty.
 *
 * @since 0.1.0
 */
import * as ErrorCodes from "./ErrorCodes.js"

/**
 * The prefix of every metric the client records.
 *
 * @since 0.1.0
 * @category constants
 */
export const prefix = "community_api_client_"

/**
 * What a metric is: its name, unit and description.
 *
 * @since 0.1.0
 * @category models
 */
export interface Definition {
  readonly name: string
  /** What each line builds it as: a counter, a histogram or a gauge. */
  readonly kind: Kind
  /** The unit, as OpenTelemetry spells it (`1` for a count, `s` for seconds). */
  readonly unit: string
  readonly description: string
  /** The keys of its tags ({@link tags}), in order; none for a series over the whole process. */
  readonly tags: ReadonlyArray<string>
}

/**
 * The kinds of metric: a counter only goes up (each line makes it incremental), a histogram counts
 * values into {@link permitWaitBoundaries}, a gauge reads a value now.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = "counter" | "histogram" | "gauge"

/**
 * The tag keys: the operation (`section/method`), the outcome of a call, the reason of a retry, the
 * kind of a refusal and who refused it, and the user (a per-user series only).
 *
 * @since 0.1.0
 * @category constants
 */
export const tags = {
  operation: "operation",
  outcome: "outcome",
  reason: "reason",
  kind: "kind",
  source: "source",
  user: "user"
} as const

/**
 * Calls ended, by operation and outcome: `ok`, or what the call failed with (see {@link outcomeOf}).
 *
 * @since 0.1.0
 * @category constants
 */
export const calls: Definition = {
  name: `${prefix}calls_total`,
  kind: "counter",
  unit: "1",
  description: "Calls of the API ended, by operation and outcome",
  tags: [tags.operation, tags.outcome]
}

/**
 * Attempts sent again, by the reason of the failure before them (see {@link outcomeOf}).
 *
 * @since 0.1.0
 * @category constants
 */
export const retries: Definition = {
  name: `${prefix}retries_total`,
  kind: "counter",
  unit: "1",
  description: "Attempts sent again, by the reason of the failure before them",
  tags: [tags.reason]
}

/**
 * The time a request waited for its pacing permit, in seconds (Prometheus's unit of a duration:
 * record {@link secondsOf} the milliseconds waited).
 *
 * @since 0.1.0
 * @category constants
 */
export const permitWait: Definition = {
  name: `${prefix}permit_wait_seconds`,
  kind: "histogram",
  unit: "s",
  description: "Seconds a request waited for its pacing permit",
  tags: []
}

/**
 * The boundaries of the permit wait's histogram, in seconds: no wait (1 ms), waits within one rate
 * window (a full limit spreads 30 requests over it) and a few windows past it.
 *
 * @since 0.1.0
 * @category constants
 */
export const permitWaitBoundaries: ReadonlyArray<number> = [
  0.001,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30
]

/**
 * A duration measured in milliseconds, in seconds: the unit of every duration the client records.
 *
 * @since 0.1.0
 * @category utils
 */
export const secondsOf = (millis: number): number => millis / 1_000

/**
 * Refusals by a limit, by kind (`rate`, `minute`, `day`) and source: `server` for the API's error 5,
 * `client` for a creation the client's own quota failed without sending it.
 *
 * @since 0.1.0
 * @category constants
 */
export const refusals: Definition = {
  name: `${prefix}refusals_total`,
  kind: "counter",
  unit: "1",
  description: "Refusals by a limit: the API's error 5 and the client's own creation quota",
  tags: [tags.kind, tags.source]
}

/**
 * Users the pacing holds state for now, over every pacing service of the process.
 *
 * @since 0.1.0
 * @category constants
 */
export const users: Definition = {
  name: `${prefix}users`,
  kind: "gauge",
  unit: "1",
  description: "Users the pacing holds state for in this process",
  tags: []
}

/**
 * Pacing permits held now by requests of this process (taken and not yet given back), over all users.
 *
 * @since 0.1.0
 * @category constants
 */
export const permitsHeld: Definition = {
  name: `${prefix}permits_held`,
  kind: "gauge",
  unit: "1",
  description: "Pacing permits held by requests of this process, over all users",
  tags: []
}

/**
 * Pacing permits held now by requests of one user (a per-user series: only when asked for).
 *
 * @since 0.1.0
 * @category constants
 */
export const userPermitsHeld: Definition = {
  name: `${prefix}user_permits_held`,
  kind: "gauge",
  unit: "1",
  description: "Pacing permits held by requests of one user in this process",
  tags: [tags.user]
}

/**
 * Every metric the client records, in the order of `docs/client.md`.
 *
 * @since 0.1.0
 * @category constants
 */
export const definitions: ReadonlyArray<Definition> = [
  calls,
  retries,
  permitWait,
  refusals,
  users,
  permitsHeld,
  userPermitsHeld
]

/**
 * The sources of a refusal.
 *
 * @since 0.1.0
 * @category models
 */
export type Source = "server" | "client"

/**
 * The reasons a retry can have, known ahead: each API error code that is sent again (`5`, `9`,
 * `101`: every code whose kind is not final, `ErrorCodes.classification`), a transport failure and
 * an attempt's timeout. Each is a series of {@link retries} at zero once a client is made.
 *
 * @since 0.1.0
 * @category constants
 */
export const retryReasons: ReadonlyArray<string> = [
  ...ErrorCodes.errorCodes.filter((code) => ErrorCodes.classification[code].kind !== "final").map(String),
  "transport",
  "timeout"
]

/**
 * The refusals that can be counted, known ahead: the server's error 5 for the rate or either
 * creation window, and the client's own quota for either window (it never refuses by rate: it waits).
 * Each is a series of {@link refusals} at zero once a client is made.
 *
 * @since 0.1.0
 * @category constants
 */
export const refusalSeries: ReadonlyArray<{ readonly kind: string; readonly source: Source }> = [
  { kind: "rate", source: "server" },
  { kind: "minute", source: "server" },
  { kind: "day", source: "server" },
  { kind: "minute", source: "client" },
  { kind: "day", source: "client" }
]

/**
 * The outcome of a call, or the reason of a retry, from what it failed with: the tag of the error
 * and, for an API error, its code. `ok` is a success; an API error is its code (`5`, `9`, `101`…);
 * the client's own errors are `transport`, `timeout`, `deadline` (the call's deadline), `limiter`
 * (a shared limiter unavailable), `quota` (the client's creation quota), `outcome_unknown`,
 * `encode`, `decode`; anything else `other` (and a call interrupted, `interrupted`).
 *
 * @since 0.1.0
 * @category utils
 */
export const outcomeOf = (tag: string | undefined, code: number | undefined, scope?: string | undefined): string => {
  if (code !== undefined) return String(code)
  switch (tag) {
    case "TransportError":
      return "transport"
    case "TimeoutError":
      return scope === "call" ? "deadline" : "timeout"
    case "LimiterUnavailable":
      return "limiter"
    case "CreationQuotaExceeded":
      return "quota"
    case "OutcomeUnknownError":
      return "outcome_unknown"
    case "RequestEncodeError":
      return "encode"
    case "ResponseDecodeError":
      return "decode"
    default:
      return "other"
  }
}

/**
 * The outcome of a success.
 *
 * @since 0.1.0
 * @category constants
 */
export const ok = "ok"

/**
 * The outcome of a call interrupted before it ended.
 *
 * @since 0.1.0
 * @category constants
 */
export const interrupted = "interrupted"

/**
 * The default bound on the users with per-user series, when per-user series are asked for without one.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPerUserMax = 1_000

/**
 * A bounded set of users that have per-user series: a user gets a place while there is one, keeps it
 * until it is released (its state left memory), and a user over the bound gets none (it is counted in
 * the aggregated series only). Effect-free: each line registers and removes its series on the answers.
 *
 * @since 0.1.0
 * @category models
 */
export interface PerUser {
  /** Whether `user` has (or now gets) a place; `false` when the bound is reached. */
  readonly admit: (user: string) => boolean
  /** Frees the place of `user`; `true` when it had one. */
  readonly release: (user: string) => boolean
  /** How many users have a place. */
  readonly size: () => number
}

/**
 * A bounded set of at most `max` users with per-user series.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makePerUser = (max: number): PerUser => {
  const users = new Set<string>()
  return {
    admit: (user) => {
      if (users.has(user)) return true
      if (users.size >= max) return false
      users.add(user)
      return true
    },
    release: (user) => users.delete(user),
    size: () => users.size
  }
}

/**
 * Per-user series: off unless given; `max` bounds the users that have one at once (default
 * {@link defaultPerUserMax}).
 *
 * @since 0.1.0
 * @category options
 */
export interface PerUserOptions {
  readonly max?: number | undefined
}

/**
 * The metrics options of a pacing service (`Pacing.Settings.metrics` in either line).
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** Series per user (the permits its requests hold), at most `max` users at once; off by default. */
  readonly perUser?: PerUserOptions | undefined
}

/**
 * The places of the per-user series that `options` asks for, or none when it asks for none.
 *
 * @since 0.1.0
 * @category constructors
 */
export const perUserOf = (options: Options | undefined): PerUser | undefined =>
  options?.perUser === undefined ? undefined : makePerUser(options.perUser.max ?? defaultPerUserMax)

/**
 * The per-user series of a line (`S`: a gauge, or a registration of one), each made once, while its
 * user has a place ({@link PerUser}).
 *
 * @since 0.1.0
 * @category models
 */
export interface PerUserSeries<S> {
  /** The series of `user`, made by `make` the first time; none when the bound is reached. */
  readonly of: (user: string, make: () => S) => S | undefined
  /** `user`'s state left memory: its place is freed, and its series, if it had one, returned to be removed. */
  readonly release: (user: string) => S | undefined
}

/**
 * The per-user series that `options` asks for, or none when it asks for none.
 *
 * @since 0.1.0
 * @category constructors
 */
export const perUserSeriesOf = <S>(options: Options | undefined): PerUserSeries<S> | undefined => {
  const places = perUserOf(options)
  if (places === undefined) return undefined
  const series = new Map<string, S>()
  return {
    of: (user, make) => {
      if (!places.admit(user)) return undefined
      let made = series.get(user)
      if (made === undefined) {
        made = make()
        series.set(user, made)
      }
      return made
    },
    release: (user) => {
      const made = series.get(user)
      series.delete(user)
      return places.release(user) ? made : undefined
    }
  }
}
