/**
 * The sandbox (the reference server with the demo data) on a free loopback port, for the server to
 * talk to.
 */
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"

/**
 * The reference server on a free port for the tests of the enclosing `describe`: started before
 * them, stopped after them. Call it before the server that talks to it, so that it starts first.
 */
export const sandboxOnPort = () => {
  const runtime = ManagedRuntime.make(ReferenceServer.layerServe({ port: 0 }))
  let baseUrl = ""
  beforeAll(async () => {
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    baseUrl = `http://127.0.0.1:${address.port}/external-api/v2`
  })
  afterAll(() => runtime.dispose())
  return {
    /** `{base_url}` of the running server. */
    baseUrl: () => baseUrl,
    /** Every request the server has seen lately. */
    recentRequests: () => runtime.runPromise(Effect.flatMap(ReferenceServer.ReferenceServer, (s) => s.recentRequests))
  }
}
