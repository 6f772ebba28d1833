/**
 * The limiters applied around an exchange, one per kind of operation: an ordinary request waits for a
 * pacing permit (L1); a creation is counted against the creation quota (L2) before it waits for that
 * permit, and again right before it is sent. The admissions are put together by the core
 * (`@community-api/core/Admission`), and so is the quota service (`@community-api/core/CreationQuota`),
 * over this line's effects ({@link effects}). After an error 5 the request is sent again once the
 * limit that refused it allows it.
 */
import * as AdmissionTable from "@community-api/core/Admission"
import * as Quota from "@community-api/core/CreationQuota"
import type { TypeLambda } from "@community-api/core/RedisPermitStore"
import { DateTime, Duration, Effect, Random } from "effect"
import * as Budget from "../Budget.js"
import * as ClientError from "../ClientError.js"
import * as Metrics from "./metrics.js"
import * as Timers from "./timers.js"

/** This line's effect of a result and an error. @internal */
export interface Fx extends TypeLambda {
  readonly type: Effect.Effect<this["A"], this["E"]>
}

/** This line's effects for the limiters that the core puts together. @internal */
export const effects:
  & AdmissionTable.Effects<Fx>
  & Quota.Line<Fx, DateTime.Utc, DateTime.DateTime, ClientError.CreationQuotaExceeded> = {
    map: (self, f) => Effect.map(self, f),
    flatMap: (self, f) => Effect.flatMap(self, f),
    succeed: Effect.succeed,
    sync: Effect.sync,
    fail: Effect.fail,
    void: Effect.void,
    sleep: (millis) => Effect.sleep(Duration.millis(millis)),
    // In the background: no call waits for it, so it never keeps a process alive.
    idle: (millis) => Effect.clockWith((clock) => Timers.sleepInBackground(clock, millis)),
    clock: Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe())),
    catchIf: (self, test, f) => Effect.catchIf(self, test, f),
    draw: (max) => Random.nextIntBetween(0, max),
    refused: Metrics.refused,
    logged: (self, say, otherwise) => Effect.catch(self, (error) => Effect.as(Effect.logDebug(say(error)), otherwise)),
    instant: Budget.utc,
    exceeded: (operation, window, resetsAt) => new ClientError.CreationQuotaExceeded({ operation, window, resetsAt }),
    epochMillis: DateTime.toEpochMillis
  }

/** The quota service over a store of counts (the core's `CreationQuota.service`). @internal */
export const quota = Quota.service<Fx, DateTime.Utc, DateTime.DateTime, ClientError.CreationQuotaExceeded>(effects)

type Refusals = ClientError.CreationQuotaExceeded | ClientError.LimiterUnavailable

/** @internal */
export type Admission = AdmissionTable.Admission<Fx, Refusals>

/**
 * The admissions of an ordinary request (a pacing permit) and of a creation (counted, then a permit):
 * the core's `Admission.paced` and `counted`.
 *
 * @internal
 */
export const paced = AdmissionTable.paced<Fx, Refusals>(effects)

/** @internal */
export const counted = AdmissionTable.counted<Fx, Refusals>(effects)
