/**
 * Idle users leave the client's memory: the memory store's gates, the pacing rules and the memory
 * store's creation counts are held only while their user is active, so that a process serving many
 * accounts holds the ones active now, not every one it has served. Under `TestClock`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import * as CountStore from "../src/CountStore.js"
import * as Pacing from "../src/Pacing.js"
import * as PermitStore from "../src/PermitStore.js"

// Few enough for TestClock, which wakes each sleeping release in turn; benchmark B9 counts in thousands.
const N = 300

const users = (n: number) => Array.from({ length: n }, (_, i) => `user-${i}`)

/** A pacing service over a memory store whose users can both be counted. */
const pacingOver = (store: PermitStore.Memory) =>
  Effect.provideService(Pacing.makeFromStore(), PermitStore.PermitStore, store)

describe("Eviction of idle users", () => {
  it.effect("L1 300 users' gates leave memory once their permits come back, their pacing rules a window after their last call", () =>
    Effect.gen(function*() {
      const store = PermitStore.unsafeMakeMemory()
      const pacing = yield* pacingOver(store)
      yield* Effect.forEach(users(N), (user) => pacing.withPermit(user)(Effect.void), { discard: true })
      // Answered: the permits are still held, and the rules kept for the next calls a while.
      expect(yield* pacing.users).toBe(N)
      expect(yield* store.users).toBe(N)
      yield* TestClock.adjust(pacing.settings.windowMillis + pacing.settings.marginMillis)
      expect(yield* store.users).toBe(0)
      expect(yield* pacing.users).toBe(0)
    }))

  it.effect("L1 a user with a call waiting or in flight keeps its state until the call and its hold end", () =>
    Effect.gen(function*() {
      const store = PermitStore.unsafeMakeMemory({ limit: 2 })
      const pacing = yield* pacingOver(store)
      const slow = pacing.withPermit("busy")(Effect.sleep("500 millis"))
      const fibers = yield* Effect.forEach([1, 2, 3], () => Effect.fork(slow))
      yield* TestClock.adjust("100 millis")
      expect(yield* pacing.users).toBe(1)
      expect(yield* store.users).toBe(1)
      // The third waits for a permit: interrupted, it leaves nothing behind once the others are done.
      yield* Fiber.interrupt(fibers[2]!)
      yield* TestClock.adjust("400 millis")
      yield* Effect.forEach(fibers.slice(0, 2), Fiber.join, { discard: true })
      expect(yield* pacing.users).toBe(1)
      expect(yield* store.users).toBe(1)
      yield* TestClock.adjust("1020 millis")
      expect(yield* store.users).toBe(0)
      // The rule stays a window after the last call ended, and the sweep that drops it runs once a window.
      expect(yield* pacing.users).toBe(1)
      yield* TestClock.adjust("1020 millis")
      expect(yield* pacing.users).toBe(0)
    }))

  it.effect("L1 a user blocked after a refusal keeps its gate until the block ends, then the next sweep drops it", () =>
    Effect.gen(function*() {
      const store = PermitStore.unsafeMakeMemory()
      yield* store.block("refused", 1020)
      expect(yield* store.users).toBe(1)
      yield* TestClock.adjust("1020 millis")
      // Another user's take sweeps the idle gates (at most once a second).
      const permit = yield* store.take("other")
      expect(yield* store.users).toBe(1)
      yield* store.release(permit, { afterAnswerMillis: 0, afterTakeMillis: 0 })
      yield* TestClock.adjust("1 millis")
      expect(yield* store.users).toBe(0)
    }))

  it.effect("L2 L4 creation counts leave memory when their day ends (03:00 Moscow), or when a refund empties them", () =>
    Effect.gen(function*() {
      // 2026-11-26 12:00 UTC, 15:00 Moscow.
      yield* TestClock.setTime(Date.UTC(2026, 10, 26, 12))
      const store = CountStore.unsafeMakeMemory()
      yield* Effect.forEach(users(1_000), (user) => store.take(user), { discard: true })
      expect(yield* store.users).toBe(1_000)
      // A refund that leaves nothing counted drops the user at once.
      yield* store.refund("user-0", Date.UTC(2026, 10, 26, 12))
      expect(yield* store.users).toBe(999)
      // The minute ended, the day did not: the counts stay, the day's 200 still counts them.
      yield* TestClock.setTime(Date.UTC(2026, 10, 26, 23, 59))
      yield* store.take("late")
      expect(yield* store.users).toBe(1_000)
      // 00:00 UTC is 03:00 Moscow: a new day; the next take sweeps every count of the day before.
      yield* TestClock.setTime(Date.UTC(2026, 10, 27, 0, 0, 1))
      yield* store.take("next-day")
      expect(yield* store.users).toBe(1)
    }))
})
