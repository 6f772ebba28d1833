/**
 * When the client sends a request again, read from the contract: the error's kind
 * (`ApiError.kindOf`) and the operation's `safeToRepeat` and `creation` flags.
 *
 * - 9 (`transient`, nothing was done): retried for every operation, on the retry schedule.
 * - 101, transport failures and timeouts (`ambiguous`): retried on the schedule only when the
 *   operation is safe to repeat; otherwise the call fails with `OutcomeUnknownError`.
 * - 5 (`limit`): the request waits for the limit that refused it and is sent again (see
 *   {@link refusalOf} for how the limit is told): after the rate limit (every refusal of an ordinary
 *   request) it waits for the rate window; after the creation quota a creation is never sent again in
 *   the same minute (it waits for the next one, or fails with the quota's reset time).
 * - Everything else, decoding errors included: never retried.
 *
 * The table itself is the core's (`@community-api/core/RetryTable`), shared with the other Effect
 * line; this module reads the client's errors into it and runs its waits on Effect's `Schedule`.
 *
 * @since 0.1.0
 */
import * as RetryTable from "@community-api/core/RetryTable"
import type { ApiError } from "@community-api/schema"
import { Duration, Schedule } from "effect"
import type * as ClientError from "./ClientError.js"

export type {
  /**
   * What the client does after an error (the core's retry table, `@community-api/core/RetryTable`).
   *
   * @since 0.1.0
   * @category models
   */
  Decision
} from "@community-api/core/RetryTable"

export {
  /**
   * Decides what to do after `error` from `op`.
   *
   * @since 0.1.0
   * @category utils
   */
  decide
} from "@community-api/core/CallFailure"

export type {
  /**
   * The limit behind an error 5: the request rate, or the creation quota's minute or day.
   *
   * @since 0.1.0
   * @category models
   */
  Refusal
} from "@community-api/core/RetryTable"

export {
  /**
   * Tells which limit refused a request with error 5. Error 5 covers both the request rate and the
   * creation quota (spec, Errors and Limits), so the client reads, in order:
   *
   * 1. what it knows of the operation: only the rate limit applies to an operation that is not a
   *    creation, so its refusal is `"rate"`;
   * 2. the server's text, which names the cause: a text naming creations is the quota (`"day"` when it
   *    names the day, else `"minute"`); a text naming requests is `"rate"`;
   * 3. its own quota count, when the text names neither: `counted` is the window the client's own
   *    count had used up once this creation was counted (`undefined` when none was). A refusal the
   *    client cannot lay on the quota is taken as `"rate"`: nothing was created, and it is sent again
   *    after the rate window, at most `limitRetries` times within the call's deadline.
   *
   * Only a refusal laid on the quota can end a creation with `CreationQuotaExceeded` (or hold it to the
   * next minute); a rate refusal never does. The rule is the core's (`RetryTable.refusalOf`).
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
 * The retry policy of a client.
 *
 * @since 0.1.0
 * @category models
 */
export interface Policy extends RetryTable.Policy<Schedule.Schedule<unknown, Retryable>> {}

const { baseMillis, factor, jitterMax, jitterMin, retries } = RetryTable.backoff

/**
 * The default schedule: 0.5 s doubling, each delay jittered (×0.8–1.2), rounded to whole milliseconds
 * and capped at 8 s, at most 6 attempts (5 retries): the numbers of the core's retry table.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultSchedule: Schedule.Schedule<unknown, unknown> = Schedule.exponential(
  Duration.millis(baseMillis),
  factor
).pipe(
  Schedule.jitteredWith({ min: jitterMin, max: jitterMax }),
  Schedule.modifyDelay((_, delay) => Duration.millis(RetryTable.capDelay(Duration.toMillis(delay)))),
  Schedule.intersect(Schedule.recurs(retries))
)

/**
 * The default policy: {@link defaultSchedule}, and up to 5 sends again after error 5.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Retry } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The server is unavailable twice (error 9): the default policy retries, with backoff, and the call succeeds.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner),
 *   retry: Retry.defaultPolicy
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* server.setFaults({ keyServiceUnavailable: { next: 2 } })
 *   strictEqual((yield* api.users.me()).user_id, DemoFixture.userIds.owner)
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
 * A policy with no retries at all.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Retry } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // No retry: the first error 9 is the call's.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner),
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
export const never: Policy = { schedule: Schedule.stop, limitRetries: 0 }
