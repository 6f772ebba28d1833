/**
 * Where the creation counts of every user are kept, per calendar minute and day: the store under
 * `CreationQuota`, in the manner of the `RateLimiterStore` under the `RateLimiter` of
 * `@effect/experimental`. `CreationQuota` holds the rules (what a used-up minute does to a creation,
 * which error says so) and a store keeps the counts, with the contract's calendar (`Limits` of
 * `@community-api/schema`).
 *
 * Two stores come with the package: this process's memory ({@link layerMemory}, what
 * `CreationQuota.layer` uses) and Redis, shared by every process of a user (`RedisStore.layerCounts`,
 * what `CreationQuota.layerRedis` uses). Another store is a {@link Service} provided as
 * {@link CountStore} under `CreationQuota.layerFromStore`.
 *
 * Every time a store answers is on the store's own clock: the memory store reads Effect's `Clock`,
 * the Redis store the Redis server's `TIME`, never a caller's clock.
 *
 * @since 0.1.0
 */
import type * as Budget from "@community-api/core/Budget"
import type * as CreationBook from "@community-api/core/CreationBook"
import type * as RedisScripts from "@community-api/core/RedisScripts"
import type { Limits } from "@community-api/schema"
import { Context, Effect, Layer } from "effect"
import type * as ClientError from "./ClientError.js"
import * as Creations from "./internal/creations.js"

/**
 * What a store answers to a count: counted at `at`, or the window that is used up (nothing counted)
 * with when it resets and the store's time of the answer. All three times are epoch milliseconds on
 * the store's clock. The shape is the core's, the one the Redis script's reply is read into, so that
 * every store answers alike.
 *
 * @since 0.1.0
 * @category models
 */
export type Verdict = RedisScripts.Verdict

/**
 * A store of creation counts. `E`: how the store fails (`never` for the memory store); a creation
 * whose count fails is not sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service<E = ClientError.LimiterUnavailable> {
  /** Counts one creation of `user` now, or says which window is used up. */
  readonly take: (user: string) => Effect.Effect<Verdict, E>
  /**
   * A creation counted at `taken` is about to be sent: within the same calendar minute it stays as
   * it is (`Taken` at `taken`); in a later minute it is given back and counted now, as the server
   * will count it when it arrives.
   */
  readonly retake: (user: string, taken: number) => Effect.Effect<Verdict, E>
  /** Gives back a creation counted at `taken`, in whichever of its windows is still the current one. */
  readonly refund: (user: string, taken: number) => Effect.Effect<void, E>
  /** Marks `window` used up for `user` until it ends. */
  readonly exhaust: (user: string, window: Limits.CreationWindow) => Effect.Effect<void, E>
  /** The window the count of `user` has used up now, if any. */
  readonly usedUp: (user: string) => Effect.Effect<Limits.CreationWindow | undefined, E>
  /** What is left of the creations of `user` in the current minute and day, and when each resets. */
  readonly budget: (user: string) => Effect.Effect<Budget.Creations, E>
}

/**
 * The store of creation counts that `CreationQuota.layerFromStore` counts with. Its failures are
 * `LimiterUnavailable`, the one error of a store that every operation of the client can fail with.
 *
 * @since 0.1.0
 * @category tags
 */
export class CountStore extends Context.Tag("@community-api/client/CountStore")<CountStore, Service>() {}

/**
 * A store of creation counts in this process's memory, which also tells how many users it holds
 * counts for. A user's counts leave memory once both its windows have passed (at the latest when its
 * day ends, at 03:00 Moscow time): memory follows the users who created something today.
 *
 * @since 0.1.0
 * @category models
 */
export interface Memory extends Service<never> {
  /** How many users the store holds counts for now. */
  readonly users: Effect.Effect<number>
}

/**
 * Settings of a store of counts.
 *
 * @since 0.1.0
 * @category options
 */
export interface Settings extends CreationBook.Settings {}

/**
 * Makes a store of counts in this process's memory, synchronously: per user the counts of the current
 * calendar minute and day, on Effect's `Clock`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMakeMemory = (settings?: Settings): Memory => Creations.unsafeMakeStore(settings)

/**
 * Makes a store of counts in this process's memory (see {@link unsafeMakeMemory}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (settings?: Settings): Effect.Effect<Memory> => Effect.sync(() => unsafeMakeMemory(settings))

/**
 * A layer of one store of counts in this process's memory.
 *
 * @example
 * ```ts
 * import { CountStore } from "@community-api/client"
 * import { Effect, TestContext } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A store of counts, used directly: `CreationQuota` counts each creation so.
 * const program = Effect.gen(function*() {
 *   const store = yield* CountStore.CountStore
 *   const verdict = yield* store.take("user-1")
 *   strictEqual(verdict._tag, "Taken")
 *   strictEqual((yield* store.budget("user-1")).minute.used, 1)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(CountStore.layerMemory()), Effect.provide(TestContext.TestContext)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (settings?: Settings): Layer.Layer<CountStore> =>
  Layer.effect(CountStore, makeMemory(settings))
