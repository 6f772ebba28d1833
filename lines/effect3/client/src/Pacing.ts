/**
 * Request pacing under the rate limit: at most 30 requests in any 1000 ms per user, all of the
 * user's tokens together. Not a token bucket (refilled to full after idle time, a bucket lets about
 * twice the limit through in one second) but 30 permits per user, each held from before a request is
 * sent until a window plus a margin after its answer came back: the server counts a request before it
 * answers, so it never sees more than 30 of one user in any window, however slow it or the network is.
 * Once the round trips of a user have been seen to stay within a band, a permit is held only a window,
 * the margin and the band's width from the send (never less than until its answer): only the variation
 * of the delay, not the delay itself, needs a hold past the window. Outside the band, and after a
 * refusal, the hold falls back to the rule above (`docs/client.md`, "Pacing at real latency").
 *
 * One `Pacing` service holds one gate per user key and is shared by every client that gets it from
 * the same layer. **Without a layer, clients use the process-wide {@link global}**: {@link Pacing} is
 * a `Context.Reference` whose default is that instance, so a client never runs unpaced and every
 * client of one user in the process shares one limit. Provide {@link layer} to choose the settings or
 * to keep a test's counts apart from the rest of the process.
 *
 * **Several processes of one user** (replicas of a service, a worker, a scheduled job) share one limit
 * only through a shared store: provide {@link layerRedis} (or {@link layerRedisConfig}) in every one of
 * them. The permits are then kept in Redis, taken and given back atomically on the Redis server's
 * clock, and at most 30 requests of the user reach the server in any 1000 ms however many processes
 * send. How long a permit stays held after its request is decided in each process, the same way over
 * either store.
 *
 * **Another store** of permits is a `PermitStore` service: provide it as `PermitStore.PermitStore`
 * under {@link layerFromStore}, which paces with whatever store the context holds.
 *
 * @since 0.1.0
 */
import * as OptionRules from "@community-api/core/OptionRules"
import * as PacingBook from "@community-api/core/PacingBook"
import type * as PacingRule from "@community-api/core/PacingRule"
import { Context, type DateTime, Duration, Effect, GlobalValue, Layer } from "effect"
import type { ConfigError, Scope } from "effect"
import * as Budget from "./Budget.js"
import type * as ClientError from "./ClientError.js"
import * as Limiting from "./internal/limiting.js"
import * as Recording from "./internal/metrics.js"
import * as Options from "./internal/options.js"
import * as Lane from "./Lane.js"
import type * as Metrics from "./Metrics.js"
import * as PermitStore from "./PermitStore.js"
import * as RedisStore from "./RedisStore.js"

/**
 * Settings of the limiter: the limit, the window (default 1000 ms), the margin (default 20 ms), the
 * hold (`"learned"` or `"safe"`) and the metrics per user, as the core's `PacingBook.Options` says.
 *
 * @since 0.1.0
 * @category options
 */
export interface Settings extends PacingBook.Options<Duration.DurationInput, Metrics.Options> {}

/**
 * The defaults: the API's limit (30 per 1000 ms, from `Limits`) and a 20 ms margin, the pacing
 * rule's own (`PacingRule.defaults` of the core).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = PacingBook.defaultsIn(Duration.millis)

/**
 * The settings of a pacing service, resolved: the limit of its store, and the window and the margin
 * in milliseconds (the pacing rule's settings, `@community-api/core/PacingRule`).
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedSettings extends PacingRule.Settings {}

/**
 * The pacing service. `E`: how its store can fail, `LimiterUnavailable` for a shared store and `never`
 * for this process's memory ({@link make}). Beyond `withPermit`, the core's `PacingBook.Shape`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service<E = ClientError.LimiterUnavailable>
  extends PacingBook.Shape<Effect.Effect<void>, Effect.Effect<number>, Effect.Effect<Budget.Requests, E>>
{
  /**
   * Runs `send` (one request of `user`) when it fits the limit; its permit comes back when the pacing
   * rule says (at the latest a window plus the margin after `send` ends). Fails with
   * `LimiterUnavailable` (nothing sent) when a shared store cannot be reached. The permit is taken in
   * the lane the call is marked with (`Lane.withLane`), else in `lane`, else `interactive`.
   */
  readonly withPermit: (
    user: string,
    lane?: Lane.Lane
  ) => <A, E2, R>(send: Effect.Effect<A, E2, R>) => Effect.Effect<A, E2 | E, R>
}

/**
 * The pacing service. A `Context.Reference`: when no layer provides it, it is the process-wide
 * {@link global}, so that clients are paced even when nobody asked for it and all clients of one
 * user in the process share one limit. Provide {@link layer} once per process (or per test) to choose
 * the settings or to start from empty logs.
 *
 * @since 0.1.0
 * @category tags
 */
export class Pacing extends Context.Reference<Pacing>()("@community-api/client/Pacing", {
  defaultValue: (): Service => global
}) {}

const now = Effect.clockWith((clock) => Effect.succeed(clock.unsafeCurrentTimeMillis()))

/**
 * The service over a store of permits: the pacing rules (`PacingBook` of the core) stay in this
 * process and decide; the store keeps the permits; this carries the decisions out.
 */
const fromStore = <E>(store: PermitStore.Service<E>, settings: Omit<Settings, "limit"> = {}): Service<E> => {
  const perUser = Recording.perUser(settings.metrics)
  const book = PacingBook.make(PacingBook.resolve(store.limit, settings, Duration.toMillis), {
    hold: settings.hold,
    onUsers: Recording.usersChanged,
    onDrop: perUser?.drop,
    onPermits: Recording.permitsChanged,
    onHeld: perUser?.set
  })
  const sweeper = PacingBook.sweeper<Limiting.Fx>(Limiting.effects, book)
  const settle = (call: PacingBook.Call) =>
    Effect.flatMap(now, (at) => book.settle(call, at) ? Effect.asVoid(Effect.forkDaemon(sweeper)) : Effect.void)
  return {
    ...PacingBook.shape<Limiting.Fx, DateTime.Utc, E>(Limiting.effects, store, book),
    withPermit: (user, clientLane) => (send) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(now, (askedAt) => {
          const call = book.begin(user, askedAt)
          const take = Effect.flatMap(Lane.current(clientLane), (lane) => store.take(user, lane))
          return restore(take).pipe(
            Effect.zipLeft(Effect.map(now, (at) => Recording.waited(book.taken(call, at)))),
            Effect.flatMap((permit) =>
              restore(send).pipe(
                Effect.ensuring(Effect.flatMap(now, (at) => store.release(permit, book.answered(call, at))))
              )
            ),
            Effect.ensuring(settle(call))
          )
        })
      )
  }
}

/**
 * Makes a pacing service with its own logs, synchronously (for {@link global}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMake = (settings: Settings = {}): Service<never> => {
  Options.orThrow(OptionRules.pacing(settings, Options.reading))
  return fromStore(PermitStore.unsafeMakeMemory(settings), settings)
}

/**
 * Makes a pacing service with its own logs.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Pacing } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * // A pacing below the API's limit, for a job that should leave room to the user's other programs.
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* api.users.me()
 *   strictEqual((yield* api.budget).requests.limit, 10)
 * })
 *
 * await Effect.runPromise(Effect.gen(function*() {
 *   const pacing = yield* Pacing.make({ limit: 10 })
 *   yield* program.pipe(Effect.provide(client), Effect.provideService(Pacing.Pacing, pacing))
 *   strictEqual(pacing.settings.limit, 10)
 * }))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings?: Settings): Effect.Effect<Service<never>> => Effect.sync(() => unsafeMake(settings))

/**
 * A layer of one pacing service; every client built with it shares its logs.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Pacing } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted, TestContext } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The clients of this layer share a pacing of their own, its logs empty, instead of the process-wide one.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), Pacing.layer())))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* api.users.me()
 *   // The request's permit is still held: one of the user's 30 a second is used.
 *   const { requests } = yield* api.budget
 *   strictEqual(requests.used, 1)
 *   strictEqual(requests.limit, 30)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client), Effect.provide(TestContext.TestContext)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (settings?: Settings): Layer.Layer<Pacing> => Layer.effect(Pacing, make(settings))

/**
 * Makes a pacing service over the store of permits of the context ({@link PermitStore.PermitStore}):
 * the store keeps the permits and its limit, this service decides how long each stays held.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeFromStore = (
  settings?: Omit<Settings, "limit">
): Effect.Effect<Service, never, PermitStore.PermitStore> =>
  Options.checked(
    () => OptionRules.pacing(settings, Options.reading),
    () => Effect.map(PermitStore.PermitStore, (store) => fromStore(store, settings))
  )

/**
 * A layer of one pacing service over the store of permits of the context (see {@link makeFromStore}):
 * `Pacing.layerFromStore().pipe(Layer.provide(store))` with a store of the user's own, or one of
 * `PermitStore.layerMemory` and `RedisStore.layerPermits`.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Pacing, PermitStore } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted, TestContext } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The pacing over a store of permits given by hand: here the memory store, with 30 permits per user.
 * const pacing = Pacing.layerFromStore({ margin: "50 millis" }).pipe(Layer.provide(PermitStore.layerMemory()))
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), pacing)))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* api.users.me()
 *   strictEqual((yield* api.budget).requests.used, 1)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client), Effect.provide(TestContext.TestContext)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFromStore = (
  settings?: Omit<Settings, "limit">
): Layer.Layer<Pacing, never, PermitStore.PermitStore> => Layer.effect(Pacing, makeFromStore(settings))

/**
 * Options of the Redis store of the pacing: where Redis is, the settings of the limiter, and the lease.
 *
 * @since 0.1.0
 * @category options
 */
export interface RedisOptions extends RedisStore.PermitOptions, Settings {}

/**
 * Makes a pacing service whose permits are kept in Redis (`RedisStore.makePermits`), shared with
 * every process that uses the same Redis, prefix and user key; connected for the scope.
 *
 * Fails with `LimiterUnavailable` only when the `ioredis` package cannot be loaded (and
 * `onUnavailable` is `"fail"`); a Redis that cannot be reached fails each request instead, or falls
 * back to this process's memory (see `RedisStore.OnUnavailable`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeRedis = (
  options: RedisOptions
): Effect.Effect<Service, ClientError.LimiterUnavailable, Scope.Scope> =>
  Options.checked(
    () => OptionRules.pacing(options, Options.reading),
    () => Effect.map(RedisStore.makePermits(options), (store) => fromStore(store, options))
  )

/**
 * A layer of one pacing service over Redis (see {@link makeRedis}): provide it in every process of
 * the user, above every client that must share it.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Pacing } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // Every process of the user paces in one Redis. No Redis listens here: with `onUnavailable: "fallback"`
 * // the client paces in this process's memory (and logs it once) instead of failing its calls.
 * const pacing = Pacing.layerRedis({ url: "redis://127.0.0.1:1", onUnavailable: "fallback", timeout: "200 millis" })
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), pacing)))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   strictEqual((yield* api.users.me()).user_id, DemoFixture.userIds.owner)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (options: RedisOptions): Layer.Layer<Pacing, ClientError.LimiterUnavailable> =>
  Layer.scoped(Pacing, makeRedis(options))

/**
 * {@link layerRedis} with the URL from `COMMUNITY_API_REDIS_URL` (`RedisStore.url`, redacted).
 *
 * @example
 * ```ts
 * import { Pacing } from "@community-api/client"
 * import { ConfigProvider, Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The URL from `COMMUNITY_API_REDIS_URL`, here from a map; no Redis listens there, and the layer says so.
 * const environment = ConfigProvider.fromMap(new Map([["COMMUNITY_API_REDIS_URL", "redis://127.0.0.1:1"]]))
 * const pacing = Pacing.layerRedisConfig({ timeout: "200 millis" }).pipe(
 *   Layer.provide(Layer.setConfigProvider(environment))
 * )
 *
 * const program = Effect.gen(function*() {
 *   const service = yield* Pacing.Pacing
 *   const error = yield* Effect.flip(service.budget("user-1"))
 *   strictEqual(error._tag, "LimiterUnavailable")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(pacing)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedisConfig = (
  options: Omit<RedisOptions, "url"> = {}
): Layer.Layer<Pacing, ClientError.LimiterUnavailable | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(RedisStore.url, (url) => layerRedis({ ...options, url })))

/**
 * The process-wide service with the default settings: the value of {@link Pacing} when no layer
 * provides it, so that two clients of one user in one process never exceed the limit together (one
 * instance per process, even if two copies of this package are loaded).
 *
 * @since 0.1.0
 * @category constants
 */
export const global: Service<never> = GlobalValue.globalValue(
  Symbol.for("@community-api/client/Pacing/global"),
  () => unsafeMake()
)
