/**
 * The creation quota: 20 creations per calendar minute and 200 per day (the day starts at
 * 03:00 Moscow time, 00:00 UTC) per user, shared by `lists/create`, `vars/create` and
 * `globalVars/create` (every operation the contract flags as a creation). The numbers and the
 * calendar arithmetic are the contract's (`Limits` of `@community-api/schema`), the same the server
 * counts with.
 *
 * When the minute is used up a creation waits for the next minute or fails at once with
 * {@link ClientError.CreationQuotaExceeded} (the client's `onCreationLimit` setting); a used-up day
 * always fails at once, saying when it resets. Like {@link Pacing}, one service is shared by every
 * client that gets it from the same layer; **without a layer, clients use the process-wide
 * {@link global}** ({@link CreationQuota} is a `Context.Reference` with that default).
 *
 * **Several processes of one user** share one quota only through a shared store: provide
 * {@link layerRedis} (or {@link layerRedisConfig}) in every one of them. The counts are then kept in
 * Redis, per calendar minute and day on the Redis server's clock, and exact across processes.
 *
 * **Another store** of counts is a `CountStore` service: provide it as `CountStore.CountStore` under
 * {@link layerFromStore}, which counts with whatever store the context holds.
 *
 * @since 0.1.0
 */
import * as Quota from "@community-api/core/CreationQuota"
import * as OptionRules from "@community-api/core/OptionRules"
import { Limits } from "@community-api/schema"
import { Context, type DateTime, Effect, GlobalValue, Layer } from "effect"
import type { ConfigError, Scope } from "effect"
import * as Budget from "./Budget.js"
import * as ClientError from "./ClientError.js"
import * as CountStore from "./CountStore.js"
import * as Limiting from "./internal/limiting.js"
import * as Options from "./internal/options.js"
import * as RedisStore from "./RedisStore.js"

/**
 * Settings of the quota.
 *
 * @since 0.1.0
 * @category options
 */
export interface Settings extends CountStore.Settings {}

/**
 * The defaults, the API's creation limit from `Limits`: 20 a minute, 200 a day.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Limits.CreationSettings = Limits.creationDefaults

/**
 * What a creation does when the minute is used up.
 *
 * @since 0.1.0
 * @category models
 */
export type OnExhausted = Quota.OnExhausted

/**
 * The quota service. `E`: how its store can fail, `LimiterUnavailable` for a shared store and `never`
 * for this process's memory ({@link make}). What each operation does is said once, by the core's
 * `CreationQuota.Shape`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service<E = ClientError.LimiterUnavailable> extends
  Quota.Shape<
    Effect.Effect<number, ClientError.CreationQuotaExceeded | E>,
    Effect.Effect<void>,
    Effect.Effect<Limits.CreationWindow | undefined>,
    Effect.Effect<Budget.Creations, E>,
    Effect.Effect<Budget.Estimate, E>,
    DateTime.DateTime
  >
{}

/**
 * The quota service. A `Context.Reference`: when no layer provides it, it is the process-wide
 * {@link global}, so that creations are counted even when nobody asked for it and all clients of one
 * user in the process share one quota. Provide {@link layer} to choose the settings or to start from
 * empty counters (in tests).
 *
 * @since 0.1.0
 * @category tags
 */
export class CreationQuota extends Context.Reference<CreationQuota>()("@community-api/client/CreationQuota", {
  defaultValue: (): Service => global
}) {}

/**
 * Makes a quota service with its own counters, synchronously (for {@link global}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMake = (settings?: Settings): Service<never> => {
  Options.orThrow(OptionRules.quota(settings))
  return Limiting.quota(CountStore.unsafeMakeMemory(settings))
}

/**
 * Makes a quota service with its own counters.
 *
 * @example
 * ```ts
 * import { CreationQuota } from "@community-api/client"
 * import { Effect, TestContext } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The service alone: each creation of a user is counted before it is sent.
 * const program = Effect.gen(function*() {
 *   const quota = yield* CreationQuota.make({ perMinute: 2 })
 *   yield* quota.acquire("user-1", "lists/create", "fail")
 *   yield* quota.acquire("user-1", "lists/create", "fail")
 *   const refused = yield* Effect.flip(quota.acquire("user-1", "lists/create", "fail"))
 *   strictEqual(refused.window, "minute")
 *   strictEqual((yield* quota.budget("user-1")).minute.left, 0)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(TestContext.TestContext)))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings?: Settings): Effect.Effect<Service<never>> => Effect.sync(() => unsafeMake(settings))

/**
 * A layer of one quota service; every client built with it shares its counters.
 *
 * @example
 * ```ts
 * import { CreationQuota } from "@community-api/client"
 * import { Effect, TestContext } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A quota of its own, of 2 creations a minute (on a test clock, so that all three fall in one minute).
 * const program = Effect.gen(function*() {
 *   const quota = yield* CreationQuota.CreationQuota
 *   yield* quota.acquire("owner", "lists/create", "fail")
 *   yield* quota.acquire("owner", "lists/create", "fail")
 *   const third = yield* Effect.flip(quota.acquire("owner", "lists/create", "fail"))
 *   strictEqual(third._tag, "CreationQuotaExceeded")
 *   const { minute } = yield* quota.budget("owner")
 *   strictEqual(minute.left, 0)
 * })
 *
 * await Effect.runPromise(
 *   program.pipe(Effect.provide(CreationQuota.layer({ perMinute: 2 })), Effect.provide(TestContext.TestContext))
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (settings?: Settings): Layer.Layer<CreationQuota> => Layer.effect(CreationQuota, make(settings))

/**
 * Makes a quota service over the store of counts of the context ({@link CountStore.CountStore}): the
 * store keeps the counts and their limits, this service waits or fails when a window is used up.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeFromStore: Effect.Effect<Service, never, CountStore.CountStore> =
  // Pure: a bundle that never uses it leaves it out, and the tag with it.
  /* @__PURE__ */ Effect.map(CountStore.CountStore, Limiting.quota)

/**
 * A layer of one quota service over the store of counts of the context (see {@link makeFromStore}):
 * `CreationQuota.layerFromStore.pipe(Layer.provide(store))` with a store of the user's own, or one of
 * `CountStore.layerMemory` and `RedisStore.layerCounts`.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, CountStore, CreationQuota } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The quota over a store of counts given by hand: here the memory store, with 5 creations a minute.
 * const quota = CreationQuota.layerFromStore.pipe(Layer.provide(CountStore.layerMemory({ perMinute: 5 })))
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), quota)))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   strictEqual((yield* api.budget).creations.minute.limit, 5)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFromStore: Layer.Layer<CreationQuota, never, CountStore.CountStore> = /* @__PURE__ */ Layer.effect(
  CreationQuota,
  makeFromStore
)

/**
 * Options of the Redis store of the quota: where Redis is, and the settings of the quota.
 *
 * @since 0.1.0
 * @category options
 */
export interface RedisOptions extends RedisStore.CountOptions, Settings {}

/**
 * Makes a quota service whose counts are kept in Redis (`RedisStore.makeCounts`), shared with every
 * process that uses the same Redis, prefix and user key; connected for the scope. The calendar minute
 * and day are read from the Redis server's clock.
 *
 * Fails with `LimiterUnavailable` only when the `ioredis` package cannot be loaded (and
 * `onUnavailable` is `"fail"`); a Redis that cannot be reached fails each creation instead, or falls
 * back to this process's memory (see `RedisStore.OnUnavailable`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeRedis = (
  options: RedisOptions
): Effect.Effect<Service, ClientError.LimiterUnavailable, Scope.Scope> =>
  Effect.map(RedisStore.makeCounts(options), Limiting.quota)

/**
 * A layer of one quota service over Redis (see {@link makeRedis}): provide it in every process of the
 * user, above every client that must share it.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, CreationQuota } from "@community-api/client"
 * import { GroupId } from "@community-api/schema/Ids"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { ok } from "node:assert"
 *
 * // Every process of the user counts its creations in one Redis. No Redis listens here: with
 * // `onUnavailable: "fallback"` the client counts in this process's memory (and logs it once).
 * const quota = CreationQuota.layerRedis({ url: "redis://127.0.0.1:1", onUnavailable: "fallback", timeout: "200 millis" })
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), quota)))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoFixture.mainCommunity
 *   const list = yield* api.lists.create({ group_id: GroupId.make(group_id), channel, name: "Guests" })
 *   ok(list.id.length > 0)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (options: RedisOptions): Layer.Layer<CreationQuota, ClientError.LimiterUnavailable> =>
  Layer.scoped(CreationQuota, makeRedis(options))

/**
 * {@link layerRedis} with the URL from `COMMUNITY_API_REDIS_URL` (`RedisStore.url`, redacted).
 *
 * @example
 * ```ts
 * import { CreationQuota } from "@community-api/client"
 * import { ConfigProvider, Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The URL from `COMMUNITY_API_REDIS_URL`, here from a map. No Redis listens there: the quota fails
 * // closed (the default), and a creation would not be sent.
 * const environment = ConfigProvider.fromMap(new Map([["COMMUNITY_API_REDIS_URL", "redis://127.0.0.1:1"]]))
 * const quota = CreationQuota.layerRedisConfig({ timeout: "200 millis" }).pipe(
 *   Layer.provide(Layer.setConfigProvider(environment))
 * )
 *
 * const program = Effect.gen(function*() {
 *   const service = yield* CreationQuota.CreationQuota
 *   const error = yield* Effect.flip(service.budget("user-1"))
 *   strictEqual(error._tag, "LimiterUnavailable")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(quota)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedisConfig = (
  options: Omit<RedisOptions, "url"> = {}
): Layer.Layer<CreationQuota, ClientError.LimiterUnavailable | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(RedisStore.url, (url) => layerRedis({ ...options, url })))

/**
 * The process-wide service with the default settings: the value of {@link CreationQuota} when no
 * layer provides it (one instance per process, even if two copies of this package are loaded).
 *
 * @since 0.1.0
 * @category constants
 */
export const global: Service<never> = GlobalValue.globalValue(
  Symbol.for("@community-api/client/CreationQuota/global"),
  () => unsafeMake()
)
