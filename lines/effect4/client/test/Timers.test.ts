/**
 * The timers of this line alone: a timer's callback that resumes a fiber at once (Effect 4 runs it on
 * the callback's stack) may add and remove timers; the timers both lines share are the scenarios'.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import suite from "../../../../tests/client-behaviour/scenarios/Timers.js"
import * as Timers from "../src/internal/timers.js"
import { run } from "./support/Driver.js"

run(suite)

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
