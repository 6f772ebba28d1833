/**
 * When a client sends a request again, as a plain table: what it does after each kind of failure,
 * given the operation's `safeToRepeat` and `creation` flags, which limit an error 5 stands for, and the
 * numbers of the retry schedule. Each Effect line reads its errors into this table and runs the waits
 * on its own `Schedule`.
 *
 * - `transient` (9, nothing was done): retried for every operation, on the retry schedule.
 * - `ambiguous` (101, a transport failure or a timeout: the action may have happened): retried on
 *   the schedule only when the operation is safe to repeat and not a creation; otherwise the call
 *   fails as an unknown outcome.
 * - `limit` (5): the request waits for the limit that refused it ({@link refusalOf}) and is sent
 *   again, at most {@link limitRetries} times.
 * - `final` (every other code, and anything that is not an answer of the API): never retried.
 *
 * @since 0.1.0
 */
import type { ErrorKind } from "./ErrorCodes.js"
import type { CreationWindow } from "./Limits.js"

/**
 * What the table reads of an operation: its declaration's flags.
 *
 * @since 0.1.0
 * @category models
 */
export interface Flags {
  /** Sending it twice has the effect of sending it once. */
  readonly safeToRepeat: boolean
  /** It creates an object, counted by the creation quota. */
  readonly creation: boolean
}

/**
 * What the client does after a failure.
 *
 * @since 0.1.0
 * @category models
 */
export type Decision =
  /** Send again after the next delay of the retry schedule. */
  | "retry"
  /** Wait for the rate window (or the creation quota) and send again. */
  | "wait-for-limit"
  /** Fail as an unknown outcome: the action may have happened and must not be sent again. */
  | "outcome-unknown"
  /** Fail with the error. */
  | "fail"

/**
 * Whether an operation may be sent again after an ambiguous failure: safe to repeat, and not a
 * creation, even if a declaration marked a creation safe.
 *
 * @since 0.1.0
 * @category utils
 */
export const repeatable = (flags: Flags): boolean => flags.safeToRepeat && !flags.creation

/**
 * Decides what to do after a failure of `kind` of an operation with `flags`. An API error's kind is
 * its code's (`ErrorCodes.kindOf`); a failure of the transport or a timeout is `"ambiguous"` (the
 * request may have reached the server); anything else that is not an answer of the API is `"final"`.
 *
 * @example
 * ```ts
 * import * as ErrorCodes from "@community-api/core/ErrorCodes"
 * import * as RetryTable from "@community-api/core/RetryTable"
 * import { strictEqual } from "node:assert"
 *
 * // After a dropped connection, a read is sent again; a creation is not (its outcome is unknown).
 * const read = { safeToRepeat: true, creation: false }
 * const creation = { safeToRepeat: false, creation: true }
 * strictEqual(RetryTable.decide(read, "ambiguous"), "retry")
 * strictEqual(RetryTable.decide(creation, "ambiguous"), "outcome-unknown")
 * // Error 5 waits for the limit, whatever the operation.
 * strictEqual(RetryTable.decide(creation, ErrorCodes.kindOf({ code: 5 })), "wait-for-limit")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const decide = (flags: Flags, kind: ErrorKind): Decision => {
  switch (kind) {
    case "transient":
      return "retry"
    case "limit":
      return "wait-for-limit"
    case "ambiguous":
      return repeatable(flags) ? "retry" : "outcome-unknown"
    case "final":
      return "fail"
  }
}

/**
 * The limit behind an error 5: the request rate, or the creation quota's minute or day.
 *
 * @since 0.1.0
 * @category models
 */
export type Refusal = "rate" | CreationWindow

// The spec's error texts name their cause; the reference server's texts for error 5 are "Слишком много
// запросов: …" (rate) and "Слишком много созданий: … в минуту / в сутки" (quota).
const namesCreations = /созда|creation/i
const namesRequests = /запрос|request/i
const namesDay = /сутк|день|дня|day/i

/**
 * Tells which limit refused a request with error 5, whose text is `text`. Error 5 covers both the
 * request rate and the creation quota, so the table reads, in order:
 *
 * 1. the operation: only the rate limit applies to an operation that is not a creation;
 * 2. the server's text, which names the cause: a text naming creations is the quota (`"day"` when it
 *    names the day, else `"minute"`); a text naming requests is `"rate"`;
 * 3. the client's own quota count, when the text names neither: `counted` is the window the count had
 *    used up once this creation was counted (`undefined` when none was). A refusal that cannot be
 *    laid on the quota is taken as `"rate"`: nothing was created, and it is sent again after the rate
 *    window.
 *
 * @since 0.1.0
 * @category utils
 */
export const refusalOf = (
  flags: Pick<Flags, "creation">,
  text: string,
  counted?: CreationWindow | undefined
): Refusal => {
  if (!flags.creation) return "rate"
  if (namesCreations.test(text)) return namesDay.test(text) ? "day" : "minute"
  if (namesRequests.test(text)) return "rate"
  return counted ?? "rate"
}

/**
 * The default retry schedule, in numbers: delays from `baseMillis`, multiplied by `factor` at each
 * retry, each jittered by a factor between `jitterMin` and `jitterMax`, then rounded to whole
 * milliseconds and capped at `capMillis` ({@link capDelay}); at most `retries` retries.
 *
 * @since 0.1.0
 * @category constants
 */
export const backoff = {
  baseMillis: 500,
  factor: 2,
  jitterMin: 0.8,
  jitterMax: 1.2,
  capMillis: 8_000,
  retries: 5
} as const

/**
 * A jittered delay as the schedule waits it: whole milliseconds, at most the cap. Jitter gives
 * fractions of a millisecond, which summed on a clock make a capped delay measure as
 * 8000.000000000001 ms; rounded, then clamped after the jitter, every delay stays within the cap (and,
 * the bounds of the jitter times the base being whole, within the jitter's range).
 *
 * @since 0.1.0
 * @category utils
 */
export const capDelay = (millis: number): number => Math.min(Math.round(millis), backoff.capMillis)

/**
 * How many times, by default, a request answered with 5 is sent again after waiting for its limit.
 *
 * @since 0.1.0
 * @category constants
 */
export const limitRetries = 5

/**
 * The tags of the errors a retry schedule sees, the only failures the table retries: an answer 9
 * (`KeyServiceUnavailableError`, transient: retried for every operation), and an answer 101
 * (`InternalServerError`), a transport failure and a timeout (ambiguous: retried for an operation that
 * is {@link repeatable}).
 *
 * @since 0.1.0
 * @category constants
 */
export const retryableTags = [
  "KeyServiceUnavailableError",
  "InternalServerError",
  "TransportError",
  "TimeoutError"
] as const

/**
 * The tag of an error a retry schedule sees ({@link retryableTags}).
 *
 * @since 0.1.0
 * @category models
 */
export type RetryableTag = (typeof retryableTags)[number]

/**
 * The retry policy of a client, over the line's form of a schedule.
 *
 * @since 0.1.0
 * @category models
 */
export interface Policy<Schedule> {
  /** The delays between attempts after 9, and after 101 or transport errors of safe operations. */
  readonly schedule: Schedule
  /** How many times a request answered with 5 is sent again after waiting for its window. */
  readonly limitRetries: number
}
