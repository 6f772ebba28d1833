/**
 * The sandbox on a port for the command line to talk to, and the flags of the demo's main community.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"

/** `--group-id` and `--channel` of the demo's main community. */
export const community = [
  "--group-id",
  String(DemoFixture.mainCommunity.group_id),
  "--channel",
  DemoFixture.mainCommunity.channel
]

/**
 * The reference server on a free port for the tests of the enclosing `describe`: started before
 * them, stopped after them.
 */
export const sandboxOnPort = (options: Omit<ReferenceServer.ServeOptions, "port"> = {}) => {
  const runtime = ManagedRuntime.make(ReferenceServer.layerServe({ ...options, port: 0 }))
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
    /** The environment of a client of the server with `token`. */
    env: (token: string) => ({ COMMUNITY_API_BASE_URL: baseUrl, COMMUNITY_API_TOKEN: token }),
    /** Runs `f` with the server's control service (faults, recent requests). */
    control: <A>(f: (server: ReferenceServer.Service) => Effect.Effect<A>) =>
      runtime.runPromise(Effect.flatMap(ReferenceServer.ReferenceServer, f))
  }
}
