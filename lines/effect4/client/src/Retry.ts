/**
 * When the client sends a request again, on the Effect 4 line: the core's retry table
 * (`@community-api/core/RetryTable`) read against this line's errors, and the default schedule.
 *
 * @since 0.1.0
 */
import * as RetryTable from "@community-api/core/RetryTable"
import type { ApiError } from "@community-api/effect4-schema"
import { Duration, Effect, Random, Schedule } from "effect"
import type * as ClientError from "./ClientError.js"

export type {
  /**
   * What the client does after an error.
   *
   * @since 0.1.0
   * @category models
   */
  Decision
} from "@community-api/core/RetryTable"

export {
  /**
   * What the client does after `error` of `op`.
   *
   * @since 0.1.0
   * @category utils
   */
  decide
} from "@community-api/core/CallFailure"

export type {
  /**
   * Which limit an error 5 was.
   *
   * @since 0.1.0
   * @category models
   */
  Refusal
} from "@community-api/core/RetryTable"

export {
  /**
   * Which limit refused `op` with `error` (an error 5), given the window the quota found used up.
   *
   * @since 0.1.0
   * @category utils
   */
  refusalOf
} from "@community-api/core/CallFailure"

/**
 * The errors a retry schedule sees.
 *
 * @since 0.1.0
 * @category models
 */
export type Retryable = Extract<ApiError.ApiError | ClientError.ClientError, { readonly _tag: RetryTable.RetryableTag }>

/**
 * The retry policy.
 *
 * @since 0.1.0
 * @category models
 */
export interface Policy extends RetryTable.Policy<Schedule.Schedule<unknown, Retryable>> {}

const { baseMillis, factor, jitterMax, jitterMin, retries } = RetryTable.backoff

/**
 * The core's backoff: the n-th retry after `baseMillis · factor^n`, jittered between `jitterMin` and
 * `jitterMax` of it, capped; at most `retries` retries.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultSchedule: Schedule.Schedule<unknown, unknown> = Schedule.recurs(retries).pipe(
  // The n-th retry (attempt n, from 1) waits `baseMillis · factor^(n-1)`, jittered and capped.
  Schedule.addDelay(({ attempt }) =>
    Effect.map(
      Random.nextBetween(jitterMin, jitterMax),
      (jitter) => Duration.millis(RetryTable.capDelay(baseMillis * factor ** (attempt - 1) * jitter))
    )
  )
)

/**
 * The default policy.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Retry } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The server is unavailable twice (error 9): the default policy retries, with backoff, and the call succeeds.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner),
 *   retry: Retry.defaultPolicy
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* server.setFaults({ keyServiceUnavailable: { next: 2 } })
 *   strictEqual((yield* api.users.me()).user_id, DemoData.userIds.owner)
 *   strictEqual(yield* server.requestCount, 3)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPolicy: Policy = { schedule: defaultSchedule, limitRetries: RetryTable.limitRetries }

/**
 * No retry at all.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Retry } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // No retry: the first error 9 is the call's.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner),
 *   retry: Retry.never
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* server.setFaults({ keyServiceUnavailable: { next: 1 } })
 *   const error = yield* Effect.flip(api.users.me())
 *   strictEqual(error._tag, "KeyServiceUnavailableError")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const never: Policy = { schedule: Schedule.recurs(0), limitRetries: 0 }
