/**
 * The pacing strategies compared in B2, each as a `Pacing` service so that the same client carries
 * them: the client's own permits (the rule of `@community-api/core/PacingRule`, learning the band of the
 * delays), today's rule (the same permits, each held a window past its answer, as the client had it
 * before), Effect's `RateLimiter` (token bucket), and naive fixed spacing.
 */
import { Pacing } from "@community-api/client"
import { Clock, Duration, Effect, RateLimiter } from "effect"
import type { Scope } from "effect"

/** A named pacing service. */
export interface Strategy {
  readonly name: string
  readonly label: string
  readonly pacing: Pacing.Service
}

const noSettings = { limit: 30, windowMillis: 1000, marginMillis: 0 }

/**
 * A comparison strategy as a `Pacing` service: what the client calls (a permit around each request, the
 * penalty after error 5, the settings), and no budget to read, which B2 never asks for.
 */
const comparison = (
  pacing: Pick<Pacing.Service, "withPermit" | "penalize" | "settings">,
  users: Effect.Effect<number> = Effect.succeed(0)
): Pacing.Service => ({
  ...pacing,
  users,
  budget: () => Effect.dieMessage("B2's comparison strategies keep no budget")
})

/** The client's default pacing: 30 permits, each back a window, the margin and the band's spread after its take. */
export const client = (): Effect.Effect<Strategy> =>
  Effect.map(Pacing.make(), (pacing) => ({ name: "client", label: "client: the rule at real latency", pacing }))

/**
 * Today's rule, as the client paced before the rule at real latency: the same 30 permits per user and
 * the same penalty after error 5, each permit held until a window plus the margin after its answer
 * came back, whatever the delays. Built here from the client's settings (the client keeps only the
 * new rule).
 */
export const todaysRule = (): Effect.Effect<Strategy> =>
  Effect.sync(() => {
    const limit = Pacing.defaults.limit
    const hold = Duration.toMillis(Pacing.defaults.window) + Duration.toMillis(Pacing.defaults.margin)
    const gates = new Map<string, { readonly semaphore: Effect.Semaphore; blockedUntil: number }>()
    const gateOf = (user: string) => {
      let gate = gates.get(user)
      if (gate === undefined) {
        gate = { semaphore: Effect.unsafeMakeSemaphore(limit), blockedUntil: 0 }
        gates.set(user, gate)
      }
      return gate
    }
    const withPermit = (user: string) => <A, E, R>(send: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.suspend(() => {
        const gate = gateOf(user)
        const waitIfBlocked = Effect.clockWith((clock) => {
          const now = clock.unsafeCurrentTimeMillis()
          return gate.blockedUntil > now ? Effect.sleep(Duration.millis(gate.blockedUntil - now)) : Effect.void
        })
        const release = Effect.forkDaemon(
          Effect.zipRight(Effect.sleep(Duration.millis(hold)), gate.semaphore.release(1))
        )
        return Effect.uninterruptibleMask((restore) =>
          Effect.zipRight(
            restore(gate.semaphore.take(1)),
            Effect.zipRight(
              restore(waitIfBlocked).pipe(Effect.onInterrupt(() => gate.semaphore.release(1))),
              restore(send).pipe(Effect.ensuring(release))
            )
          )
        )
      })
    return {
      name: "todaysRule",
      label: "today's rule: permits held a window past the answer",
      pacing: comparison({
        withPermit,
        penalize: (user) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const gate = gateOf(user)
            gate.blockedUntil = Math.max(gate.blockedUntil, now + hold)
          }),
        settings: {
          limit,
          windowMillis: Duration.toMillis(Pacing.defaults.window),
          marginMillis: Duration.toMillis(Pacing.defaults.margin)
        }
      }, Effect.sync(() => gates.size))
    }
  })

/** Effect's `RateLimiter`, token bucket of 30 per second; nothing happens on error 5. */
export const tokenBucket = (): Effect.Effect<Strategy, never, Scope.Scope> =>
  Effect.map(RateLimiter.make({ limit: 30, interval: "1 second", algorithm: "token-bucket" }), (limiter) => ({
    name: "tokenBucket",
    label: "Effect RateLimiter (token bucket)",
    pacing: comparison({ withPermit: () => limiter, penalize: () => Effect.void, settings: noSettings })
  }))

/** One send every 1000/30 ms, whoever asks; nothing happens on error 5. */
export const fixedSpacing = (): Effect.Effect<Strategy> =>
  Effect.sync(() => {
    const spacing = 1000 / 30
    let next = 0
    return {
      name: "fixedSpacing",
      label: "naive fixed spacing (33.3 ms)",
      pacing: comparison({
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
      })
    }
  })
