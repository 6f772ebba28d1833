/**
 * The timers of the exchanges' timeouts and of the permits' holds: one fiber per clock calls each
 * timer once it is due, in the order they fall due, on a clock whose times may be fractional.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, TestClock } from "effect"
import * as Timers from "../src/internal/timers.js"

describe("Timers", () => {
  it.effect("each timer is called once when due, in order, and a removed one never", () =>
    Effect.gen(function*() {
      const timers = Timers.make()
      const called: Array<[string, number]> = []
      const add = (name: string, at: number) => timers.addAt(at, (now) => called.push([name, now]))
      yield* add("b", 300)
      yield* add("a", 100)
      const removed = yield* add("x", 200)
      yield* add("c", 300)
      yield* timers.remove(removed)
      yield* TestClock.adjust(Duration.millis(250))
      expect(called).toEqual([["a", 100]])
      yield* TestClock.adjust(Duration.millis(100))
      expect(called).toEqual([["a", 100], ["b", 300], ["c", 300]])
    }))

  it.effect("on a clock moved by fractional latencies every timer comes due, within a millisecond", () =>
    Effect.gen(function*() {
      const timers = Timers.make()
      const due: Array<number> = []
      const late: Array<number> = []
      // Fractional times, as the in-process server's random latencies make them: a timer added at a
      // fractional instant, due a fractional delay later, while the clock moves by fractional steps.
      for (let i = 0; i < 300; i++) {
        yield* TestClock.adjust(Duration.millis(3.7312097 + (i % 7) * 0.1234567))
        const now = yield* Clock.currentTimeMillis
        const at = now + 1000.0003217 + (i % 5) * 0.0000001
        due.push(at)
        yield* timers.addAt(at, (calledAt) => late.push(calledAt - at))
      }
      yield* TestClock.adjust(Duration.seconds(2))
      expect(late).toHaveLength(due.length)
      expect(Math.min(...late)).toBeGreaterThanOrEqual(0)
      expect(Math.max(...late)).toBeLessThanOrEqual(1)
    }))
})
