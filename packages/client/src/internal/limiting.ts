/**
 * The limiters applied around an exchange, one per kind of operation: an ordinary request waits for a
 * pacing permit (L1); a creation is counted against the creation quota (L2) before it waits for that
 * permit, and again right before it is sent. Each admission also says what the server's error 5 means
 * for it, and after that error the request is sent again once the limit allows it.
 */
import { Effect, Predicate } from "effect"
import type * as ClientError from "../ClientError.js"
import type * as CreationQuota from "../CreationQuota.js"
import type * as Pacing from "../Pacing.js"
import * as Retry from "../Retry.js"
import type * as Retrying from "./retrying.js"

/**
 * What an admitted exchange answered, and how to give its admission back.
 *
 * @internal
 */
export interface Admitted<A> {
  readonly answer: A
  /** The server answered 9, so it did nothing and counted nothing: the quota takes the creation back. */
  readonly giveBack: Effect.Effect<void>
}

/** @internal */
export interface Admission {
  /** Runs `send` once the limits allow it. */
  readonly admit: <A, E>(send: Effect.Effect<A, E>) => Effect.Effect<Admitted<A>, E | ClientError.CreationQuotaExceeded>
  /** The server answered 5 to a request admitted here. */
  readonly penalize: Effect.Effect<void>
}

/**
 * An ordinary request: it holds a pacing permit of `user` while it is sent and answered; after an
 * error 5 every request of the user waits a whole window.
 *
 * @internal
 */
export const paced = (pacing: Pacing.Service, user: string): Admission => {
  const withPermit = pacing.withPermit(user)
  return {
    admit: (send) => Effect.map(withPermit(send), (answer) => ({ answer, giveBack: Effect.void })),
    penalize: pacing.penalize(user)
  }
}

const isMinuteUsedUp = (error: unknown): error is ClientError.CreationQuotaExceeded =>
  Predicate.isTagged(error, "CreationQuotaExceeded") && Predicate.hasProperty(error, "window") &&
  error.window === "minute"

/**
 * A creation of `operation`: counted before it waits for pacing (a creation that waits for the
 * quota takes no permit meanwhile), counted again in the current windows if a calendar minute began
 * while it waited for the permit (the server counts it when it arrives). When that last count finds
 * the minute used up, it is not sent: it waits for the next minute in wait mode, or fails. After an
 * error 5 no creation of the user is sent in the same minute.
 *
 * @internal
 */
export const counted = (
  quota: CreationQuota.Service,
  pacing: Pacing.Service,
  user: string,
  operation: string,
  onExhausted: CreationQuota.OnExhausted
): Admission => {
  const withPermit = pacing.withPermit(user)
  return {
    admit: <A, E>(send: Effect.Effect<A, E>) => {
      const admitted: Effect.Effect<Admitted<A>, E | ClientError.CreationQuotaExceeded> = Effect.flatMap(
        quota.acquire(user, operation, onExhausted),
        (counted) =>
          withPermit(
            Effect.flatMap(
              quota.confirm(user, operation, counted),
              (taken) => Effect.map(send, (answer) => ({ answer, giveBack: quota.refund(user, taken) }))
            )
          ).pipe(Effect.catchIf((error) => onExhausted === "wait" && isMinuteUsedUp(error), () => admitted))
      )
      return admitted
    },
    penalize: quota.exhaustMinute(user)
  }
}

/**
 * After an error 5 the admission is penalized and the attempt sent again, at most `times` times: the
 * next attempt waits for its window in the admission.
 *
 * @internal
 */
export const repeatAfterLimit = (
  target: Retrying.Flags,
  admission: Admission,
  times: number
) =>
<A, E>(attempt: Effect.Effect<A, E>): Effect.Effect<A, E> => {
  const isLimit = (error: E) => Retry.decide(target, error) === "wait-for-limit"
  return attempt.pipe(
    Effect.tapError((error) => isLimit(error) ? admission.penalize : Effect.void),
    Effect.retry({ while: isLimit, times })
  )
}
