import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
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

/**
 * A strict server behind a slow network: each request waits 0–300 ms (seeded) before the server counts
 * it, and as long again before its answer is back.
 */
const slowStrictServer = (seed: number) => {
  let state = seed
  const delay = () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return Duration.millis(state % 301)
  }
  const arrivals: Array<number> = []
  let rejected = 0
  // The fake server answers in the calling fiber, so its waits are on the test's clock.
  const fake = FakeServer.make(() =>
    Effect.gen(function*() {
      yield* Effect.sleep(delay())
      const now = yield* Clock.currentTimeMillis
      arrivals.push(now)
      const inWindow = arrivals.filter((at) => at > now - 1000).length
      if (inWindow > 30) rejected++
      yield* Effect.sleep(delay())
      return inWindow > 30 ? FakeServer.error(5) : FakeServer.ok(me)
    })
  )
  return { arrivals, rejected: () => rejected, http: fake.http }
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
          Effect.forkChild(
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
      const fiber = yield* Effect.forkChild(
        Effect.all(Array.from({ length: 90 }, (_, i) => (i % 2 === 0 ? a : b).users.me()), { concurrency: "unbounded" })
      )
      yield* TestClock.adjust(Duration.seconds(10))
      yield* Fiber.join(fiber)
      expect(server.received.filter((r) => r.at < 1020)).toHaveLength(30)
      expect(server.received.filter((r) => r.at < 2040)).toHaveLength(60)
    }).pipe(Effect.provide(Layer.mergeAll(server.http, Pacing.layer(), CreationQuota.layer())))
  })

  it.effect("L1 different users are paced apart", () => {
    const server = strictServer()
    return Effect.gen(function*() {
      const a = yield* CommunityApiClient.make({ ...FakeServer.config(), token: Redacted.make("thp_a") })
      const b = yield* CommunityApiClient.make({ ...FakeServer.config(), token: Redacted.make("thp_b") })
      const fiber = yield* Effect.forkChild(
        Effect.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).users.me()), { concurrency: "unbounded" })
      )
      yield* TestClock.adjust(Duration.millis(1))
      yield* Fiber.join(fiber)
      // 30 each, all at once.
      expect(server.received.filter((r) => r.at === 0)).toHaveLength(60)
      expect(server.rejected()).toBe(0)
    }).pipe(Effect.provide(Layer.mergeAll(server.http, Pacing.layer(), CreationQuota.layer())))
  })

  it.effect(
    "L1 a server that counts arrivals strictly sees at most 30 in any window, however slow it and the network are",
    () => {
      const server = slowStrictServer(20261121)
      return Effect.gen(function*() {
        const client = yield* CommunityApiClient.make(FakeServer.config())
        const fiber = yield* Effect.forkChild(
          Effect.forEach(
            Array.from({ length: 16 }),
            () => Effect.forEach(Array.from({ length: 15 }), () => client.users.me()),
            { concurrency: "unbounded" }
          )
        )
        yield* TestClock.adjust(Duration.minutes(1))
        yield* Fiber.join(fiber)
        expect(server.arrivals).toHaveLength(240)
        expect(server.rejected()).toBe(0)
        const sorted = [...server.arrivals].sort((a, b) => a - b)
        sorted.forEach((at, i) => {
          if (i >= 30) expect(at - sorted[i - 30]!).toBeGreaterThan(1000)
        })
      }).pipe(Effect.provide(Layer.mergeAll(server.http, Pacing.layer(), CreationQuota.layer())))
    }
  )

  it.effect("L1 a permit comes back a window plus the margin after the answer, not after the send", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make({ limit: 1 })
      yield* Effect.forkChild(pacing.withPermit("u")(Effect.sleep(Duration.millis(500))))
      yield* TestClock.adjust(Duration.millis(1))
      const fiber = yield* Effect.forkChild(pacing.withPermit("u")(Clock.currentTimeMillis))
      yield* TestClock.adjust(Duration.seconds(3))
      expect(yield* Fiber.join(fiber)).toBe(500 + 1000 + 20)
    }))

  it.effect("L1 after a penalty the next request waits a whole window", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make()
      yield* pacing.withPermit("u")(Effect.void)
      yield* pacing.penalize("u")
      const fiber = yield* Effect.forkChild(pacing.withPermit("u")(Clock.currentTimeMillis))
      yield* TestClock.adjust(Duration.seconds(2))
      expect(yield* Fiber.join(fiber)).toBe(1020)
    }))

  it.effect("L1 an interrupted wait takes no permit; an interrupted send keeps its permit for the whole hold", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make({ limit: 2 })
      const slow = yield* Effect.forkChild(pacing.withPermit("u")(Effect.sleep(Duration.seconds(5))))
      yield* Effect.forkChild(pacing.withPermit("u")(Effect.sleep(Duration.seconds(5))))
      yield* TestClock.adjust(Duration.millis(1))
      const waiting = yield* Effect.forkChild(pacing.withPermit("u")(Clock.currentTimeMillis))
      yield* TestClock.adjust(Duration.millis(1))
      yield* Fiber.interrupt(waiting)
      // Interrupted in flight at 2 ms: its permit comes back at 2 + 1020.
      yield* Fiber.interrupt(slow)
      const first = yield* Effect.forkChild(pacing.withPermit("u")(Clock.currentTimeMillis))
      const second = yield* Effect.forkChild(pacing.withPermit("u")(Clock.currentTimeMillis))
      yield* TestClock.adjust(Duration.seconds(10))
      expect(yield* Fiber.join(first)).toBe(1022)
      // A permit leaked by the interrupted wait would hold this one until the other send ends (6020).
      expect(yield* Fiber.join(second)).toBe(1022 + 1020)
    }))

  it.effect("L1 permits freed together come back together, and the gate keeps working after it idles", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make({ limit: 3 })
      const burst = () =>
        Effect.all(Array.from({ length: 6 }, () => pacing.withPermit("u")(Clock.currentTimeMillis)), {
          concurrency: "unbounded"
        })
      const fiber = yield* Effect.forkChild(burst())
      yield* TestClock.adjust(Duration.seconds(5))
      expect(yield* Fiber.join(fiber)).toEqual([0, 0, 0, 1020, 1020, 1020])
      const again = yield* Effect.forkChild(burst())
      yield* TestClock.adjust(Duration.seconds(5))
      expect(yield* Fiber.join(again)).toEqual([5000, 5000, 5000, 6020, 6020, 6020])
    }))
})
