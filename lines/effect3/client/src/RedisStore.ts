/**
 * The Redis store of the limiters: one user's pacing permits and creation counts shared by every
 * process and machine of the user, where the memory store (the default) holds only inside
 * one process. `Pacing.layerRedis` and `CreationQuota.layerRedis` take these options;
 * `Pacing.layerRedisConfig` and `CreationQuota.layerRedisConfig` read the URL from
 * `COMMUNITY_API_REDIS_URL` ({@link url}). The stores themselves are here too, as the
 * `PermitStore` ({@link layerPermits}) and the `CountStore` ({@link layerCounts}) under
 * `Pacing.layerFromStore` and `CreationQuota.layerFromStore`, for a limiter composed by hand.
 *
 * Every process of a user must use the same Redis, the same {@link Options.prefix} and the same user
 * key (the client's `userKey`, or the hash of the token that the client derives in every process
 * alike). Permits and counts are taken and given back by Lua scripts, atomically, on the Redis
 * server's clock (`TIME`), never on the callers' clocks, so that machines whose clocks differ still
 * share one window. The scripts and the key layout are the core's (`@community-api/core/RedisScripts`
 * and `RedisKeys`), the same for every line of the toolkit.
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
 * What a limiter does when Redis cannot be reached or does not answer within the timeout:
 *
 * - `"fail"` (the default): fail closed; the call fails with `ClientError.LimiterUnavailable` and
 *   nothing is sent.
 * - `"fallback"`: use this process's own (memory) limiter for that request, and log one warning per
 *   process. The limits then hold inside this process only.
 *
 * @since 0.1.0
 * @category models
 */
export type OnUnavailable = "fail" | "fallback"

/**
 * How to reach Redis, shared by the pacing and the creation quota stores.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /**
   * `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS), or the nodes of a Redis
   * Cluster: `redis+cluster://[[user]:password@]host:port,host:port…` (or `rediss+cluster://`), where
   * each user's scripts run on the master of the user's slot. Give it `Redacted` when it holds a
   * password: it never appears in a log or an error, which name the store without credentials.
   */
  readonly url: Redacted.Redacted<string> | string
  /** Prefix of every key; default `community-api:`. Every process of a user must use the same. */
  readonly prefix?: string | undefined
  /** The longest a limiter waits for one answer of Redis (and for the connection); default 1 s. */
  readonly timeout?: Duration.DurationInput | undefined
  /** When Redis is unavailable: `"fail"` (default) or `"fallback"` to this process's own limiter. */
  readonly onUnavailable?: OnUnavailable | undefined
}

/**
 * The defaults of the Redis store. The lease is how long a permit taken by a process stays held while
 * its request is in flight without being renewed: a live process renews it every third of the lease,
 * so a slow request never loses its permit, and the permits of a process that died come back at most
 * a lease after its last renewal.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = RedisStoreOptions.defaultsIn(Duration.millis)

/**
 * The URL of the Redis store from `COMMUNITY_API_REDIS_URL`, as `Redacted`.
 *
 * @since 0.1.0
 * @category options
 */
export const url: Config.Config<Redacted.Redacted<string>> = Config.redacted(Environment.redisUrl)

type RedisModule = typeof import("./internal/redis.js")

/**
 * The constructor and the layers of one store, of the core's `kind`: over Redis by `redis`, in this
 * process's memory by `memory`, and `fallback` between them when the options ask for it.
 */
const family = <O extends Options & { readonly lease?: Duration.DurationInput | undefined }>() =>
<X, I, S>(
  tag: Context.Tag<I, S>,
  kind: RedisStores.Kind<O, X>,
  parts: RedisStores.Parts<Shared.Building, RedisModule, Connection, X, S>
) => {
  const make: (options: O) => Effect.Effect<S, ClientError.LimiterUnavailable, Scope.Scope> = RedisStores.store(
    Shared.line,
    kind,
    parts
  )
  const layer = (options: O) => Layer.scoped(tag, make(options))
  const layerConfig = (options: Omit<O, "url"> = {} as Omit<O, "url">) =>
    Layer.unwrapEffect(Effect.map(url, (url) => layer({ ...options, url } as O)))
  return { make, layer, layerConfig }
}

/**
 * Options of the Redis store of the pacing permits.
 *
 * @since 0.1.0
 * @category options
 */
export interface PermitOptions extends Options, PermitStore.Settings {
  /**
   * How long a permit taken for a request in flight stays held without being renewed; default 10 s
   * ({@link defaults}). A live process renews it every third of the lease, however long its
   * request takes; the permits of a process that died come back at most a lease after its last
   * renewal, so a crash holds the user's other processes back for at most about a lease.
   */
  readonly lease?: Duration.DurationInput | undefined
  /**
   * The share of each window kept for interactive calls across the user's processes (`Lane`), from 0
   * to 1; default 0.2, 6 of 30 permits. Kept only while an interactive call found no free permit within
   * the last window; lent to batch calls otherwise, so that batch calls alone reach the full rate.
   * Every process of a user should give the same.
   */
  readonly interactiveShare?: number | undefined
}

const permits = family<PermitOptions>()(
  PermitStore.PermitStore,
  RedisStores.permits,
  {
    redis: (redis, connection, permits) => redis.permitStore(connection, permits),
    memory: (permits) => Permits.unsafeMakeStore(permits.limit),
    fallback: Shared.permitsOrMemory
  }
)

/**
 * Makes a store of pacing permits in Redis, shared with every process that uses the same Redis,
 * prefix and user key; connected for the scope. With `onUnavailable: "fallback"` it takes from this
 * process's memory while Redis is unavailable.
 *
 * Fails with `LimiterUnavailable` only when the `ioredis` package cannot be loaded (and
 * `onUnavailable` is `"fail"`); a Redis that cannot be reached fails each take instead.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makePermits = permits.make

/**
 * A layer of one store of pacing permits in Redis (see {@link makePermits}), for
 * `Pacing.layerFromStore`.
 *
 * @example
 * ```ts
 * import { Pacing, RedisStore } from "@community-api/client"
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
 * Options of the Redis store of the creation counts.
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
    memory: Creations.unsafeMakeStore,
    fallback: Shared.countsOrMemory
  }
)

/**
 * Makes a store of creation counts in Redis, shared with every process that uses the same Redis,
 * prefix and user key; connected for the scope. The calendar minute and day are read from the Redis
 * server's clock. With `onUnavailable: "fallback"` it counts in this process's memory while Redis is
 * unavailable.
 *
 * Fails with `LimiterUnavailable` only when the `ioredis` package cannot be loaded (and
 * `onUnavailable` is `"fail"`); a Redis that cannot be reached fails each count instead.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeCounts = counts.make

/**
 * A layer of one store of creation counts in Redis (see {@link makeCounts}), for
 * `CreationQuota.layerFromStore`.
 *
 * @example
 * ```ts
 * import { CountStore, RedisStore } from "@community-api/client"
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
