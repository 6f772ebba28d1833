/**
 * The parts of the Effect 3 line's driver (`Driver.ts`) for the Config, KeepAlive, RealPort and Readme
 * scenarios: the client's configuration read from an environment, the line's errors told apart, its
 * machinery on the live clock, and its reference server on a real loopback port.
 */
import { tokens } from "@community-api/core/DemoData"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { FetchHttpClient, HttpServer } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Config, ConfigError, ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { fileURLToPath } from "node:url"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Worlds from "../../../../../tests/client-behaviour/src/Worlds.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

/** `configFromEnv`, with the `userKey` read from a variable too when told. */
export const envConfig = ({ userKeyVariable }: Driver.EnvOptions): Config.Config<CommunityApiClient.ClientConfig> =>
  userKeyVariable === undefined
    ? CommunityApiClient.configFromEnv
    : Config.map(
      Config.all([CommunityApiClient.configFromEnv, Config.string(userKeyVariable)]),
      ([client, userKey]) => ({ ...client, userKey })
    )

/** The environment as this line's provider (which keeps an empty variable): without the empty ones when they are missing. */
export const envProvider = (env: Readonly<Record<string, string>>, { empty }: Driver.EnvOptions) =>
  ConfigProvider.fromMap(new Map(Object.entries(env).filter(([, value]) => empty !== "missing" || value !== "")))

export const configError: Driver.Line["configError"] = (value) =>
  ConfigError.isConfigError(value) ? { invalidData: ConfigError.isInvalidData(value) } : undefined

export const readme: Driver.ReadmeHome = {
  clientDir: fileURLToPath(new URL("../..", import.meta.url)),
  clientName: "@community-api/client",
  service: "### In a service",
  tests: "### In tests, with the reference server in-process"
}

/** The line's `HttpClient` named, with the caller's fetch and `RequestInit` given. */
export const transport = ({ fetch, http, requestInit }: Driver.RealClientOptions): Layer.Layer<HttpClient.HttpClient> =>
  (http === "undici" ? NodeHttpClient.layerUndici : FetchHttpClient.layer).pipe(Layer.provideMerge(Layer.mergeAll(
    fetch === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.Fetch, fetch as typeof globalThis.fetch),
    requestInit === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.RequestInit, requestInit)
  )))

export const realPort = async (deps: Worlds.Deps): Promise<Driver.RealPortWorld> => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(ReferenceServer.layerServe({ port: 0 }), Pacing.layer(), CreationQuota.layer())
  )
  deps.open(runtime)
  const { address, pacing, quota, server } = await runtime.runPromise(Effect.all({
    address: Effect.map(HttpServer.HttpServer, (served) => served.address),
    server: ReferenceServer.ReferenceServer,
    pacing: Pacing.Pacing,
    quota: CreationQuota.CreationQuota
  }))
  if (address._tag !== "TcpAddress") throw new Error("the server has no TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}/external-api/v2`
  const run = <A>(effect: Effect.Effect<A>) => runtime.runPromise(effect)
  return {
    baseUrl,
    server: Worlds.controls(run, server),
    // Each client over an `HttpClient` of its own, open while the world is (undici's closes with its
    // scope), and the world's limiters.
    client: ({ fetch, http, requestInit, ...options }) => {
      const client = ManagedRuntime.make(Layer.mergeAll(
        transport({ fetch, http, requestInit } as Driver.RealClientOptions),
        Layer.succeed(Pacing.Pacing, pacing),
        Layer.succeed(CreationQuota.CreationQuota, quota)
      ))
      deps.open(client)
      return deps.world(client, { baseUrl, token: tokens.owner }).client(options)
    }
  }
}
