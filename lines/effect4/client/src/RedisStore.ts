/**
 * The Redis store of the limiters on the Effect 4 line: one user's pacing permits and creation counts
 * shared by every process and machine of the user, of either Effect line, where the memory store
 * holds only inside one process. The scripts and the key layout are the core's, taken and given back
 * atomically on the Redis server's clock. `Pacing.layerRedis` and `CreationQuota.layerRedis` take
 * these options; the `Config` variants read `COMMUNITY_API_REDIS_URL`.
 *
 * The store needs the `ioredis` package (an optional peer dependency, loaded only by these layers):
 * `npm install ioredis@^5`.
 *
 * @since 0.1.0
 */
import * as Environment from "@community-api/core/Environment"
import * as RedisStoreOptions from "@community-api/core/RedisStoreOptions"
import * as RedisStores from "@community-api/core/RedisStores"
import { Config, Duration, Effect, Layer, Redacted } from "effect"
import type { Context, Scope } from "effect"
import type * as ClientError from "./ClientError.js"
import * as CountStore from "./CountStore.js"
import * as Creations from "./internal/creations.js"
import * as Permits from "./internal/permits.js"
import type { Connection } from "./internal/redis.js"
import * as Shared from "./internal/shared.js"
import * as PermitStore from "./PermitStore.js"

/**
 * What a limiter does when Redis cannot be reached: fail closed (the default), or fall back to this
 * process's own limiter with one warning per process.
 *
 * @since 0.1.0
 * @category models
 */
export type OnUnavailable = Shared.OnUnavailable

/**
 * Options of a Redis store.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /**
   * `redis://[user:password@]host:port[/db]`, or a Redis Cluster's nodes:
   * `redis+cluster://[user:password@]host:port,host:port…`; kept `Redacted`.
   */
  readonly url: Redacted.Redacted<string> | string
  /** The prefix of the keys; the same in every process of the user. */
  readonly prefix?: string | undefined
  /** How long a command may take before the store counts as unavailable; 1 s by default. */
  readonly timeout?: Duration.Input | undefined
  readonly onUnavailable?: OnUnavailable | undefined
}

/**
 * The defaults of the options.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = RedisStoreOptions.defaultsIn(Duration.millis)

/**
 * The URL of the store from `COMMUNITY_API_REDIS_URL`.
 *
 * @since 0.1.0
 * @category options
 */
export const url: Config.Config<Redacted.Redacted<string>> = Config.Redacted(Environment.redisUrl)

type RedisModule = typeof import("./internal/redis.js")

/**
 * The constructor and the layers of one store, of the core's `kind`: over Redis by `redis`, in this
 * process's memory by `memory`, and `fallback` between them when the options ask for it.
 */
const family = <O extends Options & { readonly lease?: Duration.Input | undefined }>() =>
<X, I, S>(
  tag: Context.Key<I, S>,
  kind: RedisStores.Kind<O, X>,
  parts: RedisStores.Parts<Shared.Building, RedisModule, Connection, X, S>
) => {
  const make: (options: O) => Effect.Effect<S, ClientError.LimiterUnavailable, Scope.Scope> = RedisStores.store(
    Shared.line,
    kind,
    parts
  )
  const layer = (options: O) => Layer.effect(tag, make(options))
  const layerConfig = (options: Omit<O, "url"> = {} as Omit<O, "url">) =>
    Layer.unwrap(Effect.map(url, (url) => layer({ ...options, url } as O)))
  return { make, layer, layerConfig }
}

/**
 * Options of a permit store.
 *
 * @since 0.1.0
 * @category options
 */
export interface PermitOptions extends Options, PermitStore.Settings {
  /** How long a permit stays taken when its process is gone; 10 s by default. */
  readonly lease?: Duration.Input | undefined
  /**
   * The share of each window kept for interactive calls across the user's processes (`Lane`), from 0
   * to 1; default 0.2, 6 of 30 permits. Kept only while an interactive call found no free permit within
   * the last window; lent to batch calls otherwise. Every process of a user should give the same.
   */
  readonly interactiveShare?: number | undefined
}

const permits = family<PermitOptions>()(
  PermitStore.PermitStore,
  RedisStores.permits,
  {
    redis: (redis, connection, permits) => redis.permitStore(connection, permits),
    memory: (permits) => Permits.makeStoreUnsafe(permits.limit),
    fallback: Shared.permitsOrMemory
  }
)

/**
 * A permit store in Redis, for the scope.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makePermits = permits.make

/**
 * A permit store in Redis.
 *
 * @example
 * ```ts
 * import { Pacing, RedisStore } from "@community-api/effect4-client"
 * import { Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The Redis store of permits under a pacing composed by hand (what `Pacing.layerRedis` does). No
 * // Redis listens here: with `onUnavailable: "fallback"` the permits are taken in this process's memory.
 * const pacing = Pacing.layerFromStore().pipe(
 *   Layer.provide(
 *     RedisStore.layerPermits({ url: "redis://127.0.0.1:1", onUnavailable: "fallback", timeout: "200 millis" })
 *   )
 * )
 *
 * const program = Effect.gen(function*() {
 *   const service = yield* Pacing.Pacing
 *   yield* Effect.void.pipe(service.withPermit("user-1"))
 *   strictEqual(service.settings.limit, 30)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(pacing)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerPermits = permits.layer

/**
 * {@link layerPermits} with the URL from `COMMUNITY_API_REDIS_URL` ({@link url}, redacted).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerPermitsConfig = permits.layerConfig

/**
 * Options of a count store.
 *
 * @since 0.1.0
 * @category options
 */
export interface CountOptions extends Options, CountStore.Settings {}

const counts = family<CountOptions>()(
  CountStore.CountStore,
  RedisStores.counts,
  {
    redis: (redis, connection, settings) => Effect.succeed(redis.countStore(connection, settings)),
    memory: Creations.makeStoreUnsafe,
    fallback: Shared.countsOrMemory
  }
)

/**
 * A count store in Redis, for the scope.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeCounts = counts.make

/**
 * A count store in Redis.
 *
 * @example
 * ```ts
 * import { CountStore, RedisStore } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The Redis store of creation counts, as `CreationQuota.layerFromStore` takes it. No Redis listens
 * // here, and the store fails closed (the default): a creation would not be sent.
 * const counts = RedisStore.layerCounts({ url: "redis://127.0.0.1:1", timeout: "200 millis" })
 *
 * const program = Effect.gen(function*() {
 *   const store = yield* CountStore.CountStore
 *   const error = yield* Effect.flip(store.take("user-1"))
 *   strictEqual(error._tag, "LimiterUnavailable")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(counts)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerCounts = counts.layer

/**
 * {@link layerCounts} with the URL from `COMMUNITY_API_REDIS_URL` ({@link url}, redacted).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerCountsConfig = counts.layerConfig
