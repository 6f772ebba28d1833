/**
 * The Effect 4 line's limiters over a real Redis, as the client's scenarios drive them
 * (`Driver.RedisWorld`): services made with `makeRedis`, each with a connection of its own as another
 * process would have, stores over one connection (`internal/redis`), and clients whose limiters are
 * the Redis store. `Driver.ts` gives it what it shares with the other worlds (`Deps`).
 */
import { tokens } from "@community-api/core/DemoData"
import * as Limits from "@community-api/core/Limits"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import {
  Clock,
  ConfigProvider,
  Context,
  Duration,
  Effect,
  Exit,
  Layer,
  Logger,
  ManagedRuntime,
  Redacted,
  Scope
} from "effect"
import type { HttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Lines from "../../../../../tests/client-behaviour/src/Lines.js"
import * as Worlds from "../../../../../tests/client-behaviour/src/Worlds.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as RedisInternal from "../../src/internal/redis.js"
import * as Pacing from "../../src/Pacing.js"
import * as RedisStore from "../../src/RedisStore.js"

type AnyRuntime = ManagedRuntime.ManagedRuntime<any, any>
type Fx = Effect.Effect<any, any, any>

/** What the world takes of the line's driver. */
export interface Deps {
  readonly kit: Worlds.Kit<Fx, any>
  readonly runnerOf: (runtime: AnyRuntime) => Worlds.Runner<Fx>
  readonly config: (
    defaults: { readonly baseUrl: string; readonly token: string },
    options: Driver.ClientOptions
  ) => CommunityApiClient.ClientConfig
  /** A scripted server as the context's `HttpClient`, recording every request in `received`. */
  readonly scriptedHttp: (script: Driver.Script, received: Array<Driver.Received>) => Layer.Layer<HttpClient.HttpClient>
  /** Registers what `dispose` ends. */
  readonly open: (world: { readonly dispose: () => Promise<void> }) => void
}

const makers = { millis: Duration.millis, secret: (url: string) => Redacted.make(url) }

/** `env` as the environment (`ConfigProvider`), of an effect or of a layer. */
const withEnv = (env: Record<string, string>) => ConfigProvider.fromEnv({ env })
const envLayer = (env: Record<string, string>) => ConfigProvider.layer(withEnv(env))
const inEnv = (env: Record<string, string>) => Effect.provideService(ConfigProvider.ConfigProvider, withEnv(env))

/** A limiter of `layer` (`layerFromStore` over a Redis store of its own), the store's URL read from the environment. */
const fromStores = <I, S>(tag: Context.Key<I, S>, layer: Layer.Layer<I, any>, url: string) =>
  Effect.map(Layer.build(layer), Context.get(tag)).pipe(inEnv({ COMMUNITY_API_REDIS_URL: url }))

/** The client of `layerConfig()`, as the environment gives it. */
const Configured = Effect.provide(
  Effect.service(CommunityApiClient.CommunityApiClient),
  CommunityApiClient.layerConfig()
)

/** The options of a store of `RedisStore.layerPermitsConfig` or `layerCountsConfig`. */
const storeOptions = (settings: Driver.RedisPacingOptions) =>
  Lines.defined({ prefix: settings.prefix, limit: settings.limit })

export const world = async (options: { readonly clock?: "live" | "test" }, deps: Deps): Promise<Driver.RedisWorld> => {
  const runtime = ManagedRuntime.make(
    options.clock === "test" ? TestClock.layer() : Layer.empty
  ) as unknown as AnyRuntime
  const runtimes: Array<AnyRuntime> = [runtime]
  const scopes: Array<Scope.Closeable> = []
  deps.open({
    dispose: async () => {
      for (const scope of scopes.splice(0).reverse()) await runtime.runPromise(Scope.close(scope, Exit.void))
      await Promise.all(runtimes.splice(0).map((one) => one.dispose()))
    }
  })
  const runner = deps.runnerOf(runtime)
  /** Makes `effect` in a scope of its own, closed when the world ends (or before). */
  const scoped = async (effect: Fx): Promise<Worlds.Scoped<Fx>> => {
    const scope: Scope.Closeable = await runner.run(Scope.make())
    scopes.push(scope)
    const within = (effect: Fx) => Scope.provide(effect, scope)
    return { value: await runner.run(within(effect)), within, close: Scope.close(scope, Exit.void) }
  }
  const worldScope = await scoped(Effect.void)
  /** The services behind the handles of `pacing`, timed: a client of `reference` takes its permits there. */
  const services = new WeakMap<Driver.RedisPacing, Pacing.Service>()

  const clientIn = async (layer: Layer.Layer<any, any>, make: Effect.Effect<CommunityApiClient.Client, any, any>) => {
    const clientRuntime = ManagedRuntime.make(layer) as AnyRuntime
    runtimes.push(clientRuntime)
    return Worlds.client(deps.kit, deps.runnerOf(clientRuntime), await clientRuntime.runPromise(make))
  }
  const made = (defaults: { baseUrl: string; token: string }, options: Driver.ClientOptions = {}) =>
    CommunityApiClient.make(deps.config(defaults, options))

  return {
    now: () => runner.run(Clock.currentTimeMillis),
    adjust: (millis) =>
      options.clock === "test"
        ? runner.run(TestClock.adjust(Duration.millis(millis)))
        : new Promise((resolve) => setTimeout(resolve, millis)),
    ...Worlds.redisServices(deps.kit, runner, {
      scoped,
      pacing: (settings) =>
        settings.via === "stores"
          ? fromStores(
            Pacing.Pacing,
            Pacing.layerFromStore().pipe(Layer.provide(RedisStore.layerPermitsConfig(storeOptions(settings)))),
            settings.url
          )
          : Pacing.makeRedis(Lines.redisPacingOptions(settings, makers)),
      quota: (settings) =>
        settings.via === "stores"
          ? fromStores(
            CreationQuota.CreationQuota,
            CreationQuota.layerFromStore.pipe(Layer.provide(RedisStore.layerCountsConfig(storeOptions(settings)))),
            settings.url
          )
          : CreationQuota.makeRedis(Lines.redisOptions(settings, makers)),
      connect: (settings) => RedisInternal.connect({ ...settings, url: Redacted.make(settings.url) }),
      counts: (connection) => RedisInternal.countStore(connection, Limits.creationDefaults),
      permits: (connection, store) => RedisInternal.permitStore(connection, store)
    }, services),
    scripted: async (script, limiters) => {
      const warnings: Array<string> = []
      const received: Array<Driver.Received> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") warnings.push(String(message))
      })
      const [pacing, quota] = Lines.redisLayers(limiters, makers, { Pacing, CreationQuota }) as [
        Layer.Layer<any>,
        Layer.Layer<any>
      ]
      const layer = Layer.mergeAll(
        deps.scriptedHttp(script, received),
        Layer.mergeAll(pacing, quota).pipe(Layer.provide(envLayer({ COMMUNITY_API_REDIS_URL: limiters.url }))),
        Logger.layer([logger])
      )
      return {
        client: (options) => clientIn(layer, made(Lines.scriptedServer, options)),
        clientFromEnv: (env) => clientIn(layer, inEnv(env)(Configured)),
        received,
        warnings
      }
    },
    reference: async () => {
      const answered: Array<{ at: number; outcome: number | "ok" | "dropped" }> = []
      const http = await runner.run(worldScope.within(
        Layer.build(ReferenceServer.layerTest({
          onRequest: (entry) => void answered.push({ at: entry.at, outcome: entry.outcome })
        }))
      ))
      return {
        answered,
        client: (handle, options) => {
          const timed = services.get(handle)
          if (timed === undefined) throw new Error("a pacing of another world")
          return clientIn(
            Layer.mergeAll(Layer.succeedContext(http), Layer.succeed(Pacing.Pacing, timed), CreationQuota.layer()),
            made({ baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner }, options)
          )
        }
      }
    }
  }
}
