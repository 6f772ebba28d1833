/**
 * The plan of one call's attempts, "sans I/O": each failed attempt in, the call's next step out, for
 * both Effect lines, whose loops carry the steps out (the schedule's delays, the races against the
 * deadline). Each attempt is numbered, and the plan keeps what the last one failed with (the reason of
 * the next, on the retries' metric).
 *
 * The steps, from the retry table (`CallFailure.decide`):
 *
 * - `"again"`: an error 5 (its admission held back what its limit needs): the attempt is sent again
 *   at once, and waits for its window in its admission; at most `limitRetries` times in a row;
 * - `"schedule"`: an error the policy retries (9 always; 101, transport failures and timeouts when
 *   the operation is safe to repeat): sent again after the schedule's next delay, unless the schedule
 *   is spent. The count of sends after error 5 starts afresh after it;
 * - `"outcome-unknown"`: an ambiguous failure of an operation that is not safe to repeat: the call
 *   fails with an unknown outcome (the action may or may not have happened), with {@link unknownReason};
 * - `"fail"`: the call fails with the error (error 5 past its sends again, the deadline, any final error).
 *
 * @since 0.1.0
 */
import * as CallFailure from "./CallFailure.js"
import type * as RetryTable from "./RetryTable.js"

/**
 * What the call does after a failed attempt.
 *
 * @since 0.1.0
 * @category models
 */
export type Step = "again" | "schedule" | "outcome-unknown" | "fail"

/**
 * The plan of one run of a call.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallPlan {
  /** An attempt begins: its number, from 1. */
  readonly started: () => number
  /** An attempt failed with `error`: what the call does next. */
  readonly failed: (error: unknown) => Step
  /** What the last attempt failed with (`undefined` before any failed). */
  readonly last: () => unknown
}

/**
 * The plan of a run of a call of an operation with `flags`, at most `limitRetries` sends again in a
 * row after error 5.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (flags: RetryTable.Flags, limitRetries: number): CallPlan => {
  let attempts = 0
  let afterLimit = 0
  let last: unknown
  return {
    started: () => ++attempts,
    failed: (error) => {
      last = error
      switch (CallFailure.decide(flags, error)) {
        case "wait-for-limit":
          return afterLimit++ < limitRetries ? "again" : "fail"
        case "retry":
          afterLimit = 0
          return "schedule"
        case "outcome-unknown":
          return "outcome-unknown"
        case "fail":
          return "fail"
      }
    },
    last: () => last
  }
}

/**
 * The reason of the unknown outcome after `error` (`CallFailure.unknownOutcomeReason`).
 *
 * @since 0.1.0
 * @category utils
 */
export const unknownReason = CallFailure.unknownOutcomeReason
