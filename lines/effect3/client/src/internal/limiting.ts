/**
 * The limiters applied around an exchange, one per kind of operation: an ordinary request waits for a
 * pacing permit (L1); a creation is counted against the creation quota (L2) before it waits for that
 * permit, and again right before it is sent. What an admission does after the answer (an error 9 gives
 * a creation back, an error 5 is told to the limit that refused it) is the core's table
 * (`@community-api/core/Admission`); this module runs it on the limiters. After an error 5 the request
 * is sent again once the limit that refused it allows it.
 */
import * as AdmissionTable from "@community-api/core/Admission"
import type { Lane } from "@community-api/core/Lane"
import { Duration, Effect, Random } from "effect"
import type * as ClientError from "../ClientError.js"
import type * as CreationQuota from "../CreationQuota.js"
import type * as Pacing from "../Pacing.js"
import * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"

/** What an admitted exchange answered, and its admission's steps after a refusal (the core's). */
export type Admitted<A> = AdmissionTable.Admitted<A, Effect.Effect<void>>

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

/** The wait off the beat of the next rate window (`Admission.offBeatMillis`), drawn from `Random`. */
const offBeat = (settings: Pacing.Service["settings"]): Effect.Effect<void> =>
  Effect.flatMap(
    Random.nextIntBetween(0, settings.windowMillis),
    (draw) => Effect.sleep(Duration.millis(AdmissionTable.offBeatMillis(settings, draw)))
  )

/**
 * A creation of `operation`: counted before it waits for pacing (a creation that waits for the
 * quota takes no permit meanwhile), counted again in the current windows if a calendar minute began
 * while it waited for the permit (the server counts it when it arrives). When that last count finds
 * the minute used up, it is not sent: it waits for the next minute in wait mode, or fails. After an
 * error 5, the core's `Admission.creationRefused` says what the refusal does.
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
      const action = AdmissionTable.creationRefused(refusal)
      return Effect.zipRight(
        Metrics.refused(refusal),
        Effect.suspend(() =>
          action === "give-back-and-wait"
            ? Effect.zipRight(quota.refund(user, taken), offBeat(pacing.settings))
            : action === "exhaust-minute"
            ? quota.exhaustMinute(user)
            : quota.exhaustDay(user)
        )
      )
    })
  const admitted = <A, E>(
    send: Effect.Effect<A, E>
  ): Effect.Effect<Admitted<A>, E | ClientError.CreationQuotaExceeded | ClientError.LimiterUnavailable> =>
    Effect.flatMap(quota.acquire(user, operation, onExhausted), (counted) =>
      withPermit(
        Effect.flatMap(quota.confirm(user, operation, counted), (taken) =>
          Effect.map(send, (answer) => ({ answer, giveBack: quota.refund(user, taken), refused: refusedAfter(taken) })))
      ).pipe(Effect.catchIf((error) =>
        AdmissionTable.startsOver(onExhausted, error), () =>
        admitted(send))))
  return { admit: admitted }
}
