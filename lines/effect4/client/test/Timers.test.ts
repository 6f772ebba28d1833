/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * The timers of the exchanges' timeouts and of the permits' holds: one fiber per clock calls each
 * timer once it is due, in the order they fall due, on a clock whose times may be fractional; a
 * timer's callback that resumes a fiber at once (Effect 4 runs it on the callback's stack) may add
 * and remove timers.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Deferred, Duration, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import * as Timers from "../src/internal/timers.js"

/**
 * A timer at 100 that resumes a waiting fiber, which then runs `then`: Effect 4 runs it at once, on
 * the stack of the timer's callback, so inside the timers' fiber while it fires.
 */
const resumingAt100 = (
  timers: Timers.Timers,
  called: Array<[string, number]>,
  then: () => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    const resumed = Deferred.makeUnsafe<void>()
    const waiter = yield* Effect.forkChild(Effect.andThen(Deferred.await(resumed), Effect.suspend(then)))
    yield* timers.addAt(100, (now) => {
      called.push(["first", now])
      Deferred.doneUnsafe(resumed, Exit.void)
    })
    return waiter
  })

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

  it.effect("a fiber a timer resumes may add and remove timers from within the timers' fiber", () =>
    Effect.gen(function*() {
      const timers = Timers.make()
      const called: Array<[string, number]> = []
      const waiter = yield* resumingAt100(timers, called, () =>
        Effect.gen(function*() {
          yield* timers.remove(doomed)
          yield* timers.addAt(150, (now) => called.push(["added, earlier", now]))
          yield* timers.addAt(400, (now) => called.push(["added, later", now]))
        }))
      const doomed = yield* timers.addAt(200, (now) => called.push(["removed", now]))
      yield* timers.addAt(300, (now) => called.push(["kept", now]))
      yield* TestClock.adjust(Duration.millis(100))
      yield* Fiber.join(waiter)
      expect(called).toEqual([["first", 100]])
      yield* TestClock.adjust(Duration.millis(400))
      expect(called).toEqual([["first", 100], ["added, earlier", 150], ["kept", 300], ["added, later", 400]])
    }))

  it.effect("a fiber a timer resumes may remove the last timer and add another from within the timers' fiber", () =>
    Effect.gen(function*() {
      const timers = Timers.make()
      const called: Array<[string, number]> = []
      const waiter = yield* resumingAt100(timers, called, () =>
        Effect.gen(function*() {
          yield* timers.remove(last)
          yield* timers.addAt(120, (now) => called.push(["added", now]))
        }))
      const last = yield* timers.addAt(200, (now) => called.push(["removed", now]))
      yield* TestClock.adjust(Duration.millis(100))
      yield* Fiber.join(waiter)
      yield* TestClock.adjust(Duration.millis(200))
      expect(called).toEqual([["first", 100], ["added", 120]])
    }))

  it.effect("the last timer removed stops the fiber, and the next one starts it again", () =>
    Effect.gen(function*() {
      const timers = Timers.make()
      const called: Array<number> = []
      const gone = yield* timers.addAt(100, (now) => called.push(now))
      yield* timers.remove(gone)
      yield* TestClock.adjust(Duration.millis(200))
      expect(called).toEqual([])
      yield* timers.addAt(250, (now) => called.push(now))
      // Due before the fiber's wake-up: it is restarted for it.
      yield* timers.addAt(220, (now) => called.push(now))
      yield* TestClock.adjust(Duration.millis(100))
      expect(called).toEqual([220, 250])
    }))
})
