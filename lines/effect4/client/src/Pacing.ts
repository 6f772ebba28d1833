/**
 * The pacing of a user's requests under the API's 30 a second, on the Effect 4 line: a permit per
 * request, given back after the hold the core's pacing rule says (`@community-api/core/PacingRule`),
 * from a store in memory or in Redis shared with the user's other processes of either line.
 *
 * @since 0.1.0
 */
import type * as Budget from "@community-api/core/Budget"
import * as PacingRule from "@community-api/core/PacingRule"
import * as UserTable from "@community-api/core/UserTable"
import { Clock, type Config, Context, Duration, Effect, Layer } from "effect"
import type { Scope } from "effect"
import type * as ClientError from "./ClientError.js"
import * as Recording from "./internal/metrics.js"
import * as Permits from "./internal/permits.js"
import * as Timers from "./internal/timers.js"
import * as Lane from "./Lane.js"
import type * as Metrics from "./Metrics.js"
import type * as PermitStore from "./PermitStore.js"
import { PermitStore as PermitStoreTag } from "./PermitStore.js"
import * as RedisStore from "./RedisStore.js"

/**
 * Settings of the pacing.
 *
 * @since 0.1.0
 * @category options
 */
export interface Settings extends PermitStore.Settings {
  /** The window of the request rate; 1 s by default. */
  readonly window?: Duration.Input | undefined
  /** Held on top of the window, against clocks that differ; the core's margin by default. */
  readonly margin?: Duration.Input | undefined
  /** `learned` (the default): a permit's hold learned from the answers; `safe`: always the whole window. */
  readonly hold?: "learned" | "safe" | undefined
  /**
   * What the service records beyond the client's aggregated metrics (`Metrics`): series per user,
   * at most `perUser.max` users at once, each leaving with its user's state. Off by default.
   */
  readonly metrics?: Metrics.Options | undefined
}

/**
 * The default settings: the API's limit and window, the core's margin.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  limit: PacingRule.defaults.limit,
  window: Duration.millis(PacingRule.defaults.windowMillis),
  margin: Duration.millis(PacingRule.defaults.marginMillis)
} as const

/**
 * The settings in effect.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedSettings extends PacingRule.Settings {}

/**
 * The pacing.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service<E = ClientError.LimiterUnavailable> {
  /**
   * Runs `send` with a permit of `user`, given back after its hold. The permit is taken in the lane
   * the call is marked with (`Lane.withLane`), else in `lane`, else `interactive`.
   */
  readonly withPermit: (
    user: string,
    lane?: Lane.Lane
  ) => <A, E2, R>(send: Effect.Effect<A, E2, R>) => Effect.Effect<A, E2 | E, R>
  /** After an error 5: `user` waits out the window before the next request. */
  readonly penalize: (user: string) => Effect.Effect<void>
  readonly settings: ResolvedSettings
  /**
   * How many users this service holds state for now: a user's leaves memory once none of its calls
   * waits or is in flight. A store keeps its own (a memory store's gates: `PermitStore.Memory`).
   */
  readonly users: Effect.Effect<number>
  /**
   * What is left of the rate window of `user` now, from the store: the permits taken or held back, the
   * free ones, and when the next held one comes back.
   */
  readonly budget: (user: string) => Effect.Effect<Budget.Requests, E>
}

interface Resolved {
  readonly windowMillis: number
  readonly marginMillis: number
  readonly hold: "learned" | "safe"
}

const resolve = (settings: Omit<Settings, "limit"> = {}): Resolved => ({
  windowMillis: Duration.toMillis(Duration.fromInputUnsafe(settings.window ?? defaults.window)),
  marginMillis: Duration.toMillis(Duration.fromInputUnsafe(settings.margin ?? defaults.margin)),
  hold: settings.hold ?? "learned"
})

const fromStore = <E>(store: PermitStore.Service<E>, settings: Omit<Settings, "limit"> = {}): Service<E> => {
  const { hold, ...timing } = resolve(settings)
  const resolved: ResolvedSettings = { limit: store.limit, ...timing }
  const makeRule = hold === "safe" ? PacingRule.safe : PacingRule.make
  // A user's rule leaves memory a window and the margin after its last call ended (`UserTable`), so
  // that calls one after another keep what it learnt of their delays; a user who comes back later
  // learns again, with the full hold until then.
  const idleMillis = PacingRule.penaltyMillis(resolved)
  interface Entry {
    readonly rule: PacingRule.Rule
    /** Calls of the user waiting for a permit or in flight. */
    active: number
    /** Permits its calls hold (the metrics'). */
    held: number
    /** When the last of them ended. */
    endedAt: number
  }
  const perUser = Recording.perUser(settings.metrics)
  const rules = UserTable.make<Entry>({
    create: () => {
      Recording.usersChanged(1)
      return { rule: makeRule(resolved), active: 0, held: 0, endedAt: 0 }
    },
    isIdle: (entry, now) => entry.active === 0 && entry.endedAt + idleMillis <= now,
    onDrop: (user) => {
      Recording.usersChanged(-1)
      perUser?.drop(user)
    }
  })
  // A permit taken or given back: the entry's count (its user's series reads it) and the total.
  const held = (entry: Entry, delta: number) => {
    entry.held += delta
    Recording.permitsChanged(delta)
  }
  // One fiber sweeps the idle rules while there are any, so that they leave even when no call comes.
  let sweeping = false
  // It sleeps in the background: no call waits for it, so it never keeps a process alive.
  const sweeper: Effect.Effect<void> = Effect.clockWith((clock) =>
    Effect.andThen(
      Timers.sleepInBackground(clock, idleMillis),
      Effect.suspend(() => {
        rules.sweep(clock.currentTimeMillisUnsafe())
        if (rules.size() > 0) return sweeper
        sweeping = false
        return Effect.void
      })
    )
  )
  const release = (entry: Entry, permit: PermitStore.Permit, takenAt: number) =>
    Effect.clockWith((clock) => {
      held(entry, -1)
      return store.release(permit, entry.rule.holdAfter(clock.currentTimeMillisUnsafe() - takenAt))
    })
  const settle = (entry: Entry) =>
    Effect.clockWith((clock) =>
      Effect.suspend(() => {
        entry.active--
        entry.endedAt = clock.currentTimeMillisUnsafe()
        if (sweeping) return Effect.void
        sweeping = true
        return Effect.asVoid(Effect.forkDetach(sweeper))
      })
    )
  return {
    settings: resolved,
    users: Effect.sync(() => rules.size()),
    budget: store.budget,
    withPermit: (user, clientLane) => (send) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.withFiber((fiber) => {
          const clock = fiber.getRef(Clock.Clock)
          const askedAt = clock.currentTimeMillisUnsafe()
          const entry = rules.get(user, askedAt)
          entry.active++
          Recording.register(fiber.context)
          perUser?.track(user, () => entry.held, fiber.context)
          const take = Effect.flatMap(Lane.current(clientLane), (lane) => store.take(user, lane))
          return Effect.flatMap(restore(take), (permit) => {
            const takenAt = clock.currentTimeMillisUnsafe()
            Recording.waited(takenAt - askedAt, fiber.context)
            held(entry, 1)
            return restore(send).pipe(Effect.ensuring(release(entry, permit, takenAt)))
          }).pipe(Effect.ensuring(settle(entry)))
        })
      ),
    penalize: (user) =>
      Effect.suspend(() => {
        rules.peek(user)?.rule.refused()
        return store.block(user, PacingRule.penaltyMillis(resolved))
      }).pipe(
        // The server refused the request anyway; a store that missed the block leaves it to the server.
        Effect.catch((error) =>
          Effect.logDebug(
            `pacing: the block after error 5 was not stored: ${error instanceof Error ? error.message : String(error)}`
          )
        )
      )
  }
}

/**
 * A pacing in this process's memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (settings: Settings = {}): Service<never> =>
  fromStore(Permits.makeStoreUnsafe(settings.limit ?? defaults.limit), settings)

/**
 * A pacing in this process's memory.
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
  Effect.map(Effect.service(PermitStoreTag), (store) => fromStore(store, settings))

/**
 * A pacing over the store of the context.
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
  Effect.map(RedisStore.makePermits(options), (store) => fromStore(store, options))

/**
 * A pacing in Redis for the clients under this layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (options: RedisOptions): Layer.Layer<never, ClientError.LimiterUnavailable> =>
  Layer.effect(Pacing, makeRedis(options))

/**
 * A pacing in the Redis of `COMMUNITY_API_REDIS_URL`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedisConfig = (
  options: Omit<RedisOptions, "url"> = {}
): Layer.Layer<never, ClientError.LimiterUnavailable | Config.ConfigError> =>
  Layer.unwrap(Effect.gen(function*() {
    return layerRedis({ ...options, url: yield* RedisStore.url })
  }))
