/**
 * The creation quota's decisions over a store's verdict: a creation counted, waiting for the next
 * minute in wait mode, or refused; a confirmation that never waits; what is logged when a store could
 * not record something.
 */
import { describe, expect, it } from "vitest"
import * as CreationBook from "../src/CreationBook.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Limits from "../src/Limits.js"
import type * as Timed from "../src/Timed.js"
import * as SyncEffects from "./support/SyncEffects.js"

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

interface AtNow extends Timed.Lambda {
  readonly type: SyncEffects.Sync<this["A"]>
}

describe("CreationQuota.service", () => {
  /** A quota of 2 a minute over a book of counts, on a manual clock at `now`. */
  const world = () => {
    const log: Array<string> = []
    const clock = { millis: now }
    const book = CreationBook.make({ ...Limits.creationDefaults, perMinute: 2 })
    const store = CreationBook.store<AtNow>(book, (call) => () => ({ ok: true, value: call(clock.millis) }))
    const quota = CreationQuota.service<SyncEffects.F, string, number, SyncEffects.Exceeded>(
      SyncEffects.effects(log, clock)
    )
    return { log, clock, store, quota: quota(store), over: quota }
  }

  it("L2 L4 a creation is counted at the store's time; a used-up minute waits for the next in wait mode, fails in fail mode", () => {
    const { clock, log, quota } = world()
    expect(quota.acquire("owner", "lists/create", "fail")()).toEqual({ ok: true, value: now })
    expect(quota.acquire("owner", "lists/create", "fail")()).toEqual({ ok: true, value: now })
    expect(quota.acquire("owner", "lists/create", "fail")()).toEqual({
      ok: false,
      error: {
        _tag: "CreationQuotaExceeded",
        operation: "lists/create",
        window: "minute",
        resetsAt: new Date(Limits.nextMinute(now)).toISOString()
      }
    })
    expect(log).toEqual([])
    expect(quota.acquire("owner", "lists/create", "wait")()).toEqual({ ok: true, value: Limits.nextMinute(now) })
    expect(log).toEqual([`sleep ${Limits.nextMinute(now) - now}`])
    expect(clock.millis).toBe(Limits.nextMinute(now))
  })

  it("L2 a confirmation in a later minute counts again, and is refused when that minute is used up", () => {
    const { clock, quota } = world()
    const taken = now
    clock.millis = Limits.nextMinute(now) + 1_000
    expect(quota.confirm("owner", "vars/create", taken)()).toEqual({ ok: true, value: clock.millis })
    expect(quota.confirm("owner", "vars/create", now)()).toEqual({ ok: true, value: clock.millis })
    const refused = quota.confirm("owner", "vars/create", now)()
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.error.window).toBe("minute")
  })

  it("L2 L3 a refund and a used-up window reach the store; what it cannot record is logged and the call goes on", () => {
    const { log, over, quota, store } = world()
    quota.acquire("owner", "lists/create", "fail")()
    quota.refund("owner", now)()
    expect(quota.budget("owner")()).toEqual({
      ok: true,
      value: {
        minute: { used: 0, limit: 2, left: 2, resetsAt: new Date(Limits.nextMinute(now)).toISOString() },
        day: { used: 0, limit: 200, left: 200, resetsAt: new Date(Limits.nextDay(now)).toISOString() }
      }
    })
    quota.exhaustMinute("owner")()
    expect(quota.usedUp("owner")()).toEqual({ ok: true, value: "minute" })
    const down = () => () => ({ ok: false as const, error: new Error("down") })
    const failing = over({ ...store, refund: down, exhaust: down, usedUp: down })
    expect(failing.refund("owner", now)()).toEqual({ ok: true, value: undefined })
    expect(failing.exhaustDay("owner")()).toEqual({ ok: true, value: undefined })
    expect(failing.usedUp("owner")()).toEqual({ ok: true, value: undefined })
    expect(log).toEqual([
      "debug: creation quota: a refund was not stored: down",
      "debug: creation quota: a used-up day was not stored: down",
      "debug: creation quota: a look at the counts was not stored: down"
    ])
  })

  it("L2 an estimate reads the budget at the line's time, its instants the line's", () => {
    const { quota } = world()
    expect(quota.estimate("owner", 3, Limits.nextMinute(now) - 1)()).toEqual({
      ok: true,
      value: { _tag: "Late", earliest: new Date(Limits.nextMinute(now)).toISOString() }
    })
    expect(quota.estimate("owner", 2, Limits.nextMinute(now))()).toEqual({
      ok: true,
      value: { _tag: "InTime", lastAt: new Date(now).toISOString() }
    })
  })
})
