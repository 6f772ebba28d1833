/**
 * The seam between the limiters and where their state is kept, in the manner of the
 * `RateLimiterStore` of `@effect/experimental`: `Pacing` and `CreationQuota` hold the rules (how long
 * a permit stays held, what a used-up minute does to a creation) and a store keeps the permits and the
 * counts. Two stores implement it: this process's memory (`permits.ts`, `creations.ts`; the default)
 * and Redis (`redis.ts`), shared by every process of a user.
 *
 * Every time a store takes or gives is on the store's own clock: the memory store reads Effect's
 * `Clock`, the Redis store the Redis server's `TIME`, never a caller's clock.
 *
 * @internal
 */
import type { Limits } from "@community-api/schema"
import type { Effect } from "effect"
import type * as ClientError from "../ClientError.js"
import type * as PacingRule from "./pacingRule.js"

/** A permit taken from a {@link PermitStore}; only the store that gave it reads it. @internal */
export interface Permit {
  readonly user: string
}

/**
 * Where the pacing permits of every user are kept: `limit` per user, each held from its take until
 * the {@link PacingRule.Hold} given at its release says, or until the user's block ends. `E`: how the
 * store fails (`never` for the memory store).
 *
 * @internal
 */
export interface PermitStore<E = ClientError.LimiterUnavailable> {
  /**
   * Waits until a permit of `user` is free and the user is not blocked, and takes it. Interrupted
   * while waiting, it takes nothing.
   */
  readonly take: (user: string) => Effect.Effect<Permit, E>
  /**
   * Gives `permit` back after its answer: it stays held until `max(now + afterAnswerMillis,
   * takenAt + afterTakeMillis)` on the store's clock. Does not wait for the store: the answer is
   * the caller's at once.
   */
  readonly release: (permit: Permit, hold: PacingRule.Hold) => Effect.Effect<void>
  /** No permit of `user` is taken for `millis` from now (the server refused a request for the rate). */
  readonly block: (user: string, millis: number) => Effect.Effect<void, E>
}

/**
 * What a store answers to a count: counted at `at`, or the window that is used up (nothing counted)
 * with when it resets and the store's time of the answer.
 *
 * @internal
 */
export type Verdict =
  | { readonly _tag: "Taken"; readonly at: number }
  | {
    readonly _tag: "Exhausted"
    readonly window: Limits.CreationWindow
    readonly resetsAt: number
    readonly now: number
  }

/**
 * Where the creation counts of every user are kept, per calendar minute and day (`Limits`).
 *
 * @internal
 */
export interface CountStore<E = ClientError.LimiterUnavailable> {
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
}
