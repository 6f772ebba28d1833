/**
 * Pacing at real latency: the rule that holds a permit (`@community-api/core/PacingRule`) learns the band of
 * the delays and holds a permit a window past its take plus the band's spread, instead of a window past
 * its answer; outside what it has seen it falls back to the safe rule. Driven on the `TestClock` against
 * the reference server in process, whose latency comes before it counts a request (so the whole delay
 * is on the way there, the worst case for pacing), with the server's own answers as the ground truth.
 */
import * as PacingRule from "@community-api/core/PacingRule"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Reference from "./support/Reference.js"

const settings = { limit: 30, windowMillis: 1000, marginMillis: 20 }
const safeHold = settings.windowMillis + settings.marginMillis
const fibers = 16

/** One answer of the server: when it left (the instant it was counted: nothing is slower after) and its code. */
interface Answered {
  readonly at: number
  readonly code: number | "ok"
}

/**
 * The reference server in process, every answer recorded with the `TestClock`'s time: the server tells
 * each answer the moment it is made (`onRequest`), on the clock it runs on, the test's.
 */
const recordingServer = (options: ReferenceServer.Options) => {
  const answers: Array<Answered> = []
  const server = Layer.unwrap(Effect.clockWith((clock) =>
    Effect.succeed(ReferenceServer.layerTest({
      ...options,
      onRequest: (entry) => {
        // A dropped connection has no code: as the Effect 3 line's, it counts as neither ok nor 5.
        answers.push({ at: clock.currentTimeMillisUnsafe(), code: entry.outcome === "dropped" ? -1 : entry.outcome })
      }
    }))
  ))
  const layer = Layer.mergeAll(server, Pacing.layer(), CreationQuota.layer())
  return { answers, layer }
}

/** `fibers` fibers of one user calling `users/me` until `untilMillis` on the clock, every call ending ok. */
const load = (untilMillis: number) =>
  Effect.gen(function*() {
    const client = yield* CommunityApiClient.make(Reference.config())
    const loop = Effect.gen(function*() {
      while ((yield* Clock.currentTimeMillis) < untilMillis) yield* client.users.me()
    })
    return yield* Effect.forkChild(
      Effect.all(Array.from({ length: fibers }, () => loop), { concurrency: "unbounded" })
    )
  })

/** The ok answers as the server's window sees them: no 31 inside any 1000 ms. */
const expectWithinTheWindow = (answers: ReadonlyArray<Answered>) => {
  const ok = answers.filter((a) => a.code === "ok").map((a) => a.at).sort((a, b) => a - b)
  ok.forEach((at, i) => {
    if (i >= settings.limit) expect(at - ok[i - settings.limit]!).toBeGreaterThanOrEqual(settings.windowMillis)
  })
  return ok
}

/**
 * Moves the `TestClock` by `duration` a millisecond at a time, letting the event loop turn after each.
 * A request crosses into the server in process and its answer back through promises, outside the
 * fibers that `TestClock.adjust` waits for after each wake-up: one adjust over seconds could run past the
 * instant a request reaches the server, start its latency late, and so show the pacing a spread of
 * delays that the network does not have.
 */
const advance = (duration: Duration.Input) =>
  Effect.gen(function*() {
    const millis = Duration.toMillis(Duration.fromInputUnsafe(duration))
    for (let i = 0; i < millis; i++) {
      yield* TestClock.adjust(Duration.millis(1))
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
    }
  })

const errors5 = (answers: ReadonlyArray<Answered>) => answers.filter((a) => a.code === 5)

/**
 * The bound on a hang of a simulated load: seconds of `TestClock` time are hundreds of requests through
 * the server in process and thousands of turns of the event loop (see {@link advance}), which take wall
 * time in proportion, several times more on a busy two-core machine. No assertion depends on it.
 */
const simulation = 180_000

/**
 * One user's requests one after another through a pacing service of `options`, each answered 100 ms
 * after it is sent: the gaps between the sends, a few more than the rule needs to trust its band.
 */
const steadyGaps = (options: Pacing.Settings) =>
  Effect.gen(function*() {
    const pacing = yield* Pacing.make(options)
    const sends: Array<number> = []
    const send = Effect.andThen(
      Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => sends.push(now))),
      Effect.sleep(Duration.millis(100))
    )
    const fiber = yield* Effect.forkChild(
      Effect.forEach(
        Array.from({ length: PacingRule.observationsBeforeTrust + 3 }),
        () => pacing.withPermit("u")(send)
      )
    )
    yield* TestClock.adjust(Duration.minutes(1))
    yield* Fiber.join(fiber)
    return sends.slice(1).map((at, i) => at - sends[i]!)
  })

describe("Pacing at real latency", () => {
  describe("the rule", () => {
    it("L1 holds a window plus the margin after the answer until it has seen enough answers", () => {
      const rule = PacingRule.make(settings)
      for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) {
        expect(rule.holdAfter(100 + (i % 3))).toEqual({ afterAnswerMillis: safeHold, afterTakeMillis: 0 })
      }
    })

    it("L1 inside the band a permit is held a window, the margin and the spread past its take", () => {
      const rule = PacingRule.make(settings)
      // Held times 100 to 110 ms: a spread of 10.
      for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100 + (i % 11))
      for (const held of [100, 104, 110]) {
        const hold = rule.holdAfter(held)
        expect(hold.afterTakeMillis).toBe(0)
        // From the take: the held time, then the hold after the answer.
        expect(held + hold.afterAnswerMillis).toBe(safeHold + 10)
      }
      // A held time shorter than the spread is held by the safe rule (the delay there is at most the held time).
      const narrow = PacingRule.make(settings)
      for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) narrow.holdAfter(5 + (i % 2) * 40)
      expect(narrow.holdAfter(20).afterAnswerMillis).toBe(safeHold)
      expect(narrow.holdAfter(45).afterAnswerMillis).toBe(safeHold - 5)
    })

    it("L1 outside the band the safe rule holds, and the answer widens the band", () => {
      const rule = PacingRule.make(settings)
      for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100 + (i % 11))
      expect(rule.holdAfter(150).afterAnswerMillis).toBe(safeHold)
      expect(rule.holdAfter(60).afterAnswerMillis).toBe(safeHold)
      // The band is now 60..150: a spread of 90.
      expect(rule.holdAfter(140).afterAnswerMillis).toBe(safeHold - 50)
    })

    it("L1 after a refusal nothing learnt is trusted until the band is learnt again", () => {
      const rule = PacingRule.make(settings)
      for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100)
      expect(rule.holdAfter(100).afterAnswerMillis).toBe(safeHold - 100)
      rule.refused()
      for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) {
        expect(rule.holdAfter(100).afterAnswerMillis).toBe(safeHold)
      }
      expect(rule.holdAfter(100).afterAnswerMillis).toBe(safeHold - 100)
    })

    it("L1 a slow answer widens the band only while it is among the last answers", () => {
      const rule = PacingRule.make(settings)
      for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100)
      expect(rule.holdAfter(400).afterAnswerMillis).toBe(safeHold)
      // 100..400: a spread of 300, more than the held time: the safe rule.
      expect(rule.holdAfter(100).afterAnswerMillis).toBe(safeHold)
      for (let i = 0; i < PacingRule.bandSize - 2; i++) rule.holdAfter(100)
      // The slow one is the oldest of the band: still in it.
      expect(rule.holdAfter(100).afterAnswerMillis).toBe(safeHold)
      expect(rule.holdAfter(100).afterAnswerMillis).toBe(safeHold - 100)
    })

    it("L1 the hold is never before the answer, however slow a steady service is", () => {
      const rule = PacingRule.make(settings)
      for (let i = 0; i <= PacingRule.observationsBeforeTrust; i++) rule.holdAfter(3000)
      expect(rule.holdAfter(3000)).toEqual({ afterAnswerMillis: 0, afterTakeMillis: 0 })
    })

    it("L1 today's rule holds every permit a window plus the margin after its answer", () => {
      const rule = PacingRule.safe(settings)
      for (let i = 0; i < 100; i++) expect(rule.holdAfter(100).afterAnswerMillis).toBe(safeHold)
    })
  })

  it.effect("L1 with a steady delay a permit comes back a window plus the margin after its take", () =>
    Effect.gen(function*() {
      const gaps = yield* steadyGaps({ limit: 1 })
      // Learning: the answer (100 ms) plus the safe hold; then the take plus the window and the margin.
      expect(gaps.slice(0, PacingRule.observationsBeforeTrust)).toEqual(
        Array.from({ length: PacingRule.observationsBeforeTrust }, () => 100 + safeHold)
      )
      expect(gaps.slice(PacingRule.observationsBeforeTrust)).toEqual([safeHold, safeHold])
    }))

  it.effect("L1 with hold \"safe\" a permit always comes back a window plus the margin after its answer", () =>
    Effect.gen(function*() {
      const gaps = yield* steadyGaps({ limit: 1, hold: "safe" })
      expect(gaps).toEqual(Array.from({ length: PacingRule.observationsBeforeTrust + 2 }, () => 100 + safeHold))
    }))

  describe.each([
    { name: "a service 100 ms away, ±5 ms", min: 95, max: 105 },
    { name: "25–75 ms", min: 25, max: 75 },
    { name: "0–300 ms", min: 0, max: 300 }
  ])("delays inside the band ($name)", ({ max, min, name }) => {
    it.effect(`L1 ${name} before the server counts: zero error 5 and no 31 in any window`, () => {
      const server = recordingServer({ faults: { latency: { min, max, seed: 20261123 } } })
      const seconds = 15
      return Effect.gen(function*() {
        const fiber = yield* load(seconds * 1000)
        yield* advance(Duration.seconds(seconds + 5))
        yield* Fiber.join(fiber)
        expect(errors5(server.answers)).toEqual([])
        const ok = expectWithinTheWindow(server.answers)
        expect(ok.length).toBeGreaterThan(seconds * 25)
        if (max - min < settings.marginMillis) {
          // Once the band is learnt, 30 requests take a window and the spread (once from take to take, once
          // more from send to arrival), not a window and the delay: the safe rule cannot go faster than one
          // window, the margin and the shortest delay.
          const learnt = ok.filter((at) => at >= 3000)
          const paces = learnt.slice(settings.limit).map((at, i) => at - learnt[i]!)
          expect(Math.max(...paces)).toBeLessThanOrEqual(safeHold + 2 * (max - min))
          expect(Math.max(...paces)).toBeLessThan(safeHold + min)
        }
      }).pipe(Effect.provide(server.layer))
    }, simulation)
  })

  it.effect("L1 delays that rise past the band: the slower answers are held by the safe rule, zero error 5", () => {
    const server = recordingServer({ faults: { latency: { fixed: 50 } } })
    return Effect.gen(function*() {
      const fiber = yield* load(20_000)
      yield* advance(Duration.seconds(8))
      yield* Effect.flatMap(ReferenceServer.ReferenceServer, (s) => s.setFaults({ latency: { fixed: 300 } }))
      yield* advance(Duration.seconds(4))
      yield* Effect.flatMap(
        ReferenceServer.ReferenceServer,
        (s) => s.setFaults({ latency: { min: 300, max: 600, seed: 7 } })
      )
      yield* advance(Duration.seconds(15))
      yield* Fiber.join(fiber)
      expect(errors5(server.answers)).toEqual([])
      expectWithinTheWindow(server.answers)
    }).pipe(Effect.provide(server.layer))
  }, simulation)

  it.effect(
    "L1 delays that fall past the band and the margin: the refusals come in the first window after the fall, then none",
    () => {
      const server = recordingServer({ faults: { latency: { fixed: 300 } } })
      return Effect.gen(function*() {
        const fiber = yield* load(20_000)
        yield* advance(Duration.seconds(8))
        const fellAt = yield* Clock.currentTimeMillis
        yield* Effect.flatMap(ReferenceServer.ReferenceServer, (s) => s.clearFaults)
        yield* advance(Duration.seconds(15))
        // Every call ended ok: a refused request waited for the window and was sent again.
        yield* Fiber.join(fiber)
        const refused = errors5(server.answers)
        // Only requests already on their way when the first refusal came back: at most one per fiber.
        expect(refused.length).toBeGreaterThan(0)
        expect(refused.length).toBeLessThanOrEqual(fibers)
        for (const r of refused) expect(r.at - fellAt).toBeLessThan(settings.windowMillis)
        expectWithinTheWindow(server.answers)
      }).pipe(Effect.provide(server.layer))
    },
    simulation
  )
})
