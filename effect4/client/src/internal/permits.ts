/**
 * The permits of the users in this process's memory: a semaphore of `limit` permits per user, a
 * permit given back after its hold by a detached fiber, and a block after a refusal.
 *
 * A user's gate leaves memory once none of its permits is taken, waited for or held and no block of
 * it lasts (`UserTable` of the core): memory follows the users active now.
 */
import * as Budget from "@community-api/core/Budget"
import { heldUntil } from "@community-api/core/PacingRule"
import * as UserTable from "@community-api/core/UserTable"
import { Clock, Duration, Effect, Semaphore } from "effect"
import type * as PermitStore from "../PermitStore.js"

interface Gate {
  readonly semaphore: Semaphore.Semaphore
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
  readonly takenAt: number
}

/** A store of `limit` permits per user. */
export const makeStoreUnsafe = (limit: number): PermitStore.Memory => {
  const gates = UserTable.make<Gate>({
    create: () => ({ semaphore: Semaphore.makeUnsafe(limit), active: 0, held: 0, returns: [], blockedUntil: 0 }),
    isIdle: (gate, now) => gate.active === 0 && gate.blockedUntil <= now
  })
  const now = Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
  /** One take of `user` ended (its permit came back, or it was interrupted while waiting). */
  const ended = (user: string, gate: Gate) =>
    Effect.map(now, (at) => {
      gate.active--
      gates.settle(user, at)
    })
  /** A permit of `gate` is back (or was never used). */
  const back = (gate: Gate, until?: number) =>
    Effect.andThen(
      Effect.sync(() => {
        gate.held--
        if (until !== undefined) gate.returns.splice(gate.returns.indexOf(until), 1)
      }),
      gate.semaphore.release(1)
    )
  const waitIfBlocked = (gate: Gate) =>
    Effect.flatMap(
      now,
      (at) => gate.blockedUntil > at ? Effect.sleep(Duration.millis(gate.blockedUntil - at)) : Effect.void
    )
  return {
    limit,
    users: Effect.sync(() => gates.size()),
    take: (user) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(now, (at) => {
          const gate = gates.get(user, at)
          gate.active++
          return Effect.andThen(
            restore(gate.semaphore.take(1)).pipe(
              Effect.onInterrupt(() => ended(user, gate)),
              Effect.tap(() => Effect.sync(() => void gate.held++))
            ),
            // Timed from when the request is about to be sent: after any wait for a refusal's penalty.
            restore(Effect.andThen(waitIfBlocked(gate), Clock.currentTimeMillis)).pipe(
              Effect.onInterrupt(() => Effect.andThen(back(gate), ended(user, gate))),
              Effect.map((takenAt): MemoryPermit => ({ user, gate, takenAt }))
            )
          )
        })
      ),
    // Given back in a detached fiber, so that a caller's answer is not delayed by the hold.
    release: (permit, hold) =>
      Effect.flatMap(now, (at) => {
        const { gate, takenAt, user } = permit as MemoryPermit
        const until = heldUntil(hold, takenAt, at)
        gate.returns.push(until)
        return Effect.asVoid(
          Effect.forkDetach(
            Effect.sleep(Duration.millis(until - at)).pipe(
              Effect.andThen(back(gate, until)),
              Effect.andThen(ended(user, gate))
            )
          )
        )
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
