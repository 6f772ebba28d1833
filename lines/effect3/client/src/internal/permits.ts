/**
 * The memory store of the pacing permits (`PermitStore.layerMemory`, the default behind `Pacing`):
 * the core's `PermitBook` decides who gets a permit, when it comes back and what a user has left; this
 * module only carries its decisions out, a waiter as a `Deferred` and a hold on the store's timer (one
 * fiber per clock, `timers.ts`), so that the caller's answer is not delayed by the hold.
 */
import type { Lane } from "@community-api/core/Lane"
import * as PermitBook from "@community-api/core/PermitBook"
import { Clock, Deferred, Duration, Effect, FiberId } from "effect"
import type * as PermitStore from "../PermitStore.js"
import * as Timers from "./timers.js"

type Waiter = Deferred.Deferred<void>

type MemoryPermit = PermitBook.Permit<Waiter>

/** A memory store of `limit` permits per user, synchronously. @internal */
export const unsafeMakeStore = (limit: number): PermitStore.Memory => {
  // The holds of this store's permits, kept by one fiber per clock (`timers.ts`) instead of a daemon
  // fiber forked to sleep out each one: 700 → 640 µs of the client's CPU a call in isolation (B9).
  // In the background: they keep a process alive only while a call waits for a permit.
  const holds = Timers.make({ inBackground: true })
  // Each waiter the book hands a permit to is woken.
  const book = PermitBook.make<Waiter>({
    limit,
    onWaiting: holds.awaited,
    wake: (next) => Deferred.unsafeDone(next, Effect.void)
  })
  const now = Effect.clockWith((clock) => Effect.succeed(clock.unsafeCurrentTimeMillis()))
  /** Waits for the take's permit; interrupted, it takes nothing (one handed over goes on). */
  const permitOf = (take: PermitBook.Take<Waiter>): Effect.Effect<void> =>
    take.granted
      ? Effect.void
      : Effect.onInterrupt(Deferred.await(take.waiter), () => Effect.map(now, (at) => book.stopWaiting(take, at)))
  /** Waits out a block of the user (a refusal for the rate), then the instant the request is sent. */
  const sendAt = (take: PermitBook.Take<Waiter>) =>
    Effect.flatMap(now, (at) => {
      const millis = book.blockedFor(take, at)
      return millis > 0 ? Effect.zipRight(Effect.sleep(Duration.millis(millis)), Clock.currentTimeMillis) : now
    })
  return {
    limit,
    users: Effect.sync(book.users),
    take: (user, lane: Lane = "interactive") =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(now, (at) => {
          const take = book.begin(user, lane, Deferred.unsafeMake<void>(FiberId.none), at)
          return Effect.zipRight(
            restore(permitOf(take)),
            // Timed from when the request is about to be sent: after any wait for a refusal's penalty.
            restore(sendAt(take)).pipe(
              Effect.onInterrupt(() => Effect.map(now, (at) => book.abandon(take, at))),
              Effect.map((takenAt): MemoryPermit => ({ user, take, takenAt }))
            )
          )
        })
      ),
    // Given back by the holds' timer, so that a caller's answer is not delayed by the hold.
    release: (permit, hold) =>
      Effect.flatMap(now, (at) => {
        const { take, takenAt } = permit as MemoryPermit
        const until = book.release(take, takenAt, hold, at)
        return Effect.asVoid(holds.addAt(until, (due) => book.returned(take, until, due)))
      }),
    budget: (user) => Effect.map(now, (at) => book.budget(user, at)),
    block: (user, millis) => Effect.map(now, (at) => book.block(user, millis, at))
  }
}
