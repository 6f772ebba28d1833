/**
 * The sandbox a program embeds when no base URL is set: the reference server in this process with the
 * demo data, an `HttpClient` whose requests go straight to it, and the demo owner's token for calls
 * that give none. It has the shape of the client's `Target.Sandbox`, which `Target.layer` loads for an
 * embedded target: the command line and the MCP server import this module dynamically, so that a call
 * to a real API never reads the server's code.
 *
 * @since 0.1.0
 */
import type { HttpClient } from "@effect/platform"
import type { Layer } from "effect"
import { Redacted } from "effect"
import * as DemoFixture from "./DemoFixture.js"
import * as ReferenceServer from "./ReferenceServer.js"

/**
 * The base URL of the in-process server ({@link layer}'s `HttpClient` answers at it).
 *
 * @since 0.1.0
 * @category constants
 */
export const baseUrl: string = ReferenceServer.inProcessBaseUrl

/**
 * The token of calls that give none: the demo owner's.
 *
 * @since 0.1.0
 * @category constants
 */
export const token: Redacted.Redacted<string> = Redacted.make(DemoFixture.tokens.owner)

/**
 * The server with the demo data and an in-process `HttpClient` to it (`ReferenceServer.layerTest`).
 *
 * @example
 * ```ts
 * import { Embedded } from "@community-api/server"
 * import { HttpClient, HttpClientRequest } from "@effect/platform"
 * import { Effect, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const me = Effect.gen(function*() {
 *   const client = yield* HttpClient.HttpClient
 *   const response = yield* client.execute(
 *     HttpClientRequest.post(`${Embedded.baseUrl}/users/me`).pipe(
 *       HttpClientRequest.bearerToken(Redacted.value(Embedded.token))
 *     )
 *   )
 *   return (yield* response.json) as { readonly status: string }
 * })
 *
 * const body = await Effect.runPromise(me.pipe(Effect.scoped, Effect.provide(Embedded.layer)))
 * strictEqual(body.status, "ok")
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ReferenceServer.ReferenceServer | HttpClient.HttpClient> = ReferenceServer
  .layerTest()
