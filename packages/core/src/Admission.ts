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
import type * as CreationQuota from "./CreationQuota.js"
import type { Lane } from "./Lane.js"
import type * as Limits from "./Limits.js"
import type { Kind, TypeLambda } from "./RedisPermitStore.js"
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

/**
 * What the admissions need of a line's effects (`F`, as `RedisPermitStore.Kind` reads them), beyond
 * those of its quota: its effect of nothing, its `catchIf`, its random draw and its count of a refusal.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda>
  extends Pick<CreationQuota.Effects<F, unknown>, "map" | "flatMap" | "sleep">
{
  readonly void: Kind<F, void, never>
  /** `self`, or what `f` makes when it fails with an error that `test` accepts. */
  readonly catchIf: <A, X, B, Y>(
    self: Kind<F, A, X>,
    test: (error: X) => boolean,
    f: () => Kind<F, B, Y>
  ) => Kind<F, A | B, X | Y>
  /** A whole number from 0 up to, not including, `max` (the line's `Random`, which a test can seed). */
  readonly draw: (max: number) => Kind<F, number, never>
  /** Counts a refusal for `refusal` in the line's metrics. */
  readonly refused: (refusal: RetryTable.Refusal) => Kind<F, void, never>
}

/**
 * What an admission reads of a line's pacing service: its settings, its `withPermit` (failing with
 * `L` when its store cannot be reached) and its `penalize`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Pacing<F extends TypeLambda, L> {
  readonly settings: { readonly windowMillis: number; readonly marginMillis: number }
  readonly withPermit: (user: string, lane?: Lane) => <A, X>(send: Kind<F, A, X>) => Kind<F, A, X | L>
  readonly penalize: (user: string) => Kind<F, void, never>
}

/**
 * What an admission reads of a line's creation quota service (its counts failing with `L`).
 *
 * @since 0.1.0
 * @category models
 */
export type Quota<F extends TypeLambda, L> = Omit<
  CreationQuota.Shape<
    Kind<F, number, L>,
    Kind<F, void, never>,
    Kind<F, Limits.CreationWindow | undefined, never>,
    unknown,
    unknown,
    unknown
  >,
  "budget" | "estimate"
>

/**
 * How the attempts of an operation are admitted: `admit` runs `send` once the limits allow it, and
 * fails with the limiters' `L` (nothing sent) when they do not.
 *
 * @since 0.1.0
 * @category models
 */
export interface Admission<F extends TypeLambda, L> {
  readonly admit: <A, X>(send: Kind<F, A, X>) => Kind<F, Admitted<A, Kind<F, void, never>>, X | L>
}

/**
 * An ordinary request, in a line's `effects`: it holds a pacing permit of `user` while it is sent and
 * answered; after an error 5 (always the rate limit for it) every request of the user waits a whole
 * window.
 *
 * @since 0.1.0
 * @category constructors
 */
export const paced = <F extends TypeLambda, L>(effects: Effects<F>) =>
(
  pacing: Pacing<F, L>,
  user: string,
  lane: Lane | undefined
): Admission<F, L> => {
  const withPermit = pacing.withPermit(user, lane)
  const giveBack = effects.void
  const refused = () => effects.flatMap(effects.refused("rate"), () => pacing.penalize(user))
  return { admit: (send) => effects.map(withPermit(send), (answer) => ({ answer, giveBack, refused })) }
}

/**
 * A creation of `operation`, in a line's `effects`: counted before it waits for pacing (a creation that waits for the
 * quota takes no permit meanwhile), counted again in the current windows if a calendar minute began
 * while it waited for the permit (the server counts it when it arrives). When that last count finds
 * the minute used up, it is not sent: it waits for the next minute in wait mode ({@link startsOver}),
 * or fails. After an error 5, {@link creationRefused} says what the refusal does; the rate's wait is
 * off the beat of its window ({@link offBeatMillis}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const counted = <F extends TypeLambda, L>(effects: Effects<F>) =>
(
  quota: Quota<F, L>,
  pacing: Pacing<F, L>,
  user: string,
  operation: string,
  onExhausted: CreationQuota.OnExhausted,
  lane: Lane | undefined
): Admission<F, L> => {
  const withPermit = pacing.withPermit(user, lane)
  const offBeat = () =>
    effects.flatMap(
      effects.draw(pacing.settings.windowMillis),
      (draw) => effects.sleep(offBeatMillis(pacing.settings, draw))
    )
  const actions = (taken: number): Record<CreationRefused, () => Kind<F, void, never>> => ({
    "give-back-and-wait": () => effects.flatMap(quota.refund(user, taken), offBeat),
    "exhaust-minute": () => quota.exhaustMinute(user),
    "exhaust-day": () => quota.exhaustDay(user)
  })
  const refusedAfter = (taken: number) => (error: unknown) =>
    effects.flatMap(quota.usedUp(user), (window) => {
      const refusal = CallFailure.refusalOf({ creation: true }, error, window)
      return effects.flatMap(effects.refused(refusal), actions(taken)[creationRefused(refusal)])
    })
  const admit = <A, X>(send: Kind<F, A, X>): Kind<F, Admitted<A, Kind<F, void, never>>, X | L> =>
    effects.flatMap(quota.acquire(user, operation, onExhausted), (counted) =>
      effects.catchIf(
        withPermit(effects.flatMap(quota.confirm(user, operation, counted), (taken) =>
          effects.map(
            send,
            (answer) => ({ answer, giveBack: quota.refund(user, taken), refused: refusedAfter(taken) })
          ))),
        (error) => startsOver(onExhausted, error),
        () => admit(send)
      ))
  return { admit }
}
