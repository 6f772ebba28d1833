/**
 * Where the pacing permits of every user are kept: the store under `Pacing`, in the manner of
 * the `RateLimiterStore` under the `RateLimiter` of `@effect/experimental`. `Pacing` holds the rule
 * (how long a permit stays held after its request) and a store keeps the permits: `limit` per user,
 * each held from its take until the {@link Hold} given at its release says.
 *
 * Two stores come with the package: this process's memory ({@link layerMemory}, what `Pacing.layer`
 * uses) and Redis, shared by every process of a user (`RedisStore.layerPermits`, what
 * `Pacing.layerRedis` uses). Another store is a {@link Service} provided as {@link PermitStore}
 * under `Pacing.layerFromStore`.
 *
 * Every time a store takes or gives is on the store's own clock: the memory store reads Effect's
 * `Clock`, the Redis store the Redis server's `TIME`, never a caller's clock.
 *
 * @since 0.1.0
 */
import type * as Budget from "@community-api/core/Budget"
import type * as PacingRule from "@community-api/core/PacingRule"
import type * as Core from "@community-api/core/PermitStore"
import { Limits } from "@community-api/schema"
import { Context, Effect, Layer } from "effect"
import type * as ClientError from "./ClientError.js"
import * as Permits from "./internal/permits.js"

/**
 * A permit taken from a store. Only the store that gave it reads it: a store gives its own permits,
 * with whatever it needs to take them back, and `Pacing` hands each back to its store unread. The
 * core's (`@community-api/core/PermitStore`).
 *
 * @since 0.1.0
 * @category models
 */
export type Permit = Core.Permit

/**
 * How long a given-back permit still counts as held, on the store's clock: until the later of the
 * answer plus `afterAnswerMillis` and the take plus `afterTakeMillis`. `Pacing` decides it (see
 * "Pacing at real latency" in `docs/client.md`); the store keeps it. The pacing rule's own type, from
 * `@community-api/core/PacingRule`.
 *
 * @since 0.1.0
 * @category models
 */
export type Hold = PacingRule.Hold

/**
 * A store of pacing permits. `E`: how the store fails (`never` for the memory store); `Pacing` passes
 * it on to the request, which then is not sent. What each operation does is said once, by the core's
 * `PermitStore.Store`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service<E = ClientError.LimiterUnavailable> extends
  Core.Store<
    Effect.Effect<Permit, E>,
    Effect.Effect<void>,
    Effect.Effect<Budget.Requests, E>,
    Effect.Effect<void, E>
  >
{}

/**
 * The store of pacing permits that `Pacing.layerFromStore` paces with. Its failures are
 * `LimiterUnavailable`, the one error of a store that every operation of the client can fail with.
 *
 * @since 0.1.0
 * @category tags
 */
export class PermitStore extends Context.Tag("@community-api/client/PermitStore")<PermitStore, Service>() {}

/**
 * A store of permits in this process's memory, which also tells how many users it holds state for.
 * A user's state leaves memory once none of its permits is taken, waited for or held back and no block
 * of it lasts: memory follows the users active now, not every user ever served.
 *
 * @since 0.1.0
 * @category models
 */
export interface Memory extends Service<never> {
  /** How many users the store holds state for now. */
  readonly users: Effect.Effect<number>
}

/**
 * Settings of a store of permits: its `limit`, requests allowed in one window (default 30).
 *
 * @since 0.1.0
 * @category options
 */
export type Settings = Core.Settings

/**
 * Makes a store of permits in this process's memory, synchronously: per user `limit` permits and the
 * calls waiting for one (interactive ones first, each lane first come, first served), each permit
 * given back by a daemon fiber once its hold has passed.
 * A user's semaphore leaves memory once the user is idle (see {@link Memory}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMakeMemory = (settings: Settings = {}): Memory =>
  Permits.unsafeMakeStore(settings.limit ?? Limits.requestsPerWindow)

/**
 * Makes a store of permits in this process's memory (see {@link unsafeMakeMemory}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (settings?: Settings): Effect.Effect<Memory> => Effect.sync(() => unsafeMakeMemory(settings))

/**
 * A layer of one store of permits in this process's memory.
 *
 * @example
 * ```ts
 * import { PermitStore } from "@community-api/client"
 * import { Effect, TestContext } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A store of 2 permits per user, used directly: `Pacing` takes and gives back permits so.
 * const program = Effect.gen(function*() {
 *   const store = yield* PermitStore.PermitStore
 *   const permit = yield* store.take("user-1", "interactive")
 *   strictEqual((yield* store.budget("user-1")).left, 1)
 *   yield* store.release(permit, { afterAnswerMillis: 0, afterTakeMillis: 0 })
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(PermitStore.layerMemory({ limit: 2 })), Effect.provide(TestContext.TestContext)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (settings?: Settings): Layer.Layer<PermitStore> =>
  Layer.effect(PermitStore, makeMemory(settings))
