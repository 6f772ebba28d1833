/**
 * The admission of an attempt: a pacing permit for every request, and for a creation first a count
 * of the creation quota, confirmed once the permit is held. What it does after the answer is the
 * core's table (`@community-api/core/Admission`): an error 9 gives the count back; an error 5 tells
 * the limit that refused it.
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

/** How an operation's attempts are admitted. */
export interface Admission {
  readonly admit: <A, E>(
    send: Effect.Effect<A, E>
  ) => Effect.Effect<Admitted<A>, E | ClientError.CreationQuotaExceeded | ClientError.LimiterUnavailable>
}

/** A permit of `user` for every request; a refusal (always the rate) penalizes the user's pacing. */
export const paced = (pacing: Pacing.Service, user: string, lane: Lane | undefined): Admission => {
  const withPermit = pacing.withPermit(user, lane)
  const refused = () => Effect.andThen(Metrics.refused("rate"), pacing.penalize(user))
  const giveBack = Effect.void
  return { admit: (send) => withPermit(send).pipe(Effect.map((answer) => ({ answer, giveBack, refused }))) }
}

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
  // What each refusal does (`Admission.creationRefused`); the rate's wait is off the beat of its window.
  const actions = (taken: number): Record<AdmissionTable.CreationRefused, () => Effect.Effect<void>> => ({
    "give-back-and-wait": () =>
      quota.refund(user, taken).pipe(
        Effect.andThen(Random.nextIntBetween(0, pacing.settings.windowMillis)),
        Effect.flatMap((draw) => Effect.sleep(Duration.millis(AdmissionTable.offBeatMillis(pacing.settings, draw))))
      ),
    "exhaust-minute": () => quota.exhaustMinute(user),
    "exhaust-day": () => quota.exhaustDay(user)
  })
  const refusedAfter = (taken: number) => (error: unknown) =>
    quota.usedUp(user).pipe(
      Effect.map((window) => Retry.refusalOf({ creation: true }, error, window)),
      Effect.tap((refusal) => Metrics.refused(refusal)),
      Effect.flatMap((refusal) => actions(taken)[AdmissionTable.creationRefused(refusal)]())
    )
  const admit = <A, E>(
    send: Effect.Effect<A, E>
  ): Effect.Effect<Admitted<A>, E | ClientError.CreationQuotaExceeded | ClientError.LimiterUnavailable> =>
    quota.acquire(user, operation, onExhausted).pipe(
      Effect.flatMap((counted) =>
        withPermit(
          quota.confirm(user, operation, counted).pipe(
            Effect.flatMap((taken) =>
              send.pipe(
                Effect.map((answer) => ({ answer, giveBack: quota.refund(user, taken), refused: refusedAfter(taken) }))
              )
            )
          )
        ).pipe(Effect.catchIf((error) => AdmissionTable.startsOver(onExhausted, error), () => admit(send)))
      )
    )
  return { admit }
}
