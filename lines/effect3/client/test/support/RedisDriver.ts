/**
 * The Effect 3 line's limiters over a real Redis, as the client's scenarios drive them
 * (`Driver.RedisWorld`): services made with `makeRedis`, each with a connection of its own as another
 * process would have, stores over one connection (`internal/redis`), and clients whose limiters are
 * the Redis store. `Driver.ts` gives it what it shares with the other worlds (`Deps`).
 */
import { tokens } from "@community-api/core/DemoData"
import { defaultPrefix } from "@community-api/core/RedisKeys"
import { Limits } from "@community-api/schema"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import {
  Clock,
  Duration,
  Effect,
  Exit,
  Layer,
  Logger,
  ManagedRuntime,
  Redacted,
  Scope,
  TestClock,
  TestContext
} from "effect"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as RedisInternal from "../../src/internal/redis.js"
import * as Pacing from "../../src/Pacing.js"
import type * as PermitStore from "../../src/PermitStore.js"
import * as FakeServer from "./FakeServer.js"

type AnyRuntime = ManagedRuntime.ManagedRuntime<any, any>

/** What the world takes of the line's driver. */
export interface Deps {
  readonly clientOf: (runtime: never, client: CommunityApiClient.Client) => Driver.Client
  readonly fork: <A>(runtime: never, effect: Effect.Effect<A, unknown>) => Driver.Call<A>
  readonly config: (
    defaults: { readonly baseUrl: string; readonly token: string },
    options: Driver.ClientOptions
  ) => CommunityApiClient.ClientConfig
  /** Registers what `dispose` ends. */
  readonly open: (world: { readonly dispose: () => Promise<void> }) => void
}

const redisOptions = (options: Driver.RedisOptions) => ({
  url: Redacted.make(options.url),
  ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
  ...(options.timeoutMillis === undefined ? {} : { timeout: Duration.millis(options.timeoutMillis) }),
  ...(options.onUnavailable === undefined ? {} : { onUnavailable: options.onUnavailable })
})

const pacingOptions = (options: Driver.RedisPacingOptions): Pacing.RedisOptions => ({
  ...redisOptions(options),
  ...(options.limit === undefined ? {} : { limit: options.limit }),
  ...(options.windowMillis === undefined ? {} : { window: Duration.millis(options.windowMillis) }),
  ...(options.marginMillis === undefined ? {} : { margin: Duration.millis(options.marginMillis) }),
  ...(options.leaseMillis === undefined ? {} : { lease: Duration.millis(options.leaseMillis) })
})

export const world = async (options: { readonly clock?: "live" | "test" }, deps: Deps): Promise<Driver.RedisWorld> => {
  const runtime = ManagedRuntime.make(
    options.clock === "test" ? TestContext.TestContext : Layer.empty
  ) as unknown as AnyRuntime
  const runtimes: Array<AnyRuntime> = [runtime]
  const scopes: Array<Scope.CloseableScope> = []
  deps.open({
    dispose: async () => {
      for (const scope of scopes.splice(0).reverse()) await runtime.runPromise(Scope.close(scope, Exit.void))
      await Promise.all(runtimes.splice(0).map((one) => one.dispose()))
    }
  })
  const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => runtime.runPromise(effect)
  const call = <A>(effect: Effect.Effect<A, unknown>) => deps.fork<A>(runtime as never, effect)
  /** Makes `effect` in a scope of its own, closed when the world ends (or before). */
  const scoped = async <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => {
    const scope = await run(Scope.make())
    scopes.push(scope)
    return { scope, value: await run(Scope.extend(effect, scope)) }
  }
  const worldScope = (await scoped(Effect.void)).scope
  /** The services behind the handles of `pacing`, timed: a client of `reference` takes its permits there. */
  const services = new WeakMap<Driver.RedisPacing, Pacing.Service>()

  const pacing = async (settings: Driver.RedisPacingOptions): Promise<Driver.RedisPacing> => {
    const { value: service } = await scoped(Pacing.makeRedis(pacingOptions(settings)))
    const waits: Array<number> = []
    const timed: Pacing.Service = {
      ...service,
      withPermit: (user, lane) => (send) =>
        Effect.flatMap(
          Clock.currentTimeMillis,
          (askedAt) =>
            service.withPermit(user, lane)(Effect.flatMap(Clock.currentTimeMillis, (sentAt) => {
              waits.push(sentAt - askedAt)
              return send
            }))
        )
    }
    const handle: Driver.RedisPacing = {
      settings: {
        limit: service.settings.limit,
        windowMillis: service.settings.windowMillis,
        marginMillis: service.settings.marginMillis
      },
      withPermit: (user, { lane, millis = 0 } = {}) =>
        call(
          timed.withPermit(user, lane)(Effect.gen(function*() {
            const sentAt = yield* Clock.currentTimeMillis
            if (millis > 0) yield* Effect.sleep(Duration.millis(millis))
            return { sentAt, answeredAt: yield* Clock.currentTimeMillis }
          }))
        ),
      penalize: (user) => run(service.penalize(user)),
      budget: (user) => run(service.budget(user)),
      waits
    }
    services.set(handle, timed)
    return handle
  }

  const quota = async (settings: Driver.RedisOptions): Promise<Driver.RedisQuota> => {
    const { value: service } = await scoped(CreationQuota.makeRedis(redisOptions(settings)))
    return {
      acquire: (user, operation, onExhausted) => call(service.acquire(user, operation, onExhausted)),
      confirm: (user, operation, taken) => call(service.confirm(user, operation, taken)),
      refund: (user, taken) => run(service.refund(user, taken)),
      exhaustDay: (user) => run(service.exhaustDay(user)),
      usedUp: (user) => run(service.usedUp(user)),
      budget: (user) => call(service.budget(user))
    }
  }

  const connect = async (settings: Driver.RedisOptions): Promise<Driver.RedisConnection> => {
    const { scope, value: connection } = await scoped(RedisInternal.connect({
      url: Redacted.make(settings.url),
      prefix: settings.prefix ?? defaultPrefix,
      timeoutMillis: settings.timeoutMillis ?? 1000
    }))
    const counts = RedisInternal.countStore(connection, Limits.creationDefaults)
    return {
      permits: async (store) => {
        const permits = await run(Scope.extend(RedisInternal.permitStore(connection, store), scope))
        return {
          take: (user, lane) => call(permits.take(user, lane)),
          release: (permit, hold) => run(permits.release(permit as PermitStore.Permit, hold)),
          budget: (user) => call(permits.budget(user))
        }
      },
      counts: {
        take: (user) => run(Effect.map(counts.take(user), (verdict) => verdict._tag)),
        budget: (user) => run(counts.budget(user))
      },
      run: (limiter, script) => run(connection.run(limiter, script)),
      close: () => call(Scope.close(scope, Exit.void))
    }
  }

  const clientIn = async (layer: Layer.Layer<any, any>, defaults: { baseUrl: string; token: string }, options = {}) => {
    const clientRuntime = ManagedRuntime.make(layer) as AnyRuntime
    runtimes.push(clientRuntime)
    const client = await clientRuntime.runPromise(CommunityApiClient.make(deps.config(defaults, options)))
    return deps.clientOf(clientRuntime as never, client)
  }

  return {
    now: () => run(Clock.currentTimeMillis),
    adjust: (millis) =>
      options.clock === "test"
        ? run(TestClock.adjust(Duration.millis(millis)))
        : new Promise((resolve) => setTimeout(resolve, millis)),
    pacing,
    quota,
    connect,
    scripted: async (script, limiters) => {
      const warnings: Array<string> = []
      const fake = FakeServer.make((request, index) => {
        const reply = script(request, index)
        return reply._tag === "Json" ? Effect.succeed(reply.body) : Effect.die(`a reply ${reply._tag} on Redis`)
      })
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel._tag === "Warning") warnings.push(String(message))
      })
      const layer = Layer.mergeAll(
        fake.http,
        Pacing.layerRedis(redisOptions(limiters)),
        CreationQuota.layerRedis(redisOptions(limiters)),
        Logger.replace(Logger.defaultLogger, logger)
      )
      return {
        client: (options) =>
          clientIn(layer, { baseUrl: FakeServer.baseUrl, token: Redacted.value(FakeServer.token) }, options),
        received: fake.received,
        warnings
      }
    },
    reference: async () => {
      const answered: Array<{ at: number; outcome: number | "ok" | "dropped" }> = []
      const http = await run(Scope.extend(
        Layer.build(ReferenceServer.layerTest({
          onRequest: (entry) => void answered.push({ at: entry.at, outcome: entry.outcome })
        })),
        worldScope
      ))
      return {
        answered,
        client: (handle, options) => {
          const timed = services.get(handle)
          if (timed === undefined) throw new Error("a pacing of another world")
          return clientIn(
            Layer.mergeAll(Layer.succeedContext(http), Layer.succeed(Pacing.Pacing, timed), CreationQuota.layer()),
            { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner },
            options
          )
        }
      }
    }
  }
}
