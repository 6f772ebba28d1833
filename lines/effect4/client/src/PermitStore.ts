/**
 * Where the pacing permits of a user are kept, on the Effect 4 line: in this process's memory, or
 * in Redis to share them with the user's other processes (of either line: the keys and scripts are the
 * core's). A permit is taken before a request and given back after the hold the pacing rule says.
 *
 * @since 0.1.0
 */
import type * as Budget from "@community-api/core/Budget"
import * as Limits from "@community-api/core/Limits"
import type * as PacingRule from "@community-api/core/PacingRule"
import type * as Core from "@community-api/core/PermitStore"
import { Context, Effect, Layer } from "effect"
import type * as ClientError from "./ClientError.js"
import * as Permits from "./internal/permits.js"

/**
 * A permit taken for one request (the core's `PermitStore.Permit`).
 *
 * @since 0.1.0
 * @category models
 */
export type Permit = Core.Permit

/**
 * How long a permit stays held after its request.
 *
 * @since 0.1.0
 * @category models
 */
export type Hold = PacingRule.Hold

/**
 * A store of permits: the core's `PermitStore.Store` over this line's effects.
 *
 * @since 0.1.0
 * @category models
 */
export type Service<E = ClientError.LimiterUnavailable> = Core.Store<
  Effect.Effect<Permit, E>,
  Effect.Effect<void>,
  Effect.Effect<Budget.Requests, E>,
  Effect.Effect<void, E>
>

/**
 * The store of permits the pacing reads (see `Pacing.layerFromStore`).
 *
 * @since 0.1.0
 * @category tags
 */
export class PermitStore extends Context.Service<PermitStore, Service>()("@community-api/effect4-client/PermitStore") {}

/**
 * A store of permits in this process's memory, which also tells how many users it holds state for.
 * A user's state leaves memory once none of its permits is taken, waited for or held back and no block
 * of it lasts: memory follows the users active now, not every user ever served.
 *
 * @since 0.1.0
 * @category models
 */
export type Memory = Service<never> & {
  /** How many users the store holds state for now. */
  readonly users: Effect.Effect<number>
}

/**
 * Settings of a store in memory: `limit`, the permits a user holds at most (the API's 30 a second by
 * default).
 *
 * @since 0.1.0
 * @category options
 */
export type Settings = Core.Settings

/**
 * A store in this process's memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryUnsafe = (settings: Settings = {}): Memory =>
  Permits.makeStoreUnsafe(settings.limit ?? Limits.requestsPerWindow)

/**
 * A store in this process's memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (settings?: Settings): Effect.Effect<Memory> => Effect.sync(() => makeMemoryUnsafe(settings))

/**
 * A store in this process's memory.
 *
 * @example
 * ```ts
 * import { PermitStore } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { TestClock } from "effect/testing"
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
 * await Effect.runPromise(program.pipe(Effect.provide(PermitStore.layerMemory({ limit: 2 })), Effect.provide(TestClock.layer())))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (settings?: Settings): Layer.Layer<PermitStore> =>
  Layer.effect(PermitStore, makeMemory(settings))
