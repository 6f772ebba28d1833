/**
 * The per-user gate behind {@link Pacing}: at most `limit` requests in flight or answered within the
 * last `window + margin`.
 *
 * Each request holds one of `limit` permits from before it is sent until `window + margin` after its
 * answer (or failure) came back. The server counted the request when it arrived, which is before the
 * answer left it, so the next request that reuses the permit reaches the server more than a window
 * after the one it replaces, however long the server or the network took. Timing permits from the
 * send instead lets a server that handles a burst one request at a time see a 31st request inside
 * one window.
 */
import { Clock, Duration, Effect } from "effect"
import * as PacingRule from "./pacingRule.js"

/** @internal */
export type Settings = PacingRule.Settings

/** @internal */
export interface Gate {
  /** Runs `send` under a permit; the permit comes back a window plus the margin after `send` ends. */
  readonly withPermit: <A, E, R>(send: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Holds every request back until a whole window plus the margin has passed from `now`. */
  readonly penalize: (now: number) => void
}

/** @internal */
export const unsafeMake = (settings: Settings): Gate => {
  const semaphore = Effect.unsafeMakeSemaphore(settings.limit)
  const rule = PacingRule.make(settings)
  let blockedUntil = 0
  const waitIfBlocked = Effect.clockWith((clock) => {
    const now = clock.unsafeCurrentTimeMillis()
    return blockedUntil > now ? Effect.sleep(Duration.millis(blockedUntil - now)) : Effect.void
  })
  // Given back in a daemon fiber, so that a caller's answer is not delayed by the hold.
  const release = (takenAt: number) =>
    Effect.clockWith((clock) => {
      const now = clock.unsafeCurrentTimeMillis()
      const hold = rule.holdAfter(now - takenAt)
      const until = Math.max(now + hold.afterAnswerMillis, takenAt + hold.afterTakeMillis)
      return Effect.forkDaemon(Effect.zipRight(Effect.sleep(Duration.millis(until - now)), semaphore.release(1)))
    })
  return {
    withPermit: (send) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(
          restore(semaphore.take(1)),
          // Timed from when the request is about to be sent: after any wait for a refusal's penalty.
          Effect.flatMap(
            restore(Effect.zipRight(waitIfBlocked, Clock.currentTimeMillis)).pipe(
              Effect.onInterrupt(() => semaphore.release(1))
            ),
            (takenAt) => restore(send).pipe(Effect.ensuring(release(takenAt)))
          )
        )
      ),
    penalize: (now) => {
      rule.refused()
      blockedUntil = Math.max(blockedUntil, now + settings.windowMillis + settings.marginMillis)
    }
  }
}

/** Reads the clock for {@link Gate.penalize}. @internal */
export const penalizeNow = (gate: Gate): Effect.Effect<void> =>
  Effect.map(Clock.currentTimeMillis, (now) => gate.penalize(now))
