/**
 * The client's creation quota on the Effect 4 line: 20 creations a minute and 200 a day per user,
 * counted before a creation is sent, from a store in memory or in Redis shared with the user's other
 * processes of either line. When the minute is used up a creation waits for the next one, or fails.
 *
 * @since 0.1.0
 */
import * as Quota from "@community-api/core/CreationQuota"
import * as Limits from "@community-api/core/Limits"
import * as OptionRules from "@community-api/core/OptionRules"
import { type Config, Context, type DateTime, Effect, Layer } from "effect"
import type { Scope } from "effect"
import * as Budget from "./Budget.js"
import * as ClientError from "./ClientError.js"
import * as CountStore from "./CountStore.js"
import { CountStore as CountStoreTag } from "./CountStore.js"
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
 * The API's creation limits.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Limits.CreationSettings = Limits.creationDefaults

/**
 * What a creation does when the minute is used up: wait for the next minute, or fail at once.
 *
 * @since 0.1.0
 * @category models
 */
export type OnExhausted = Quota.OnExhausted

/**
 * The quota: the core's `CreationQuota.Shape` over this line's effects.
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
 * A quota in this process's memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (settings?: Settings): Service<never> => {
  Options.orThrow(OptionRules.quota(settings))
  return Limiting.quota(CountStore.makeMemoryUnsafe(settings))
}

/**
 * A quota in this process's memory.
 *
 * @example
 * ```ts
 * import { CreationQuota } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { TestClock } from "effect/testing"
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
 * await Effect.runPromise(program.pipe(Effect.provide(TestClock.layer())))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings?: Settings): Effect.Effect<Service<never>> => Effect.sync(() => makeUnsafe(settings))

const globalKey = Symbol.for("@community-api/effect4-client/CreationQuota/global")

/**
 * The process's quota: every client of the process that is given no other shares it.
 *
 * @since 0.1.0
 * @category constants
 */
export const global: Service<never> =
  ((globalThis as Record<symbol, Service<never> | undefined>)[globalKey] ??= makeUnsafe())

/**
 * The quota a client uses: {@link global} unless a layer provides another.
 *
 * @since 0.1.0
 * @category tags
 */
export const CreationQuota = Context.Reference<Service>("@community-api/effect4-client/CreationQuota", {
  defaultValue: () => global
})

/**
 * A quota of its own for the clients under this layer.
 *
 * @example
 * ```ts
 * import { CreationQuota } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { TestClock } from "effect/testing"
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
 *   program.pipe(Effect.provide(CreationQuota.layer({ perMinute: 2 })), Effect.provide(TestClock.layer()))
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (settings?: Settings): Layer.Layer<never> => Layer.effect(CreationQuota, make(settings))

/**
 * A quota over the store of the context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeFromStore: Effect.Effect<Service, never, CountStoreTag> = Effect.map(
  Effect.service(CountStoreTag),
  Limiting.quota
)

/**
 * A quota over the store of the context.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, CountStore, CreationQuota } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The quota over a store of counts given by hand: here the memory store, with 5 creations a minute.
 * const quota = CreationQuota.layerFromStore.pipe(Layer.provide(CountStore.layerMemory({ perMinute: 5 })))
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
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
export const layerFromStore: Layer.Layer<never, never, CountStoreTag> = Layer.effect(CreationQuota, makeFromStore)

/**
 * Options of a quota in Redis.
 *
 * @since 0.1.0
 * @category options
 */
export interface RedisOptions extends RedisStore.CountOptions, Settings {}

/**
 * A quota over a count store in Redis, shared with the user's other processes of either line.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeRedis = (
  options: RedisOptions
): Effect.Effect<Service, ClientError.LimiterUnavailable, Scope.Scope> =>
  Effect.map(RedisStore.makeCounts(options), Limiting.quota)

/**
 * A quota in Redis for the clients under this layer.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, CreationQuota } from "@community-api/effect4-client"
 * import { Ids } from "@community-api/effect4-schema"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted, Schema } from "effect"
 * import { ok } from "node:assert"
 *
 * // Every process of the user counts its creations in one Redis. No Redis listens here: with
 * // `onUnavailable: "fallback"` the client counts in this process's memory (and logs it once).
 * const quota = CreationQuota.layerRedis({ url: "redis://127.0.0.1:1", onUnavailable: "fallback", timeout: "200 millis" })
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), quota)))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoData.mainCommunity
 *   const list = yield* api.lists.create({ group_id: Schema.decodeSync(Ids.GroupId)(group_id), channel, name: "Guests" })
 *   ok(list.id.length > 0)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (options: RedisOptions): Layer.Layer<never, ClientError.LimiterUnavailable> =>
  Layer.effect(CreationQuota, makeRedis(options))

/**
 * A quota in the Redis of `COMMUNITY_API_REDIS_URL`.
 *
 * @example
 * ```ts
 * import { CreationQuota } from "@community-api/effect4-client"
 * import { ConfigProvider, Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The URL from `COMMUNITY_API_REDIS_URL`, here given as a record. No Redis listens there: the quota fails
 * // closed (the default), and a creation would not be sent.
 * const environment = ConfigProvider.fromEnv({ env: { COMMUNITY_API_REDIS_URL: "redis://127.0.0.1:1" } })
 * const quota = CreationQuota.layerRedisConfig({ timeout: "200 millis" }).pipe(
 *   Layer.provide(ConfigProvider.layer(environment))
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
): Layer.Layer<never, ClientError.LimiterUnavailable | Config.ConfigError> =>
  Layer.unwrap(Effect.map(RedisStore.url, (url) => layerRedis({ ...options, url })))
