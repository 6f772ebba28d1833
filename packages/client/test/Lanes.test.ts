/**
 * Priority lanes in one process: an interactive call takes the next free permit of its user ahead of
 * every queued batch call, a batch-only load still runs at the full rate, and a mark on a call (or a
 * stream) wins over its client's lane. Under `TestClock`; the share kept across processes on Redis is
 * in `RedisLanes.test.ts` (the take script) and `RedisLanesPacing.test.ts` (clients of two processes).
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, Stream, TestClock } from "effect"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Lane from "../src/Lane.js"
import * as Pacing from "../src/Pacing.js"
import * as FakeServer from "./support/FakeServer.js"

/** A request of 100 ms: when it started, on the test clock. */
const request = (starts: Array<number>) =>
  Effect.flatMap(Clock.currentTimeMillis, (at) => Effect.as(Effect.sleep("100 millis"), void starts.push(at)))

/** When the pacing of `pacing` lets a call of `lane` in, forked; the time it started is pushed to `starts`. */
const forkCall = (pacing: Pacing.Service<never>, starts: Array<number>, lane: Lane.Lane) =>
  Effect.fork(Lane.withLane(lane)(pacing.withPermit("account")(request(starts))))

describe("Priority lanes", () => {
  it.effect("L1 an interactive call takes the next free permit ahead of 200 queued batch calls: its wait stays within one window", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make()
      const batchStarts: Array<number> = []
      const batch = yield* Effect.forEach(Array.from({ length: 200 }), () => forkCall(pacing, batchStarts, "batch"))
      yield* TestClock.adjust("1500 millis")
      // 30 a window: the first 60 started, 140 wait; a call without a mark is interactive.
      expect(batchStarts).toHaveLength(60)
      const askedAt = yield* Clock.currentTimeMillis
      const interactiveStarts: Array<number> = []
      const interactive = yield* Effect.fork(pacing.withPermit("account")(request(interactiveStarts)))
      yield* TestClock.adjust("1100 millis")
      expect(interactiveStarts).toHaveLength(1)
      const waited = interactiveStarts[0]! - askedAt
      expect(waited).toBeLessThanOrEqual(pacing.settings.windowMillis + pacing.settings.marginMillis)
      // It went first: no batch call queued before it started before it.
      expect(batchStarts.filter((at) => at > askedAt && at < interactiveStarts[0]!)).toEqual([])
      // Without its lane it would have waited behind 140 calls, more than four windows.
      yield* TestClock.adjust("10 seconds")
      yield* Effect.forEach([interactive, ...batch], Fiber.join, { discard: true })
      expect(batchStarts).toHaveLength(200)
    }))

  it.effect("L1 batch calls alone run at the full rate: 300 in ten windows, 30 in each", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make()
      const starts: Array<number> = []
      const calls = yield* Effect.forEach(Array.from({ length: 300 }), () => forkCall(pacing, starts, "batch"))
      const window = pacing.settings.windowMillis + pacing.settings.marginMillis
      yield* TestClock.adjust(10 * window)
      yield* Effect.forEach(calls, Fiber.join, { discard: true })
      expect(starts).toHaveLength(300)
      for (let i = 0; i < 10; i++) {
        expect(starts.filter((at) => at >= i * window && at < (i + 1) * window), `window ${i}`).toHaveLength(30)
      }
    }))

  it.effect("L1 an interactive waiter that stops waiting leaves its place: the permit goes to the next batch call", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make({ limit: 2 })
      const starts: Array<number> = []
      yield* forkCall(pacing, starts, "batch")
      yield* forkCall(pacing, starts, "batch")
      const queuedBatch = yield* forkCall(pacing, starts, "batch")
      const interactive = yield* forkCall(pacing, starts, "interactive")
      yield* TestClock.adjust("10 millis")
      yield* Fiber.interrupt(interactive)
      // The batch call queued behind it starts when the first permit comes back: a window and the
      // margin after its answer, the hold of a user whose delays are not known yet.
      yield* TestClock.adjust(pacing.settings.windowMillis + pacing.settings.marginMillis + 100)
      expect(starts).toHaveLength(3)
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.join(queuedBatch)
      // Every permit is back once the holds have passed.
      expect((yield* pacing.budget("account")).left).toBe(2)
    }))

  it.effect("L1 a client's lane applies to its calls, and a mark on a call or a stream wins over it", () =>
    Effect.gen(function*() {
      const seen: Array<Lane.Lane> = []
      const pacing = yield* Pacing.make()
      const spy: Pacing.Service<never> = {
        ...pacing,
        withPermit: (user, lane) => (send) =>
          Effect.flatMap(Lane.current(lane), (resolved) => {
            seen.push(resolved)
            return pacing.withPermit(user, lane)(send)
          })
      }
      const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok({ user_id: 7, auth: "token", client_id: "app" })))
      const clients = Layer.mergeAll(fake.http, Layer.succeed(Pacing.Pacing, spy), CreationQuota.layer())
      const jobs = yield* CommunityApiClient.make(FakeServer.config({ lane: "batch" })).pipe(Effect.provide(clients))
      const pages = yield* CommunityApiClient.make(FakeServer.config()).pipe(Effect.provide(clients))
      yield* jobs.users.me()
      yield* Lane.interactive(jobs.users.me())
      yield* pages.users.me()
      yield* Lane.batch(pages.users.me())
      yield* Stream.runDrain(Lane.batch(Stream.fromEffect(pages.users.me())))
      expect(seen).toEqual(["batch", "interactive", "interactive", "batch", "batch"])
    }))
})
