/**
 * The memory store of the pacing permits (`PermitStore.layerMemory`, the default behind `Pacing`):
 * the core's `PermitBook` decides who gets a permit, when it comes back and what a user has left; this
 * module only carries its decisions out, a waiter as a `Deferred` and a hold on the store's timers (one
 * fiber per clock, `timers.ts`), so that the caller's answer is not delayed by the hold.
 */
import type { Lane } from "@community-api/core/Lane"
import * as PermitBook from "@community-api/core/PermitBook"
import { Clock, Deferred, Duration, Effect } from "effect"
import type * as PermitStore from "../PermitStore.js"
import * as Timers from "./timers.js"

type Waiter = Deferred.Deferred<void>

type MemoryPermit = PermitBook.Permit<Waiter>

/** A store of `limit` permits per user. */
export const makeStoreUnsafe = (limit: number): PermitStore.Memory => {
  // The holds of this store's permits, kept by one fiber per clock (`timers.ts`) instead of a detached
  // fiber forked to sleep out each one; in the background: they keep a process alive only while a call
  // waits for a permit. Each waiter the book hands a permit to is woken.
  const holds = Timers.make({ inBackground: true })
  const wake = (next: Waiter) => Deferred.doneUnsafe(next, Effect.void)
  const book = PermitBook.make<Waiter>({ limit, onWaiting: holds.awaited, wake })
  const now = Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
  const at = <A>(f: (now: number) => A) => Effect.map(now, f)
  /** Waits for the take's permit; interrupted, it takes nothing (one handed over goes on). */
  const permitOf = (take: PermitBook.Take<Waiter>): Effect.Effect<void> =>
    take.granted
      ? Effect.void
      : Effect.onInterrupt(Deferred.await(take.waiter), () => at((t) => book.stopWaiting(take, t)))
  /** Waits out a block of the user (a refusal for the rate), then the instant the request is sent. */
  const sendAt = (take: PermitBook.Take<Waiter>): Effect.Effect<number> =>
    Effect.flatMap(now, (t) => {
      const millis = book.blockedFor(take, t)
      return millis > 0 ? Effect.andThen(Effect.sleep(Duration.millis(millis)), Clock.currentTimeMillis) : now
    })
  return {
    limit,
    users: Effect.sync(book.users),
    budget: (user) => at((t) => book.budget(user, t)),
    block: (user, millis) => at((t) => book.block(user, millis, t)),
    take: (user, lane: Lane = "interactive") =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(now, (t) => {
          const take = book.begin(user, lane, Deferred.makeUnsafe<void>(), t)
          // Timed from when the request is about to be sent: after any wait for a refusal's penalty.
          const sent = Effect.onInterrupt(restore(sendAt(take)), () => at((t) => book.abandon(take, t)))
          return Effect.andThen(
            restore(permitOf(take)),
            Effect.map(sent, (takenAt): MemoryPermit => ({ user, take, takenAt }))
          )
        })
      ),
    // Given back by the holds' timers, so that a caller's answer is not delayed by the hold.
    release: (permit, hold) =>
      Effect.flatMap(now, (t) => {
        const { take, takenAt } = permit as MemoryPermit
        const until = book.release(take, takenAt, hold, t)
        return Effect.asVoid(holds.addAt(until, (due) => book.returned(take, until, due)))
      })
  }
}
