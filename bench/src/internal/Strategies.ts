/**
 * The pacing strategies compared in B2, each as a `Pacing` service so that the same client carries
 * them: the client's own permits, Effect's `RateLimiter` (token bucket), and naive fixed spacing.
 */
import { Pacing } from "@community-api/client"
import { Duration, Effect, RateLimiter } from "effect"
import type { Scope } from "effect"

/** A named pacing service. */
export interface Strategy {
  readonly name: string
  readonly label: string
  readonly pacing: Pacing.Service
}

const noSettings = { limit: 30, windowMillis: 1000, marginMillis: 0 }

/** The client's default pacing (30 permits, each back 1000 ms + 20 ms after its answer). */
export const client = (): Effect.Effect<Strategy> =>
  Effect.map(Pacing.make(), (pacing) => ({ name: "client", label: "client (permits held past the answer)", pacing }))

/** Effect's `RateLimiter`, token bucket of 30 per second; nothing happens on error 5. */
export const tokenBucket = (): Effect.Effect<Strategy, never, Scope.Scope> =>
  Effect.map(RateLimiter.make({ limit: 30, interval: "1 second", algorithm: "token-bucket" }), (limiter) => ({
    name: "tokenBucket",
    label: "Effect RateLimiter (token bucket)",
    pacing: { withPermit: () => limiter, penalize: () => Effect.void, settings: noSettings }
  }))

/** One send every 1000/30 ms, whoever asks; nothing happens on error 5. */
export const fixedSpacing = (): Effect.Effect<Strategy> =>
  Effect.sync(() => {
    const spacing = 1000 / 30
    let next = 0
    return {
      name: "fixedSpacing",
      label: "naive fixed spacing (33.3 ms)",
      pacing: {
        withPermit: () => (send) =>
          Effect.zipRight(
            Effect.clockWith((clock) => {
              const now = clock.unsafeCurrentTimeMillis()
              const at = Math.max(now, next)
              next = at + spacing
              return at > now ? Effect.sleep(Duration.millis(at - now)) : Effect.void
            }),
            send
          ),
        penalize: () => Effect.void,
        settings: noSettings
      }
    }
  })
