/**
 * The client the tools call through: the client's `Target.layer` with the server's budget, over
 * `node:http` for a real API (its limiters in Redis when `COMMUNITY_API_REDIS_URL` is set), or over
 * the in-process reference server with the demo data (embedded mode). Either way every call has the
 * client's retries, pacing and creation quota.
 *
 * @since 0.1.0
 */
import type * as ClientError from "@community-api/client/ClientError"
import type * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Target from "@community-api/client/Target"
import { NodeHttpClient } from "@effect/platform-node"
import { Duration, Effect, Layer } from "effect"

/**
 * What one tool call may take: less than the client's defaults (30 s an attempt, 120 s a call),
 * since an assistant and its user wait for the answer, and an assistant's client gives up on a tool
 * after a minute or so. A used-up creation minute is said at once (`CreationQuotaExceeded` with the
 * time it resets) rather than waited out.
 *
 * @since 0.1.0
 */
export const budget = {
  attemptTimeout: Duration.seconds(10),
  deadline: Duration.seconds(30)
} as const

/**
 * The client options of a tool call.
 *
 * @since 0.1.0
 */
export const clientOptions = {
  onCreationLimit: "fail",
  timeout: budget.attemptTimeout,
  deadline: budget.deadline
} as const

/**
 * The client layer of a target. The reference server's code is loaded only in embedded mode; a real
 * API is reached over `node:http`, not undici, which compiles its WebAssembly HTTP parser at the
 * first request.
 *
 * @since 0.1.0
 */
export const layer = (
  target: Target.Target
): Layer.Layer<CommunityApiClient.CommunityApiClient, ClientError.LimiterUnavailable> =>
  Target.layer(target, {
    client: clientOptions,
    sandbox: Effect.promise(() => import("@community-api/server/Embedded"))
  }).pipe(Layer.provide(NodeHttpClient.layer))
