/**
 * The memory store of the pacing permits (`PermitStore.layerMemory`, the default behind `Pacing`):
 * the core's `PermitBook` decides who gets a permit, when it comes back and what a user has left, and
 * puts the store together (`PermitBook.store`); this module gives it this line's effects, a waiter as
 * a `Deferred` and a hold on the store's timers (one fiber per clock, `timers.ts`), so that the
 * caller's answer is not delayed by the hold.
 */
import * as PermitBook from "@community-api/core/PermitBook"
import { Deferred, Effect } from "effect"
import type * as PermitStore from "../PermitStore.js"
import * as Limiting from "./limiting.js"
import * as Timers from "./timers.js"

type Waiter = Deferred.Deferred<void>

/** A store of `limit` permits per user. */
export const makeStoreUnsafe = (limit: number): PermitStore.Memory => {
  // The holds of this store's permits, kept by one fiber per clock (`timers.ts`) instead of a detached
  // fiber forked to sleep out each one; in the background: they keep a process alive only while a call
  // waits for a permit. Each waiter the book hands a permit to is woken.
  const holds = Timers.make({ inBackground: true })
  const wake = (next: Waiter) => Deferred.doneUnsafe(next, Effect.void)
  const book = PermitBook.make<Waiter>({ limit, onWaiting: holds.awaited, wake })
  return PermitBook.store<Limiting.Fx, Waiter>({
    ...Limiting.effects,
    waiter: () => Deferred.makeUnsafe<void>(),
    await: Deferred.await,
    guard: (self, cleanup) => Effect.onInterrupt(self, cleanup),
    mask: Effect.uninterruptibleMask,
    holdUntil: (until, due) => Effect.asVoid(holds.addAt(until, due))
  }, book)
}
