/**
 * The creation quota's decisions over a store's verdict: a creation counted, waiting for the next
 * minute in wait mode, or refused; a confirmation that never waits; what is logged when a store could
 * not record something.
 */
import { describe, expect, it } from "vitest"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Limits from "../src/Limits.js"

/** 09:00:30 UTC on 4 June 2025: the middle of a minute. */
const now = Date.UTC(2025, 5, 4, 9, 0, 30)
const minuteUsedUp = { _tag: "Exhausted", window: "minute", resetsAt: Limits.nextMinute(now), now } as const
const dayUsedUp = { _tag: "Exhausted", window: "day", resetsAt: Limits.nextDay(now), now } as const

describe("CreationQuota", () => {
  it("L2 a creation counted by the store is sent, in either mode", () => {
    for (const mode of ["wait", "fail"] as const) {
      expect(CreationQuota.acquired({ _tag: "Taken", at: now }, mode)).toEqual({ _tag: "Counted", at: now })
    }
  })

  it("L2 L4 a used-up minute waits until it resets on the store's clock in wait mode, and is refused in fail mode", () => {
    // The store's clock runs 5 s behind this process's: the wait is the store's time to the reset.
    const behind = { ...minuteUsedUp, now: now - 5_000 }
    expect(CreationQuota.acquired(behind, "wait")).toEqual({ _tag: "Wait", millis: 35_000 })
    expect(CreationQuota.acquired(minuteUsedUp, "fail")).toEqual({
      _tag: "Refused",
      window: "minute",
      resetsAt: Limits.nextMinute(now)
    })
  })

  it("L2 L4 a used-up day is refused at once with its reset, even in wait mode", () => {
    expect(CreationQuota.acquired(dayUsedUp, "wait")).toEqual({
      _tag: "Refused",
      window: "day",
      resetsAt: Limits.nextDay(now)
    })
  })

  it("L2 L1 a confirmation right before sending is counted or refused, and never waits", () => {
    expect(CreationQuota.confirmed({ _tag: "Taken", at: now })).toEqual({ _tag: "Counted", at: now })
    expect(CreationQuota.confirmed(minuteUsedUp)).toEqual({
      _tag: "Refused",
      window: "minute",
      resetsAt: Limits.nextMinute(now)
    })
  })

  it("L3 L5 what a store could not record is said with the store's error", () => {
    expect(CreationQuota.notStored("refund", new Error("Redis is down"))).toBe(
      "creation quota: a refund was not stored: Redis is down"
    )
    expect(CreationQuota.notStored("minute", "timeout")).toBe(
      "creation quota: a used-up minute was not stored: timeout"
    )
    expect(CreationQuota.notStored("day", "x")).toContain("a used-up day")
    expect(CreationQuota.notStored("usedUp", "x")).toContain("a look at the counts")
  })
})
