/**
 * The parts of the Effect 4 line's driver (`Driver.ts`) for the Config, KeepAlive, RealPort and Readme
 * scenarios: the client's configuration read from an environment, the line's errors told apart, its
 * machinery on the live clock, and its reference server on a real loopback port (`RealPortServer.ts`).
 */
import { tokens } from "@community-api/core/DemoData"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Config, ConfigProvider, Effect, Layer, ManagedRuntime, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import type { HttpClient } from "effect/http"
import { fileURLToPath } from "node:url"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Worlds from "../../../../../tests/client-behaviour/src/Worlds.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"
import * as RealPortServer from "./RealPortServer.js"

/** `configFromEnv`, with the `userKey` read from a variable too when told. */
export const envConfig = ({ userKeyVariable }: Driver.EnvOptions): Config.Config<CommunityApiClient.ClientConfig> =>
  userKeyVariable === undefined
    ? CommunityApiClient.configFromEnv
    : Config.map(
      Config.all([CommunityApiClient.configFromEnv, Config.String(userKeyVariable)]),
      ([client, userKey]) => ({ ...client, userKey })
    )

/** The environment as this line's provider: an empty variable kept only when told (`preserveEmptyStrings`). */
export const envProvider = (env: Readonly<Record<string, string>>, { empty }: Driver.EnvOptions) =>
  ConfigProvider.fromEnv(
    empty === undefined ? { env: { ...env } } : {
      env: { ...env },
      preserveEmptyStrings: empty === "kept"
    }
  )

export const configError: Driver.Line["configError"] = (value) =>
  value instanceof Config.ConfigError ? { invalidData: Schema.isSchemaError(value.cause) } : undefined

export const readme: Driver.ReadmeHome = {
  clientDir: fileURLToPath(new URL("../..", import.meta.url)),
  clientName: "@community-api/effect4-client",
  service: "### In a service, on Effect 4",
  tests: "### In tests, on Effect 4, with the reference server in-process"
}

/** The line's `HttpClient` named, with the caller's fetch and `RequestInit` given. */
export const transport = ({ fetch, http, requestInit }: Driver.RealClientOptions): Layer.Layer<HttpClient.HttpClient> =>
  (http === "undici" ? NodeHttpClient.layerUndici : FetchHttpClient.layer).pipe(Layer.provideMerge(Layer.mergeAll(
    fetch === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.Fetch, fetch as typeof globalThis.fetch),
    requestInit === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.RequestInit, requestInit)
  )))

export const realPort = async (deps: Worlds.Deps): Promise<Driver.RealPortWorld> => {
  const runtime = ManagedRuntime.make(Layer.mergeAll(RealPortServer.layer(), Pacing.layer(), CreationQuota.layer()))
  deps.open(runtime)
  const { pacing, quota, served } = await runtime.runPromise(Effect.gen(function*() {
    return {
      served: yield* RealPortServer.RealPort,
      pacing: yield* Pacing.Pacing,
      quota: yield* CreationQuota.CreationQuota
    }
  }))
  const { baseUrl, server } = served
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
