/**
 * The memory store of the pacing permits (`PermitStore.layerMemory`, the default behind `Pacing`):
 * the core's `PermitBook` decides who gets a permit, when it comes back and what a user has left, and
 * puts the store together (`PermitBook.store`); this module gives it this line's effects, a waiter as
 * a `Deferred` and a hold on the store's timer (one fiber per clock, `timers.ts`), so that the
 * caller's answer is not delayed by the hold.
 */
import * as PermitBook from "@community-api/core/PermitBook"
import { Deferred, Effect, FiberId } from "effect"
import type * as PermitStore from "../PermitStore.js"
import * as Limiting from "./limiting.js"
import * as Timers from "./timers.js"

type Waiter = Deferred.Deferred<void>

/** A memory store of `limit` permits per user, synchronously. @internal */
export const unsafeMakeStore = (limit: number): PermitStore.Memory => {
  // The holds of this store's permits, kept by one fiber per clock (`timers.ts`) instead of a daemon
  // fiber forked to sleep out each one: 700 → 640 µs of the client's CPU a call in isolation (B9).
  // In the background: they keep a process alive only while a call waits for a permit.
  const holds = Timers.make({ inBackground: true })
  // Each waiter the book hands a permit to is woken.
  const wake = (next: Waiter) => Deferred.unsafeDone(next, Effect.void)
  const book = PermitBook.make<Waiter>({ limit, onWaiting: holds.awaited, wake })
  return PermitBook.store<Limiting.Fx, Waiter>({
    ...Limiting.effects,
    waiter: () => Deferred.unsafeMake<void>(FiberId.none),
    await: Deferred.await,
    guard: (self, cleanup) => Effect.onInterrupt(self, cleanup),
    mask: Effect.uninterruptibleMask,
    holdUntil: (until, due) => Effect.asVoid(holds.addAt(until, due))
  }, book)
}
