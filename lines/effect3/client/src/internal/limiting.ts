/**
 * The limiters applied around an exchange, one per kind of operation: an ordinary request waits for a
 * pacing permit (L1); a creation is counted against the creation quota (L2) before it waits for that
 * permit, and again right before it is sent. Each admitted request also says what the server's
 * error 5 means for it (`Retry.refusalOf`), and after that error the request is sent again once the
 * limit that refused it allows it.
 */
import type { Lane } from "@community-api/core/Lane"
import { Duration, Effect, Predicate, Random } from "effect"
import type * as ClientError from "../ClientError.js"
import type * as CreationQuota from "../CreationQuota.js"
import type * as Pacing from "../Pacing.js"
import * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"
import type * as Retrying from "./retrying.js"

/**
 * What an admitted exchange answered, and what to do when the answer was a refusal.
 *
 * @internal
 */
export interface Admitted<A> {
  readonly answer: A
  /** The server answered 9, so it did nothing and counted nothing: the quota takes the creation back. */
  readonly giveBack: Effect.Effect<void>
  /** The server answered 5 (`error`): hold back what the limit that refused it needs. */
  readonly refused: (error: unknown) => Effect.Effect<void>
}

/** @internal */
export interface Admission {
  /** Runs `send` once the limits allow it. */
  readonly admit: <A, E>(
    send: Effect.Effect<A, E>
  ) => Effect.Effect<Admitted<A>, E | ClientError.CreationQuotaExceeded | ClientError.LimiterUnavailable>
}

/**
 * An ordinary request: it holds a pacing permit of `user` while it is sent and answered; after an
 * error 5 (always the rate limit for it) every request of the user waits a whole window.
 *
 * @internal
 */
export const paced = (pacing: Pacing.Service, user: string, lane: Lane | undefined): Admission => {
  const withPermit = pacing.withPermit(user, lane)
  const refused = () => Effect.zipRight(Metrics.refused("rate"), pacing.penalize(user))
  return {
    admit: (send) => Effect.map(withPermit(send), (answer) => ({ answer, giveBack: Effect.void, refused }))
  }
}

/**
 * What a creation refused by the rate waits before it is sent again: the margin and a random moment
 * of the next rate window. Not a fixed window: the window was filled by another client of the user
 * (another process, since this one's pacing keeps its own requests under the limit), whose permits
 * come back on the pacing period; a creation that waited exactly that period would come back at the
 * same point of that client's cycle and be refused again, every time. From `Random`, which a test
 * can seed.
 */
const offBeat = (settings: Pacing.Service["settings"]): Effect.Effect<void> =>
  Effect.flatMap(
    Random.nextIntBetween(0, settings.windowMillis),
    (millis) => Effect.sleep(Duration.millis(settings.marginMillis + millis))
  )

const isMinuteUsedUp = (error: unknown): error is ClientError.CreationQuotaExceeded =>
  Predicate.isTagged(error, "CreationQuotaExceeded") && Predicate.hasProperty(error, "window") &&
  error.window === "minute"

/**
 * A creation of `operation`: counted before it waits for pacing (a creation that waits for the
 * quota takes no permit meanwhile), counted again in the current windows if a calendar minute began
 * while it waited for the permit (the server counts it when it arrives). When that last count finds
 * the minute used up, it is not sent: it waits for the next minute in wait mode, or fails.
 *
 * After an error 5 the limit that refused it is told by `Retry.refusalOf`. A rate refusal gives the
 * creation back to the quota (the server checks the rate before the quota and counted nothing) and
 * sends it again within the next rate window ({@link offBeat}); a refusal of the quota's minute (or
 * day) uses up that window for the user, so that no creation of the user is sent in it again.
 *
 * @internal
 */
export const counted = (
  quota: CreationQuota.Service,
  pacing: Pacing.Service,
  user: string,
  operation: string,
  onExhausted: CreationQuota.OnExhausted,
  lane: Lane | undefined
): Admission => {
  const withPermit = pacing.withPermit(user, lane)
  const refusedAfter = (taken: number) => (error: unknown) =>
    Effect.flatMap(quota.usedUp(user), (window) => {
      const refusal = Retry.refusalOf({ creation: true }, error, window)
      return Effect.zipRight(
        Metrics.refused(refusal),
        Effect.suspend(() => {
          switch (refusal) {
            case "rate":
              return Effect.zipRight(quota.refund(user, taken), offBeat(pacing.settings))
            case "minute":
              return quota.exhaustMinute(user)
            case "day":
              return quota.exhaustDay(user)
          }
        })
      )
    })
  return {
    admit: <A, E>(send: Effect.Effect<A, E>) => {
      const admitted: Effect.Effect<
        Admitted<A>,
        E | ClientError.CreationQuotaExceeded | ClientError.LimiterUnavailable
      > = Effect.flatMap(
        quota.acquire(user, operation, onExhausted),
        (counted) =>
          withPermit(
            Effect.flatMap(
              quota.confirm(user, operation, counted),
              (taken) =>
                Effect.map(send, (answer) => ({
                  answer,
                  giveBack: quota.refund(user, taken),
                  refused: refusedAfter(taken)
                }))
            )
          ).pipe(Effect.catchIf((error) => onExhausted === "wait" && isMinuteUsedUp(error), () => admitted))
      )
      return admitted
    }
  }
}

/**
 * After an error 5 (whose admission held back what its limit needs) the attempt is sent again, at most
 * `times` times: the next attempt waits for its window in the admission.
 *
 * @internal
 */
export const repeatAfterLimit =
  (target: Retrying.Flags, times: number) => <A, E>(attempt: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.retry(attempt, { while: (error: E) => Retry.decide(target, error) === "wait-for-limit", times })
