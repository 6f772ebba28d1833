import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, FastCheck, Fiber, Layer, Redacted, TestClock } from "effect"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as SlidingLog from "../src/internal/slidingLog.js"
import * as Pacing from "../src/Pacing.js"
import * as FakeServer from "./support/FakeServer.js"

const me = { user_id: 7, auth: "token", client_id: "app" }

/** A strict server: error 5 when more than 30 requests of one token arrived in the last 1000 ms (both ends counted). */
const strictServer = () => {
  const arrivals: Array<{ readonly at: number; readonly who: string | undefined }> = []
  let rejected = 0
  const fake = FakeServer.make((request) => {
    arrivals.push({ at: request.at, who: request.authorization })
    const inWindow = arrivals.filter((a) => a.who === request.authorization && a.at >= request.at - 1000).length
    if (inWindow > 30) rejected++
    return Effect.succeed(inWindow > 30 ? FakeServer.error(5) : FakeServer.ok(me))
  })
  return { ...fake, rejected: () => rejected }
}

describe("Pacing", () => {
  it.effect(
    "L1 300 requests from 6 fibers and two clients of one user: zero error 5, within the minimum time plus a window",
    () => {
      const server = strictServer()
      const two = Effect.all([
        CommunityApiClient.make(FakeServer.config()),
        CommunityApiClient.make(FakeServer.config())
      ])
      return Effect.gen(function*() {
        const clients = yield* two
        const fibers = yield* Effect.forEach([0, 1, 2, 3, 4, 5], (f) =>
          Effect.fork(
            Effect.forEach(
              Array.from({ length: 50 }, (_, i) => i),
              () => clients[f % 2]!.users.me(),
              { concurrency: "unbounded" }
            )
          ))
        yield* TestClock.adjust(Duration.seconds(30))
        yield* Effect.forEach(fibers, Fiber.join)
        const times = server.received.map((r) => r.at)
        expect(times).toHaveLength(300)
        expect(server.rejected()).toBe(0)
        // 300 requests at 30 per window: the last ones go out 9 windows after the first, at least.
        expect(Math.max(...times)).toBeGreaterThanOrEqual(9000)
        expect(Math.max(...times)).toBeLessThanOrEqual(9000 + 1000)
      }).pipe(Effect.provide(Layer.mergeAll(server.http, Pacing.layer(), CreationQuota.layer())))
    }
  )

  it.effect("L1 clients with different tokens but one userKey share one limiter", () => {
    const server = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    const config = (secret: string) => ({ ...FakeServer.config(), token: Redacted.make(secret), userKey: "user-1" })
    return Effect.gen(function*() {
      const a = yield* CommunityApiClient.make(config("thp_first"))
      const b = yield* CommunityApiClient.make(config("thp_second"))
      const fiber = yield* Effect.fork(
        Effect.all(Array.from({ length: 90 }, (_, i) => (i % 2 === 0 ? a : b).users.me()), { concurrency: "unbounded" })
      )
      yield* TestClock.adjust(Duration.seconds(10))
      yield* Fiber.join(fiber)
      expect(server.received.filter((r) => r.at < 1050)).toHaveLength(30)
      expect(server.received.filter((r) => r.at < 2100)).toHaveLength(60)
    }).pipe(Effect.provide(Layer.mergeAll(server.http, Pacing.layer(), CreationQuota.layer())))
  })

  it.effect("L1 different users are paced apart", () => {
    const server = strictServer()
    return Effect.gen(function*() {
      const a = yield* CommunityApiClient.make({ ...FakeServer.config(), token: Redacted.make("thp_a") })
      const b = yield* CommunityApiClient.make({ ...FakeServer.config(), token: Redacted.make("thp_b") })
      const fiber = yield* Effect.fork(
        Effect.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).users.me()), { concurrency: "unbounded" })
      )
      yield* TestClock.adjust(Duration.millis(1))
      yield* Fiber.join(fiber)
      // 30 each, all at once.
      expect(server.received.filter((r) => r.at === 0)).toHaveLength(60)
      expect(server.rejected()).toBe(0)
    }).pipe(Effect.provide(Layer.mergeAll(server.http, Pacing.layer(), CreationQuota.layer())))
  })

  it.effect("L1 no more than the limit goes out in any window plus margin, for any arrival pattern", () =>
    Effect.sync(() =>
      FastCheck.assert(
        FastCheck.property(
          FastCheck.array(FastCheck.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 200 }),
          FastCheck.integer({ min: 1, max: 40 }),
          (gaps, limit) => {
            const settings = { limit, windowMillis: 1000, marginMillis: 50 }
            const log = SlidingLog.make(settings)
            let now = 0
            const sent = gaps.map((gap) => {
              now += gap
              const at = log.reserve(now)
              expect(at).toBeGreaterThanOrEqual(now)
              return at
            })
            // Sorted, and any limit + 1 consecutive sends span more than a window.
            sent.forEach((t, i) => {
              if (i > 0) expect(t).toBeGreaterThanOrEqual(sent[i - 1]!)
              if (i >= limit) expect(t - sent[i - limit]!).toBeGreaterThanOrEqual(1050)
            })
          }
        )
      )
    ))

  it.effect("L1 after a penalty the next request waits a whole window", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make()
      yield* pacing.acquire("u")
      yield* pacing.penalize("u")
      const fiber = yield* Effect.fork(Effect.zipRight(pacing.acquire("u"), Clock.currentTimeMillis))
      yield* TestClock.adjust(Duration.seconds(2))
      expect(yield* Fiber.join(fiber)).toBe(1050)
    }))
})
