/**
 * What the admission of an attempt does once its answer is read, in either Effect line, as a table:
 * an error 9 gives a creation's count back (the server did nothing and counted nothing); an error 5
 * is told to the limit that refused it. An ordinary request's refusal is always the rate: every
 * request of the user waits a whole window. A creation's refusal is read by `CallFailure.refusalOf`:
 * after the rate the creation is given back to the quota (the server checks the rate before the quota
 * and counted nothing) and sent again off the beat of the next rate window ({@link offBeatMillis}); a
 * refusal of the quota's minute (or day) uses up that window for the user, so that no creation of the
 * user is sent in it again. The lines run the limiters, the waits and the random draw.
 *
 * @since 0.1.0
 */
import * as CallFailure from "./CallFailure.js"
import type * as RetryTable from "./RetryTable.js"

/**
 * What an admitted exchange answered, and what its admission does after a failed answer: each line's
 * `Step` is its effect of nothing.
 *
 * @since 0.1.0
 * @category models
 */
export interface Admitted<A, Step> {
  readonly answer: A
  /** The server answered 9, so it did nothing and counted nothing: the quota takes the creation back. */
  readonly giveBack: Step
  /** The server answered 5 (`error`): hold back what the limit that refused it needs. */
  readonly refused: (error: unknown) => Step
}

/**
 * What an admission does after a failed answer: give the admission back, tell the limit that refused
 * it, or nothing.
 *
 * @since 0.1.0
 * @category models
 */
export type AfterFailure = "give-back" | "refused" | "none"

/**
 * What the admission of an operation with `flags` does after its answer failed with `error`.
 *
 * @since 0.1.0
 * @category utils
 */
export const afterFailure = (flags: RetryTable.Flags, error: unknown): AfterFailure =>
  CallFailure.isNothingDone(error)
    ? "give-back"
    : CallFailure.decide(flags, error) === "wait-for-limit"
    ? "refused"
    : "none"

/**
 * The step of `admitted` after its answer failed with `error` (see {@link afterFailure}); `none` when
 * there is nothing to do.
 *
 * @since 0.1.0
 * @category utils
 */
export const stepAfter = <Step>(
  flags: RetryTable.Flags,
  admitted: Admitted<unknown, Step>,
  error: unknown,
  none: Step
): Step => {
  switch (afterFailure(flags, error)) {
    case "give-back":
      return admitted.giveBack
    case "refused":
      return admitted.refused(error)
    case "none":
      return none
  }
}

/**
 * What a creation refused with error 5 does: given back and sent again off the beat of the rate
 * window, or the quota's minute or day used up for the user.
 *
 * @since 0.1.0
 * @category models
 */
export type CreationRefused = "give-back-and-wait" | "exhaust-minute" | "exhaust-day"

/**
 * What a creation does after the refusal of `refusal`.
 *
 * @since 0.1.0
 * @category utils
 */
export const creationRefused = (refusal: RetryTable.Refusal): CreationRefused =>
  refusal === "rate" ? "give-back-and-wait" : refusal === "minute" ? "exhaust-minute" : "exhaust-day"

/**
 * What a creation refused by the rate waits before it is sent again: the margin and a random moment
 * (`draw`, between 0 and the window) of the next rate window. Not a fixed window: the window was
 * filled by another client of the user (another process, since this one's pacing keeps its own
 * requests under the limit), whose permits come back on the pacing period; a creation that waited
 * exactly that period would come back at the same point of that client's cycle and be refused again,
 * every time. The lines draw from their `Random`, which a test can seed.
 *
 * @since 0.1.0
 * @category utils
 */
export const offBeatMillis = (settings: { readonly marginMillis: number }, draw: number): number =>
  settings.marginMillis + draw

/**
 * Whether a creation's admission starts over after `error`: in wait mode, when the last count before
 * it is sent finds the minute used up (a calendar minute began while it waited for the permit), it
 * waits for the next minute.
 *
 * @since 0.1.0
 * @category utils
 */
export const startsOver = (onExhausted: "wait" | "fail", error: unknown): boolean =>
  onExhausted === "wait" && typeof error === "object" && error !== null &&
  (error as { readonly _tag?: unknown })._tag === "CreationQuotaExceeded" &&
  (error as { readonly window?: unknown }).window === "minute"
