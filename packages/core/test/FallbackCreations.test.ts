/**
 * The creations a process counted in its own memory while the shared store could not be reached: each
 * is given back or counted again there, never in the shared store, and none is kept past its day.
 */
import { describe, expect, it } from "vitest"
import * as FallbackCreations from "../src/FallbackCreations.js"
import { dayMillis, minuteMillis } from "../src/Limits.js"

describe("FallbackCreations", () => {
  it("L2 a creation counted in memory is found once, then forgotten; one counted elsewhere is not found", () => {
    const fallback = FallbackCreations.make()
    fallback.remember("u", 1_000)
    fallback.remember("u", 2_000)
    expect(fallback.forget("u", 1_000)).toBe(true)
    expect(fallback.forget("u", 1_000)).toBe(false)
    expect(fallback.forget("u", 5_000)).toBe(false)
    expect(fallback.forget("v", 2_000)).toBe(false)
    expect(fallback.users()).toBe(1)
    expect(fallback.forget("u", 2_000)).toBe(true)
    expect(fallback.users()).toBe(0)
  })

  it("L2 a creation is not kept past its day", () => {
    const fallback = FallbackCreations.make()
    fallback.remember("u", 0)
    fallback.remember("u", dayMillis + 1)
    expect(fallback.forget("u", 0)).toBe(false)
    expect(fallback.forget("u", dayMillis + 1)).toBe(true)
  })

  it("L2 a creation counted in the shared store still holds within its calendar minute, not after", () => {
    expect(FallbackCreations.stillCounted(minuteMillis + 10, 2 * minuteMillis - 1)).toBe(true)
    expect(FallbackCreations.stillCounted(minuteMillis + 10, 2 * minuteMillis)).toBe(false)
  })
})

describe("FallbackCreations verdicts", () => {
  it("L2 a creation the memory store counted is remembered; one it refused is not", () => {
    const fallback = FallbackCreations.make()
    fallback.record("u", { _tag: "Taken", at: 1_000 })
    fallback.record("u", { _tag: "Exhausted", window: "minute", resetsAt: minuteMillis, now: 2_000 })
    expect(fallback.forget("u", 1_000)).toBe(true)
    expect(fallback.forget("u", 2_000)).toBe(false)
  })

  it("L2 a creation counted in the shared store, confirmed while it is unavailable, holds within its minute", () => {
    expect(FallbackCreations.retakenWhileUnavailable(minuteMillis + 10, 2 * minuteMillis - 1)).toEqual({
      _tag: "Taken",
      at: minuteMillis + 10
    })
    expect(FallbackCreations.retakenWhileUnavailable(minuteMillis + 10, 2 * minuteMillis)).toBeUndefined()
  })
})
