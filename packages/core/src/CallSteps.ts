/**
 * The steps of a call that both Effect lines take alike, written once over a line's effects
 * ({@link Effects}, as `FallbackStores` takes them): the envelope of an admitted answer read into the
 * operation's success or a typed error, with the admission's step after a failed answer
 * ({@link decoded}), and the attempts of a call as its plan (`CallPlan`) decides them
 * ({@link attempts}), and the whole of a call within its deadline ({@link sender}). A line gives its
 * combinators, its errors and what needs its Effect: the numbering of an attempt on its span, the
 * schedule's delays and the deadline's race.
 *
 * @since 0.1.0
 */
import * as Admission from "./Admission.js"
import * as CallDeadline from "./CallDeadline.js"
import * as CallFailure from "./CallFailure.js"
import * as CallPlan from "./CallPlan.js"
import type { Kind, TypeLambda } from "./RedisCounts.js"
import type * as RetryTable from "./RetryTable.js"

/**
 * What the steps need of a line's effects, each of type `Kind<F, A>` for a result `A` (its errors
 * left to the line's types).
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda> {
  /** The effect `make` returns, made when run. */
  readonly suspend: <A>(make: () => Kind<F, A>) => Kind<F, A>
  /** Fails with `error`. */
  readonly fail: <A>(error: unknown) => Kind<F, A>
  /** `effect`, or what `f` makes of its failure. */
  readonly catchAll: <A>(effect: Kind<F, A>, f: (error: unknown) => Kind<F, A>) => Kind<F, A>
  /** `effect`, or what `f` makes of its defect (a throw). */
  readonly catchDefect: <A>(effect: Kind<F, A>, f: (defect: unknown) => Kind<F, A>) => Kind<F, A>
  /** `first`, then `next`. */
  readonly andThen: <A>(first: Kind<F, void>, next: Kind<F, A>) => Kind<F, A>
  /** `effect`, then what `f` makes of its result. */
  readonly flatMap: <A, B>(effect: Kind<F, A>, f: (a: A) => Kind<F, B>) => Kind<F, B>
}

/**
 * How a line reads an answer's envelope: its decoder fails with the operation's error, or with the
 * envelope's own error (`isEnvelopeError`, whose `reason` says why), which `unreadable` turns into the
 * line's `ResponseDecodeError` of `operation`, as it does a failure of the decoder itself.
 *
 * @since 0.1.0
 * @category models
 */
export interface Decoding {
  readonly isEnvelopeError: (error: unknown) => error is { readonly reason: string }
  readonly unreadable: (operation: string, reason: string) => unknown
}

/**
 * Reads with `decode` the envelope of an admitted answer of `target`. An answer that is not the
 * operation's envelope is unreadable, and so is any failure of the decoder itself (the body's depth is
 * bounded before, so none is expected): decoding never fails untyped. An error 9 gives the admission
 * back (the server counted nothing); an error 5 holds back the limit that refused it.
 *
 * @since 0.1.0
 * @category execution
 */
export const decoded = <F extends TypeLambda, A>(
  effects: Effects<F>,
  decoding: Decoding,
  target: RetryTable.Flags & { readonly path: string },
  decode: (answer: unknown) => Kind<F, A>
) =>
(admitted: Admission.Admitted<unknown, Kind<F, void>>): Kind<F, A> =>
  effects.catchAll(
    effects.catchDefect(
      effects.suspend(() => decode(admitted.answer)),
      (defect) => effects.fail(decoding.unreadable(target.path, CallFailure.decoderFailed(defect)))
    ),
    (error) => {
      const failure = decoding.isEnvelopeError(error)
        ? decoding.unreadable(target.path, CallFailure.decodeReason(error.reason))
        : error
      const step = Admission.stepAfter(target, admitted, failure, undefined)
      return step === undefined ? effects.fail(failure) : effects.andThen(step, effects.fail(failure))
    }
  )

/**
 * What a call's steps are bounded with, by the line's race of the deadline (`CallDeadline`): an
 * exchange marked in flight while it runs and bounded by the attempt's timeout (one ended by the
 * deadline stays marked), an attempt bounded by the deadline and, while its exchange is in flight, by
 * the timeout, and the rest of the call (retries and their delays) by the deadline.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bounds<F extends TypeLambda> {
  readonly inFlight: <A>(exchange: Kind<F, A>) => Kind<F, A>
  readonly attempt: <A>(attempt: Kind<F, A>) => Kind<F, A>
  readonly rest: <A>(effect: Kind<F, A>) => Kind<F, A>
}

/**
 * What a line's client gives every call's attempts: an attempt after the first (`number`, after a
 * failure `last`) counted and numbered on the call's span, the schedule (made once an attempt failed:
 * most calls succeed at once) whose step after `error` waits its delay and tells whether to go again,
 * and the line's `OutcomeUnknownError` of `operation`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Retries<F extends TypeLambda> {
  readonly numbered: <A>(number: number, last: unknown, attempt: Kind<F, A>) => Kind<F, A>
  readonly schedule: Kind<F, (error: unknown) => Kind<F, boolean>>
  readonly unknown: (operation: string, reason: string) => unknown
}

/**
 * Runs `attempt` as `plan` says, and once it failed, the rest of the call within `rest` (the deadline's
 * race): again at once after error 5 (the admission waits for the window), on the schedule after the
 * errors the policy retries (spent, the call fails with the error), or an unknown outcome after an
 * ambiguous failure of an operation that is not safe to repeat. The first attempt is not numbered: its
 * number is among the span's attributes from the start (`Spans.attributesOf`).
 *
 * @since 0.1.0
 * @category execution
 */
export const attempts = <F extends TypeLambda, A>(
  effects: Effects<F>,
  retries: Retries<F>,
  operation: string,
  plan: CallPlan.CallPlan,
  attempt: Kind<F, A>,
  rest: (retries: Kind<F, A>) => Kind<F, A>
): Kind<F, A> => {
  const numbered = effects.suspend(() => {
    const number = plan.started()
    return number === 1 ? attempt : retries.numbered(number, plan.last(), attempt)
  })
  const stop = (error: unknown, step: CallPlan.Step): Kind<F, A> =>
    effects.fail(
      step === "outcome-unknown" ? retries.unknown(operation, CallFailure.unknownOutcomeReason(error)) : error
    )
  const again = (first: unknown, firstStep: CallPlan.Step) =>
    effects.flatMap(retries.schedule, (delay) => {
      // Only the errors the policy retries reach the schedule.
      const after = (error: unknown, step: CallPlan.Step): Kind<F, A> =>
        step === "again"
          ? loop
          : step === "schedule"
          ? effects.flatMap(delay(error), (go) => go ? loop : effects.fail<A>(error))
          : stop(error, step)
      const loop: Kind<F, A> = effects.catchAll(numbered, (error) => after(error, plan.failed(error)))
      return after(first, firstStep)
    })
  return effects.catchAll(numbered, (first) => {
    const step = plan.failed(first)
    return step === "again" || step === "schedule" ? rest(again(first, step)) : stop(first, step)
  })
}

/**
 * What a client sends its calls with ({@link sender}), given once per client: the line's effects on its
 * clocks `C` (with its race of the deadline), its retries and reading of an answer, the errors of the
 * deadline's verdicts, the client's deadline and timeout, and how many times it sends a request again
 * after error 5.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sending<F extends TypeLambda, C> {
  readonly effects: CallDeadline.Effects<F, C>
  readonly retries: Retries<F>
  readonly decoding: Decoding
  readonly errors: CallDeadline.Errors<unknown, unknown>
  readonly settings: { readonly deadlineMillis: number; readonly timeoutMillis: number }
  readonly limitRetries: number
}

/**
 * How a client sends a call of `target` on `clock`: its `exchange` admitted by `admission`, in flight
 * under its timeout, its answer read by `decode` ({@link decoded}), in attempts as the call's plan says
 * ({@link attempts}), all within the call's deadline (`CallDeadline.bounded`).
 *
 * @since 0.1.0
 * @category execution
 */
export const sender = <F extends TypeLambda, C>(sending: Sending<F, C>) =>
<A>(
  clock: C,
  target: RetryTable.Flags & { readonly path: string },
  admission: { readonly admit: (send: Kind<F, unknown>) => Kind<F, Admission.Admitted<unknown, Kind<F, void>>> },
  exchange: Kind<F, unknown>,
  decode: (answer: unknown) => Kind<F, A>
): Kind<F, A> => {
  const { effects } = sending
  const read = decoded(effects, sending.decoding, target, decode)
  return CallDeadline.bounded(
    effects,
    clock,
    sending.settings,
    target,
    sending.errors,
    ({ attempt, inFlight, rest }) =>
      attempts(
        effects,
        sending.retries,
        target.path,
        CallPlan.make(target, sending.limitRetries),
        attempt(effects.flatMap(admission.admit(inFlight(exchange)), read)),
        rest
      )
  )
}
