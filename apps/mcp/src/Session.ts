/**
 * The client the tools call through, chosen by {@link Credentials}: the real client over `node:http`
 * for a base URL, or the same client over the in-process reference server with the demo data
 * (embedded mode). Either way every call has the client's retries, pacing and creation quota.
 *
 * @since 0.1.0
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import { NodeHttpClient } from "@effect/platform-node"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import type * as Credentials from "./Credentials.js"

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
 * The client layer of a target. The reference server's code is loaded only in embedded mode.
 *
 * @since 0.1.0
 */
export const layer = (target: Credentials.Target): Layer.Layer<CommunityApiClient.CommunityApiClient> => {
  if (target._tag === "Remote") {
    return CommunityApiClient.layer({ baseUrl: target.baseUrl, token: target.token, ...clientOptions }).pipe(
      // `node:http`, not undici: undici compiles its WebAssembly HTTP parser at the first request.
      Layer.provide(NodeHttpClient.layer)
    )
  }
  return Layer.unwrapEffect(
    Effect.promise(() =>
      Promise.all([import("@community-api/server/ReferenceServer"), import("@community-api/server/DemoFixture")])
    ).pipe(
      Effect.map(([ReferenceServer, DemoFixture]) =>
        CommunityApiClient.layer({
          baseUrl: ReferenceServer.inProcessBaseUrl,
          token: Option.getOrElse(target.token, () => Redacted.make(DemoFixture.tokens.owner)),
          ...clientOptions
        }).pipe(Layer.provide(ReferenceServer.layerTest()))
      )
    )
  )
}
