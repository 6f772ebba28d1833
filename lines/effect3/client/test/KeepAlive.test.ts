/**
 * What keeps a process alive: the client's bookkeeping (the holds of the permits after their answers,
 * the sweep of idle users) never does on its own, so a script ends with its last answer; a call waiting
 * for a permit does, so a script never ends with a call still waiting. Read on the live clock from
 * Node's count of referenced timers (`process.getActiveResourcesInfo`), not from how long anything took.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber } from "effect"
import * as Timers from "../src/internal/timers.js"
import * as Pacing from "../src/Pacing.js"
import * as PermitStore from "../src/PermitStore.js"

/** The timers that keep this process alive now. */
const referencedTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length

/** Lets forked fibers run their first steps (Effect's scheduler runs them on later ticks). */
const settle = Effect.forEach(Array.from({ length: 20 }), () => Effect.yieldNow(), { discard: true })

/** Polls `check` on the live clock until it holds, for at most `millis`. */
const eventually = (check: () => boolean, millis = 5000) =>
  Effect.gen(function*() {
    const until = Date.now() + millis
    while (!check() && Date.now() < until) yield* Effect.sleep(Duration.millis(5))
    return check()
  })

describe("KeepAlive", () => {
  it.live("background timers keep the process alive only while a call waits for one of them", () =>
    Effect.gen(function*() {
      const timers = Timers.make({ inBackground: true })
      const before = referencedTimers()
      const now = yield* Clock.currentTimeMillis
      const entry = yield* timers.addAt(now + 60_000, () => {})
      yield* settle
      expect(referencedTimers()).toBe(before)
      timers.awaited(1)
      expect(referencedTimers()).toBe(before + 1)
      timers.awaited(1)
      timers.awaited(-1)
      expect(referencedTimers()).toBe(before + 1)
      timers.awaited(-1)
      expect(referencedTimers()).toBe(before)
      yield* timers.remove(entry)
      yield* settle
      expect(referencedTimers()).toBe(before)
    }))

  it.live("the timers of the exchanges' timeouts keep the process alive while they run", () =>
    Effect.gen(function*() {
      const timers = Timers.make()
      const before = referencedTimers()
      const now = yield* Clock.currentTimeMillis
      const entry = yield* timers.addAt(now + 60_000, () => {})
      expect(yield* eventually(() => referencedTimers() === before + 1)).toBe(true)
      yield* timers.remove(entry)
      expect(yield* eventually(() => referencedTimers() === before)).toBe(true)
    }))

  it.live("after the last answer the holds of the permits and the sweep of idle users hold nothing up; a call waiting for a permit does", () =>
    Effect.gen(function*() {
      const store = PermitStore.unsafeMakeMemory({ limit: 1 })
      const pacing = yield* Effect.provideService(
        Pacing.makeFromStore({ window: Duration.millis(300), margin: Duration.millis(0) }),
        PermitStore.PermitStore,
        store
      )
      const before = referencedTimers()
      yield* pacing.withPermit("user")(Effect.void)
      yield* settle
      // The permit is held for the window after its answer, and the user's rule waits to be swept.
      expect((yield* pacing.budget("user")).left).toBe(0)
      expect(referencedTimers()).toBe(before)
      // The next call waits for that permit: its hold now keeps the process alive until it comes.
      const beforeWaiting = referencedTimers()
      const waiting = yield* Effect.fork(pacing.withPermit("user")(Effect.void))
      yield* settle
      expect(referencedTimers()).toBe(beforeWaiting + 1)
      yield* Fiber.join(waiting)
      yield* settle
      // At most as many as before (the test runner's own timers may have ended meanwhile).
      expect(referencedTimers()).toBeLessThanOrEqual(beforeWaiting)
      // Every user swept, every permit back: nothing is left to wake for.
      expect(yield* eventually(() => Effect.runSync(pacing.users) === 0 && Effect.runSync(store.users) === 0)).toBe(
        true
      )
      expect(referencedTimers()).toBeLessThanOrEqual(beforeWaiting)
    }))
})
