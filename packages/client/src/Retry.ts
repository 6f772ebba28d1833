/**
 * When the client sends a request again, read from the contract: the error's kind
 * (`ApiError.kindOf`) and the operation's `safeToRepeat` and `creation` flags.
 *
 * - 9 (`transient`, nothing was done): retried for every operation, on the retry schedule.
 * - 101, transport failures and timeouts (`ambiguous`): retried on the schedule only when the
 *   operation is safe to repeat; otherwise the call fails with `OutcomeUnknownError`.
 * - 5 (`limit`): the request waits for the limit that refused it and is sent again (see
 *   {@link refusalOf} for how the limit is told): after the rate limit (every refusal of an ordinary
 *   request) it waits for the rate window; after the creation quota a creation is never sent again in
 *   the same minute (it waits for the next one, or fails with the quota's reset time).
 * - Everything else, decoding errors included: never retried.
 *
 * @since 0.1.0
 */
import { ApiError } from "@community-api/schema"
import type { Limits, Operation } from "@community-api/schema"
import { Duration, Predicate, Schedule } from "effect"
import type * as ClientError from "./ClientError.js"

/**
 * What the client does after an error.
 *
 * @since 0.1.0
 * @category models
 */
export type Decision =
  /** Send again after the next delay of the retry schedule. */
  | "retry"
  /** Wait for the rate window (or the creation quota) and send again. */
  | "wait-for-limit"
  /** Fail with `OutcomeUnknownError`: the action may have happened and must not be sent again. */
  | "outcome-unknown"
  /** Fail with the error. */
  | "fail"

const hasCode = (error: unknown): error is { readonly code: number } =>
  Predicate.hasProperty(error, "code") && typeof error.code === "number" && Predicate.hasProperty(error, "_tag")

const isAmbiguousTransport = (error: unknown): error is ClientError.TransportError | ClientError.TimeoutError =>
  Predicate.isTagged(error, "TransportError") || Predicate.isTagged(error, "TimeoutError")

/**
 * Decides what to do after `error` from `op`.
 *
 * @since 0.1.0
 * @category utils
 */
export const decide = (
  op: Pick<Operation.Any, "safeToRepeat" | "creation">,
  error: unknown
): Decision => {
  // A creation is never sent again after an ambiguous failure, even if a declaration marked it safe.
  const safe = op.safeToRepeat && !op.creation
  if (isAmbiguousTransport(error)) return safe ? "retry" : "outcome-unknown"
  if (!hasCode(error)) return "fail"
  switch (ApiError.kindOf(error)) {
    case "transient":
      return "retry"
    case "limit":
      return "wait-for-limit"
    case "ambiguous":
      return safe ? "retry" : "outcome-unknown"
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
export type Refusal = "rate" | Limits.CreationWindow

// The spec's error texts name their cause; the reference server's texts for error 5 are "Слишком много
// запросов: …" (rate) and "Слишком много созданий: … в минуту / в сутки" (quota).
const namesCreations = /созда|creation/i
const namesRequests = /запрос|request/i
const namesDay = /сутк|день|дня|day/i

const textOf = (error: unknown): string =>
  Predicate.hasProperty(error, "text") && typeof error.text === "string" ? error.text : ""

/**
 * Tells which limit refused a request with error 5. Error 5 covers both the request rate and the
 * creation quota (spec, Errors and Limits), so the client reads, in order:
 *
 * 1. what it knows of the operation: only the rate limit applies to an operation that is not a
 *    creation, so its refusal is `"rate"`;
 * 2. the server's text, which names the cause: a text naming creations is the quota (`"day"` when it
 *    names the day, else `"minute"`); a text naming requests is `"rate"`;
 * 3. its own quota count, when the text names neither: `counted` is the window the client's own
 *    count had used up once this creation was counted (`undefined` when none was). A refusal the
 *    client cannot lay on the quota is taken as `"rate"`: nothing was created, and it is sent again
 *    after the rate window, at most `limitRetries` times within the call's deadline.
 *
 * Only a refusal laid on the quota can end a creation with `CreationQuotaExceeded` (or hold it to the
 * next minute); a rate refusal never does.
 *
 * @since 0.1.0
 * @category utils
 */
export const refusalOf = (
  op: Pick<Operation.Any, "creation">,
  error: unknown,
  counted?: Limits.CreationWindow | undefined
): Refusal => {
  if (!op.creation) return "rate"
  const text = textOf(error)
  if (namesCreations.test(text)) return namesDay.test(text) ? "day" : "minute"
  if (namesRequests.test(text)) return "rate"
  return counted ?? "rate"
}

/**
 * The errors a retry schedule sees.
 *
 * @since 0.1.0
 * @category models
 */
export type Retryable =
  | ApiError.KeyServiceUnavailableError
  | ApiError.InternalServerError
  | ClientError.TransportError
  | ClientError.TimeoutError

/**
 * The retry policy of a client.
 *
 * @since 0.1.0
 * @category models
 */
export interface Policy {
  /** The delays between attempts after 9, and after 101 or transport errors of safe operations. */
  readonly schedule: Schedule.Schedule<unknown, Retryable>
  /** How many times a request answered with 5 is sent again after waiting for its window. */
  readonly limitRetries: number
}

const capMillis = 8_000

/**
 * The default schedule: 0.5 s doubling, each delay jittered (×0.8–1.2), rounded to whole milliseconds
 * and capped at 8 s, at most 6 attempts (5 retries).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultSchedule: Schedule.Schedule<unknown, unknown> = Schedule.exponential(Duration.millis(500), 2).pipe(
  Schedule.jittered,
  // Jitter gives fractions of a millisecond; summed on the clock they make a capped delay measure as
  // 8000.000000000001 ms. Whole milliseconds, clamped after the jitter, keep every delay within the cap
  // (and, the bounds 0.8 and 1.2 times the base being whole, within the jitter's range).
  Schedule.modifyDelay((_, delay) => Duration.millis(Math.min(Math.round(Duration.toMillis(delay)), capMillis))),
  Schedule.intersect(Schedule.recurs(5))
)

/**
 * The default policy: {@link defaultSchedule}, and up to 5 sends again after error 5.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPolicy: Policy = { schedule: defaultSchedule, limitRetries: 5 }

/**
 * A policy with no retries at all.
 *
 * @since 0.1.0
 * @category constants
 */
export const never: Policy = { schedule: Schedule.stop, limitRetries: 0 }
