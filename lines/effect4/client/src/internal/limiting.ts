/**
 * The admission of an attempt: a pacing permit for every request, and for a creation first a count
 * of the creation quota, confirmed once the permit is held. An error 9 gives the count back; an
 * error 5 tells the limit that refused it.
 */
import type { Lane } from "@community-api/core/Lane"
import { Duration, Effect, Predicate, Random } from "effect"
import type * as ClientError from "../ClientError.js"
import type * as CreationQuota from "../CreationQuota.js"
import type * as Pacing from "../Pacing.js"
import * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"
import type * as Retrying from "./retrying.js"

/** An admitted answer, and what its decoding may give back or hold back. */
export interface Admitted<A> {
  readonly answer: A
  /** Gives the admission back: the server did nothing (error 9). */
  readonly giveBack: Effect.Effect<void>
  /** Holds back the limit that refused the request with `error` (an error 5). */
  readonly refused: (error: unknown) => Effect.Effect<void>
}

/** How an operation's attempts are admitted. */
export interface Admission {
  readonly admit: <A, E>(
    send: Effect.Effect<A, E>
  ) => Effect.Effect<Admitted<A>, E | ClientError.CreationQuotaExceeded | ClientError.LimiterUnavailable>
}

/** A permit of `user` for every request. */
export const paced = (pacing: Pacing.Service, user: string, lane: Lane | undefined): Admission => {
  const withPermit = pacing.withPermit(user, lane)
  const refused = () => Effect.andThen(Metrics.refused("rate"), pacing.penalize(user))
  return {
    admit: (send) => Effect.map(withPermit(send), (answer) => ({ answer, giveBack: Effect.void, refused }))
  }
}

/** After the rate refused a creation: a wait off the beat of the window, so that creations spread. */
const offBeat = (settings: Pacing.Service["settings"]): Effect.Effect<void> =>
  Effect.flatMap(
    Random.nextIntBetween(0, settings.windowMillis),
    (millis) => Effect.sleep(Duration.millis(settings.marginMillis + millis))
  )

const isMinuteUsedUp = (error: unknown): error is ClientError.CreationQuotaExceeded =>
  Predicate.isTagged(error, "CreationQuotaExceeded") && Predicate.hasProperty(error, "window") &&
  error.window === "minute"

/** A count of the creation quota, then a permit, for a creation of `user`. */
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
      return Effect.andThen(Metrics.refused(refusal), () => {
        switch (refusal) {
          case "rate":
            return Effect.andThen(quota.refund(user, taken), offBeat(pacing.settings))
          case "minute":
            return quota.exhaustMinute(user)
          case "day":
            return quota.exhaustDay(user)
        }
      })
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
          ).pipe(
            Effect.catchIf((error) => onExhausted === "wait" && isMinuteUsedUp(error), () =>
              Effect.suspend(() => admitted))
          )
      )
      return admitted
    }
  }
}

/** Sends an attempt refused with 5 again, after its limit's wait, at most `times` times. */
export const repeatAfterLimit =
  (target: Retrying.Flags, times: number) => <A, E>(attempt: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.retry(attempt, { while: (error: E) => Retry.decide(target, error) === "wait-for-limit", times })
