/**
 * The permits of the users in this process's memory: a semaphore of `limit` permits per user, a
 * permit given back after its hold by a detached fiber, and a block after a refusal.
 */
import { heldUntil } from "@community-api/core/PacingRule"
import { Clock, Duration, Effect, Semaphore } from "effect"
import type * as PermitStore from "../PermitStore.js"

interface Gate {
  readonly semaphore: Semaphore.Semaphore
  blockedUntil: number
}

interface MemoryPermit extends PermitStore.Permit {
  readonly gate: Gate
  readonly takenAt: number
}

/** A store of `limit` permits per user. */
export const makeStoreUnsafe = (limit: number): PermitStore.Service<never> => {
  const gates = new Map<string, Gate>()
  const gateOf = (user: string): Gate => {
    let gate = gates.get(user)
    if (gate === undefined) {
      gate = { semaphore: Semaphore.makeUnsafe(limit), blockedUntil: 0 }
      gates.set(user, gate)
    }
    return gate
  }
  const waitIfBlocked = (gate: Gate) =>
    Effect.clockWith((clock) => {
      const now = clock.currentTimeMillisUnsafe()
      return gate.blockedUntil > now ? Effect.sleep(Duration.millis(gate.blockedUntil - now)) : Effect.void
    })
  return {
    limit,
    take: (user) =>
      Effect.suspend(() => {
        const gate = gateOf(user)
        return Effect.uninterruptibleMask((restore) =>
          Effect.andThen(
            restore(gate.semaphore.take(1)),
            // Timed from when the request is about to be sent: after any wait for a refusal's penalty.
            restore(Effect.andThen(waitIfBlocked(gate), Clock.currentTimeMillis)).pipe(
              Effect.onInterrupt(() => gate.semaphore.release(1)),
              Effect.map((takenAt): MemoryPermit => ({ user, gate, takenAt }))
            )
          )
        )
      }),
    // Given back in a detached fiber, so that a caller's answer is not delayed by the hold.
    release: (permit, hold) =>
      Effect.clockWith((clock) => {
        const { gate, takenAt } = permit as MemoryPermit
        const now = clock.currentTimeMillisUnsafe()
        const until = heldUntil(hold, takenAt, now)
        return Effect.asVoid(
          Effect.forkDetach(Effect.andThen(Effect.sleep(Duration.millis(until - now)), gate.semaphore.release(1)))
        )
      }),
    block: (user, millis) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const gate = gateOf(user)
          gate.blockedUntil = Math.max(gate.blockedUntil, clock.currentTimeMillisUnsafe() + millis)
        })
      )
  }
}
