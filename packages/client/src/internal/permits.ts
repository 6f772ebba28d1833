/**
 * The memory store of the pacing permits (`PermitStore.layerMemory`, the default behind `Pacing`):
 * per user a semaphore of `limit` permits in this process. A permit is taken before its request is
 * sent and given back once its hold has passed, by a daemon fiber, so that the caller's answer is not
 * delayed by the hold. Waiters queue fairly on the semaphore.
 */
import { heldUntil } from "@community-api/core/PacingRule"
import { Clock, Duration, Effect } from "effect"
import type * as PermitStore from "../PermitStore.js"

/** The permits of one user. */
interface Gate {
  readonly semaphore: Effect.Semaphore
  blockedUntil: number
}

interface MemoryPermit extends PermitStore.Permit {
  readonly gate: Gate
  /** When it was taken, on this process's clock. */
  readonly takenAt: number
}

/** A memory store of `limit` permits per user, synchronously. @internal */
export const unsafeMakeStore = (limit: number): PermitStore.Service<never> => {
  const gates = new Map<string, Gate>()
  const gateOf = (user: string): Gate => {
    let gate = gates.get(user)
    if (gate === undefined) {
      gate = { semaphore: Effect.unsafeMakeSemaphore(limit), blockedUntil: 0 }
      gates.set(user, gate)
    }
    return gate
  }
  const waitIfBlocked = (gate: Gate) =>
    Effect.clockWith((clock) => {
      const now = clock.unsafeCurrentTimeMillis()
      return gate.blockedUntil > now ? Effect.sleep(Duration.millis(gate.blockedUntil - now)) : Effect.void
    })
  return {
    limit,
    take: (user) =>
      Effect.suspend(() => {
        const gate = gateOf(user)
        return Effect.uninterruptibleMask((restore) =>
          Effect.zipRight(
            restore(gate.semaphore.take(1)),
            // Timed from when the request is about to be sent: after any wait for a refusal's penalty.
            restore(Effect.zipRight(waitIfBlocked(gate), Clock.currentTimeMillis)).pipe(
              Effect.onInterrupt(() => gate.semaphore.release(1)),
              Effect.map((takenAt): MemoryPermit => ({ user, gate, takenAt }))
            )
          )
        )
      }),
    // Given back in a daemon fiber, so that a caller's answer is not delayed by the hold.
    release: (permit, hold) =>
      Effect.clockWith((clock) => {
        const { gate, takenAt } = permit as MemoryPermit
        const now = clock.unsafeCurrentTimeMillis()
        const until = heldUntil(hold, takenAt, now)
        return Effect.asVoid(
          Effect.forkDaemon(Effect.zipRight(Effect.sleep(Duration.millis(until - now)), gate.semaphore.release(1)))
        )
      }),
    block: (user, millis) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const gate = gateOf(user)
          gate.blockedUntil = Math.max(gate.blockedUntil, clock.unsafeCurrentTimeMillis() + millis)
        })
      )
  }
}
