/**
 * The memory store of the pacing permits (`PermitStore.layerMemory`, the default behind `Pacing`):
 * per user `limit` permits in this process and the calls waiting for one, by lane (`PermitQueue` of
 * the core): a permit that comes back goes straight to the first interactive waiter, else to the
 * first batch waiter. A permit is taken before its request is sent and given back once its hold has
 * passed, by the store's timers (one fiber per clock, `timers.ts`), so that the caller's answer is not
 * delayed by the hold.
 *
 * A user's gate leaves memory once none of its permits is taken, waited for or held and no block of
 * it lasts (`UserTable` of the core): memory follows the users active now.
 */
import * as Budget from "@community-api/core/Budget"
import type { Lane } from "@community-api/core/Lane"
import { heldUntil } from "@community-api/core/PacingRule"
import * as PermitQueue from "@community-api/core/PermitQueue"
import * as UserTable from "@community-api/core/UserTable"
import { Clock, Deferred, Duration, Effect } from "effect"
import type * as PermitStore from "../PermitStore.js"
import * as Timers from "./timers.js"

/** The permits of one user. */
interface Gate {
  readonly queue: PermitQueue.PermitQueue<Deferred.Deferred<void>>
  /** Takes begun (waiting or holding a permit) whose permit has not come back yet. */
  active: number
  /** Permits taken whose permit has not come back yet. */
  held: number
  /** When the permits given back and held come back, in the order given back. */
  readonly returns: Array<number>
  blockedUntil: number
}

interface MemoryPermit extends PermitStore.Permit {
  readonly gate: Gate
  /** When it was taken, on this process's clock. */
  readonly takenAt: number
}

/** A store of `limit` permits per user. */
export const makeStoreUnsafe = (limit: number): PermitStore.Memory => {
  const gates = UserTable.make<Gate>({
    create: () => ({ queue: PermitQueue.make(limit), active: 0, held: 0, returns: [], blockedUntil: 0 }),
    isIdle: (gate, now) => gate.active === 0 && gate.blockedUntil <= now
  })
  const now = Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
  // The holds of this store's permits, kept by one fiber per clock (`timers.ts`) instead of a detached
  // fiber forked to sleep out each one; in the background: they keep a process alive only while a call
  // waits for a permit.
  const holds = Timers.make({ inBackground: true })
  /** One take of `user` ended (its permit came back, or it was interrupted while waiting). */
  const endedUnsafe = (user: string, gate: Gate, at: number) => {
    gate.active--
    gates.settle(user, at)
  }
  const ended = (user: string, gate: Gate) => Effect.map(now, (at) => endedUnsafe(user, gate, at))
  /** A permit of `gate` is back (or was never used): to the next waiter, or free. */
  const backUnsafe = (gate: Gate, until?: number) => {
    gate.held--
    if (until !== undefined) gate.returns.splice(gate.returns.indexOf(until), 1)
    const next = gate.queue.give()
    if (next !== undefined) {
      holds.awaited(-1)
      gate.held++
      Deferred.doneUnsafe(next, Effect.void)
    }
  }
  const back = (gate: Gate) => Effect.sync(() => backUnsafe(gate))
  /** Waits for a permit of `gate` in `lane`; interrupted, it takes nothing (one handed over goes on). */
  const permitOf = (gate: Gate, lane: Lane): Effect.Effect<void> =>
    Effect.suspend(() => {
      const waiter = Deferred.makeUnsafe<void>()
      if (gate.queue.take(lane, waiter)) {
        gate.held++
        return Effect.void
      }
      holds.awaited(1)
      return Effect.onInterrupt(
        Deferred.await(waiter),
        () => {
          if (!gate.queue.remove(lane, waiter)) return back(gate)
          holds.awaited(-1)
          return Effect.void
        }
      )
    })
  const waitIfBlocked = (gate: Gate) =>
    Effect.flatMap(
      now,
      (at) => gate.blockedUntil > at ? Effect.sleep(Duration.millis(gate.blockedUntil - at)) : Effect.void
    )
  return {
    limit,
    users: Effect.sync(() => gates.size()),
    take: (user, lane = "interactive") =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(now, (at) => {
          const gate = gates.get(user, at)
          gate.active++
          return Effect.andThen(
            restore(permitOf(gate, lane)).pipe(Effect.onInterrupt(() => ended(user, gate))),
            // Timed from when the request is about to be sent: after any wait for a refusal's penalty.
            restore(Effect.andThen(waitIfBlocked(gate), Clock.currentTimeMillis)).pipe(
              Effect.onInterrupt(() => Effect.andThen(back(gate), ended(user, gate))),
              Effect.map((takenAt): MemoryPermit => ({ user, gate, takenAt }))
            )
          )
        })
      ),
    // Given back by the holds' timers, so that a caller's answer is not delayed by the hold.
    release: (permit, hold) =>
      Effect.flatMap(now, (at) => {
        const { gate, takenAt, user } = permit as MemoryPermit
        const until = heldUntil(hold, takenAt, at)
        gate.returns.push(until)
        return Effect.asVoid(holds.addAt(until, (due) => {
          backUnsafe(gate, until)
          endedUnsafe(user, gate, due)
        }))
      }),
    budget: (user) =>
      Effect.map(now, (at) => {
        const gate = gates.peek(user)
        return Budget.requests({
          limit,
          held: gate?.held ?? 0,
          nextBackAt: gate === undefined || gate.returns.length === 0 ? undefined : Math.min(...gate.returns),
          blockedUntil: gate?.blockedUntil ?? 0,
          now: at
        })
      }),
    block: (user, millis) =>
      Effect.map(now, (at) => {
        const gate = gates.get(user, at)
        gate.blockedUntil = Math.max(gate.blockedUntil, at + millis)
      })
  }
}
