/**
 * Where the creations of a user are counted, on the Effect 4 line: in this process's memory, or in
 * Redis to count those of the user's other processes too (of either line: the keys and scripts are
 * the core's).
 *
 * @since 0.1.0
 */
import type * as Budget from "@community-api/core/Budget"
import type * as CreationBook from "@community-api/core/CreationBook"
import type * as Limits from "@community-api/core/Limits"
import type * as RedisScripts from "@community-api/core/RedisScripts"
import { Context, Effect, Layer } from "effect"
import type * as ClientError from "./ClientError.js"
import * as Creations from "./internal/creations.js"

/**
 * What taking a creation gives: taken at a time, or refused by a used-up window.
 *
 * @since 0.1.0
 * @category models
 */
export type Verdict = RedisScripts.Verdict

/**
 * A store of creation counts.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service<E = ClientError.LimiterUnavailable> {
  /** Counts a creation now, unless a window is used up. */
  readonly take: (user: string) => Effect.Effect<Verdict, E>
  /** Confirms a creation taken at `taken`: still good within its minute, else counted again now. */
  readonly retake: (user: string, taken: number) => Effect.Effect<Verdict, E>
  /** Gives back a creation the server did not count. */
  readonly refund: (user: string, taken: number) => Effect.Effect<void, E>
  /** Marks a window used up (the server refused with 5). */
  readonly exhaust: (user: string, window: Limits.CreationWindow) => Effect.Effect<void, E>
  /** The window that is used up now, if any. */
  readonly usedUp: (user: string) => Effect.Effect<Limits.CreationWindow | undefined, E>
  /** What is left of the creations of `user` in the current minute and day, and when each resets. */
  readonly budget: (user: string) => Effect.Effect<Budget.Creations, E>
}

/**
 * The store of counts the creation quota reads (see `CreationQuota.layerFromStore`).
 *
 * @since 0.1.0
 * @category tags
 */
export class CountStore extends Context.Service<CountStore, Service>()("@community-api/effect4-client/CountStore") {}

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
 * Settings of a store in memory.
 *
 * @since 0.1.0
 * @category options
 */
export interface Settings extends CreationBook.Settings {}

/**
 * A store in this process's memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryUnsafe = (settings?: Settings): Memory => Creations.makeStoreUnsafe(settings)

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
 * import { CountStore } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { TestClock } from "effect/testing"
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
 * await Effect.runPromise(program.pipe(Effect.provide(CountStore.layerMemory()), Effect.provide(TestClock.layer())))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (settings?: Settings): Layer.Layer<CountStore> =>
  Layer.effect(CountStore, makeMemory(settings))
