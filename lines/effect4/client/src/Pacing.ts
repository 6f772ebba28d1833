/**
 * The pacing of a user's requests under the API's 30 a second, on the Effect 4 line: a permit per
 * request, given back after the hold the core's pacing rule says (`@community-api/core/PacingRule`),
 * from a store in memory or in Redis shared with the user's other processes of either line.
 *
 * @since 0.1.0
 */
import * as OptionRules from "@community-api/core/OptionRules"
import * as PacingBook from "@community-api/core/PacingBook"
import type * as PacingRule from "@community-api/core/PacingRule"
import { Clock, type Config, Context, type DateTime, Duration, Effect, Layer } from "effect"
import type { Scope } from "effect"
import * as Budget from "./Budget.js"
import type * as ClientError from "./ClientError.js"
import * as Limiting from "./internal/limiting.js"
import * as Recording from "./internal/metrics.js"
import * as Options from "./internal/options.js"
import * as Lane from "./Lane.js"
import type * as Metrics from "./Metrics.js"
import * as PermitStore from "./PermitStore.js"
import { PermitStore as PermitStoreTag } from "./PermitStore.js"
import * as RedisStore from "./RedisStore.js"

/**
 * Settings of the pacing (the core's `PacingBook.Options`).
 *
 * @since 0.1.0
 * @category options
 */
export type Settings = PacingBook.Options<Duration.Input, Metrics.Options>

/**
 * The default settings: the API's limit and window, the core's margin.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = PacingBook.defaultsIn(Duration.millis)

/**
 * The settings in effect.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedSettings extends PacingRule.Settings {}

/**
 * The pacing: `withPermit` runs `send` with a permit of `user`, given back after its hold, taken in
 * the lane the call is marked with (`Lane.withLane`), else in `lane`, else `interactive`; the rest is
 * the core's `PacingBook.Shape`.
 *
 * @since 0.1.0
 * @category models
 */
export type Service<E = ClientError.LimiterUnavailable> =
  & PacingBook.Shape<Effect.Effect<void>, Effect.Effect<number>, Effect.Effect<Budget.Requests, E>>
  & {
    readonly withPermit: (
      user: string,
      lane?: Lane.Lane
    ) => <A, E2, R>(send: Effect.Effect<A, E2, R>) => Effect.Effect<A, E2 | E, R>
  }

const toMillis = (input: Duration.Input) => Duration.toMillis(Duration.fromInputUnsafe(input))

const fromStore = <E>(store: PermitStore.Service<E>, settings: Omit<Settings, "limit"> = {}): Service<E> => {
  const perUser = Recording.perUser(settings.metrics)
  const book = PacingBook.make(PacingBook.resolve(store.limit, settings, toMillis), {
    hold: settings.hold,
    onUsers: Recording.usersChanged,
    onDrop: perUser?.drop,
    onPermits: Recording.permitsChanged
  })
  const sweeper = PacingBook.sweeper<Limiting.Fx>(Limiting.effects, book)
  return {
    ...PacingBook.shape<Limiting.Fx, DateTime.Utc, E>(Limiting.effects, store, book),
    withPermit: (user, clientLane) => (send) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.withFiber((fiber) => {
          const clock = fiber.getRef(Clock.Clock)
          const now = () => clock.currentTimeMillisUnsafe()
          const call = book.begin(user, now())
          Recording.register(fiber.context)
          perUser?.track(user, call.held, fiber.context)
          const take = Effect.flatMap(Lane.current(clientLane), (lane) => store.take(user, lane))
          const answered = (permit: PermitStore.Permit) =>
            Effect.suspend(() => store.release(permit, book.answered(call, now())))
          const ended = Effect.suspend(() => book.settle(call, now()) ? Effect.forkDetach(sweeper) : Effect.void)
          return Effect.flatMap(restore(take), (permit) => {
            Recording.waited(book.taken(call, now()), fiber.context)
            return Effect.ensuring(restore(send), answered(permit))
          }).pipe(Effect.ensuring(ended))
        })
      )
  }
}

/**
 * A pacing in this process's memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (settings: Settings = {}): Service<never> => {
  Options.orThrow(OptionRules.pacing(settings, Options.reading))
  return fromStore(PermitStore.makeMemoryUnsafe(settings), settings)
}

/**
 * A pacing in this process's memory.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Pacing } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
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
export const make = (settings?: Settings): Effect.Effect<Service<never>> => Effect.sync(() => makeUnsafe(settings))

const globalKey = Symbol.for("@community-api/effect4-client/Pacing/global")

/**
 * The process's pacing: every client of the process that is given no other shares it.
 *
 * @since 0.1.0
 * @category constants
 */
export const global: Service<never> =
  ((globalThis as Record<symbol, Service<never> | undefined>)[globalKey] ??= makeUnsafe())

/**
 * The pacing a client uses: {@link global} unless a layer provides another.
 *
 * @since 0.1.0
 * @category tags
 */
export const Pacing = Context.Reference<Service>("@community-api/effect4-client/Pacing", {
  defaultValue: () => global
})

/**
 * A pacing of its own for the clients under this layer.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Pacing } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { TestClock } from "effect/testing"
 * import { strictEqual } from "node:assert"
 *
 * // The clients of this layer share a pacing of their own, its logs empty, instead of the process-wide one.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
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
 * await Effect.runPromise(program.pipe(Effect.provide(client), Effect.provide(TestClock.layer())))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (settings?: Settings): Layer.Layer<never> => Layer.effect(Pacing, make(settings))

/**
 * A pacing over the store of the context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeFromStore = (
  settings?: Omit<Settings, "limit">
): Effect.Effect<Service, never, PermitStoreTag> =>
  Options.checked(
    () => OptionRules.pacing(settings, Options.reading),
    () => Effect.map(Effect.service(PermitStoreTag), (store) => fromStore(store, settings))
  )

/**
 * A pacing over the store of the context.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Pacing, PermitStore } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { TestClock } from "effect/testing"
 * import { strictEqual } from "node:assert"
 *
 * // The pacing over a store of permits given by hand: here the memory store, with 30 permits per user.
 * const pacing = Pacing.layerFromStore({ margin: "50 millis" }).pipe(Layer.provide(PermitStore.layerMemory()))
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), pacing)))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* api.users.me()
 *   strictEqual((yield* api.budget).requests.used, 1)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client), Effect.provide(TestClock.layer())))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFromStore = (
  settings?: Omit<Settings, "limit">
): Layer.Layer<never, never, PermitStoreTag> => Layer.effect(Pacing, makeFromStore(settings))

/**
 * Options of a pacing in Redis.
 *
 * @since 0.1.0
 * @category options
 */
export interface RedisOptions extends RedisStore.PermitOptions, Settings {}

/**
 * A pacing over a permit store in Redis, shared with the user's other processes of either line.
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
 * A pacing in Redis for the clients under this layer.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Pacing } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // Every process of the user paces in one Redis. No Redis listens here: with `onUnavailable: "fallback"`
 * // the client paces in this process's memory (and logs it once) instead of failing its calls.
 * const pacing = Pacing.layerRedis({ url: "redis://127.0.0.1:1", onUnavailable: "fallback", timeout: "200 millis" })
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), pacing)))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   strictEqual((yield* api.users.me()).user_id, DemoData.userIds.owner)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (options: RedisOptions): Layer.Layer<never, ClientError.LimiterUnavailable> =>
  Layer.effect(Pacing, makeRedis(options))

/**
 * A pacing in the Redis of `COMMUNITY_API_REDIS_URL`.
 *
 * @example
 * ```ts
 * import { Pacing } from "@community-api/effect4-client"
 * import { ConfigProvider, Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The URL from `COMMUNITY_API_REDIS_URL`, here given as a record; no Redis listens there, and the layer says so.
 * const environment = ConfigProvider.fromEnv({ env: { COMMUNITY_API_REDIS_URL: "redis://127.0.0.1:1" } })
 * const pacing = Pacing.layerRedisConfig({ timeout: "200 millis" }).pipe(
 *   Layer.provide(ConfigProvider.layer(environment))
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
): Layer.Layer<never, ClientError.LimiterUnavailable | Config.ConfigError> =>
  Layer.unwrap(Effect.map(RedisStore.url, (url) => layerRedis({ ...options, url })))
