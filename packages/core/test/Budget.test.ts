/**
 * The budgets of the limits: what is left of the request rate and of the creation windows, when each
 * comes back, and whether a number of creations fits by an instant; and the JSON both lines show of a
 * budget.
 */
import { describe, expect, it } from "vitest"
import * as Budget from "../src/Budget.js"
import * as Limits from "../src/Limits.js"

/** 2026-11-26 17:59:30 UTC (20:59:30 Moscow). */
const now = Date.UTC(2026, 10, 26, 17, 59, 30)
const count = (inMinute: number, inDay: number): Limits.CreationCount => ({
  minute: Limits.minuteOf(now),
  inMinute,
  day: Limits.dayOf(now),
  inDay
})

describe("Budget", () => {
  it("L2 L4 the creations left in the minute and the day, and when each resets (03:00 Moscow for the day)", () => {
    expect(Budget.creations(count(5, 150), now)).toEqual({
      minute: { used: 5, limit: 20, left: 15, resetsAt: Date.UTC(2026, 10, 26, 18, 0) },
      day: { used: 150, limit: 200, left: 50, resetsAt: Date.UTC(2026, 10, 27, 0, 0) }
    })
    // A count of an earlier minute and day counts nothing now.
    const old = { minute: Limits.minuteOf(now) - 1, inMinute: 20, day: Limits.dayOf(now) - 1, inDay: 200 }
    expect(Budget.creations(old, now).minute.left).toBe(20)
    expect(Budget.creations(old, now).day.left).toBe(200)
  })

  it("L2 N creations by an instant: the minute's left now, a full minute's worth after, the day's quota", () => {
    const budget = Budget.creations(count(5, 150), now)
    // 15 fit this minute.
    expect(Budget.lastCreationAt(budget, 15, now)).toBe(now)
    // 40: 15 now, 20 at 18:00, 5 at 18:01.
    expect(Budget.lastCreationAt(budget, 40, now)).toBe(Date.UTC(2026, 10, 26, 18, 1))
    expect(Budget.estimate(budget, 40, now, Date.UTC(2026, 10, 26, 18, 0))).toEqual({
      _tag: "Late",
      earliest: Date.UTC(2026, 10, 26, 18, 1)
    })
    expect(Budget.estimate(budget, 40, now, Date.UTC(2026, 10, 26, 18, 5))).toEqual({
      _tag: "InTime",
      lastAt: Date.UTC(2026, 10, 26, 18, 1)
    })
    // 60: the day has 50 left, so the last 10 wait for 03:00 Moscow (00:00 UTC).
    expect(Budget.lastCreationAt(budget, 60, now)).toBe(Date.UTC(2026, 10, 27, 0, 0))
    // 271: 50 today, 200 tomorrow (10 minutes of 20), 21 the day after (its second minute).
    expect(Budget.lastCreationAt(budget, 271, now)).toBe(Date.UTC(2026, 10, 28, 0, 1))
    expect(Budget.lastCreationAt(budget, 0, now)).toBe(now)
  })

  it("L1 the requests left now and when the next permit comes back; a block leaves none until it ends", () => {
    const base = { limit: 30, blockedUntil: 0, now }
    expect(Budget.requests({ ...base, held: 0, nextBackAt: undefined })).toEqual({
      used: 0,
      limit: 30,
      left: 30,
      resetsAt: now
    })
    expect(Budget.requests({ ...base, held: 30, nextBackAt: now + 400 })).toEqual({
      used: 30,
      limit: 30,
      left: 0,
      resetsAt: now + 400
    })
    // Every held permit still waits for its answer: when one comes back is not known yet.
    expect(Budget.requests({ ...base, held: 2, nextBackAt: undefined }).resetsAt).toBeUndefined()
    expect(Budget.requests({ ...base, held: 3, nextBackAt: now + 10, blockedUntil: now + 1020 })).toEqual({
      used: 30,
      limit: 30,
      left: 0,
      resetsAt: now + 1020
    })
    // On a clock of fractions, whole milliseconds, rounded up: a permit is back no sooner than said.
    expect(Budget.requests({ ...base, held: 1, nextBackAt: now + 400.686 }).resetsAt).toBe(now + 401)
    expect(Budget.requests({ ...base, held: 0, nextBackAt: undefined, now: now + 0.25 }).resetsAt).toBe(now + 1)
  })

  it("L1 L2 the JSON of a budget: its fields, instants in ISO 8601 UTC, null while no held permit is answered, the estimate only when asked", () => {
    const creations = Budget.creations(count(5, 150), now)
    const waiting = Budget.requests({ limit: 30, held: 3, nextBackAt: undefined, blockedUntil: 0, now })
    const budget: Budget.OfUser = { requests: waiting, creations }
    const minute = { used: 5, limit: 20, left: 15, resets_at: "2026-11-26T18:00:00.000Z" }
    const day = { used: 150, limit: 200, left: 50, resets_at: "2026-11-27T00:00:00.000Z" }
    const json = Budget.toJson(budget, "redis")
    expect(json).toStrictEqual({
      limiters: "redis",
      requests: { used: 3, limit: 30, left: 27, resets_at: null },
      creations: { minute, day }
    })
    expect("estimate" in json).toBe(false)
    // A held permit answered: when it comes back; and a question, in time or not.
    const answered = { ...budget, requests: { ...waiting, resetsAt: now + 1_020 } }
    const by = now + 60_000
    expect(Budget.toJson(answered, "memory", { creations: 70, by, estimate: Budget.estimate(creations, 70, now, by) }))
      .toStrictEqual({
        limiters: "memory",
        requests: { used: 3, limit: 30, left: 27, resets_at: "2026-11-26T17:59:31.020Z" },
        creations: { minute, day },
        // The day's 50 left go by 18:01; the other 20 when the day resets, at 03:00 Moscow.
        estimate: { creations: 70, by: "2026-11-26T18:00:30.000Z", in_time: false, last_at: "2026-11-27T00:00:00.000Z" }
      })
    expect(
      Budget.toJson(answered, "memory", { creations: 15, by, estimate: Budget.estimate(creations, 15, now, by) })
        .estimate
    )
      .toStrictEqual({
        creations: 15,
        by: "2026-11-26T18:00:30.000Z",
        in_time: true,
        last_at: "2026-11-26T17:59:30.000Z"
      })
    expect(Budget.limiters).toEqual(["memory", "redis"])
  })

  it("a budget's instants given as a line's own and back, and its JSON read through the line's conversion", () => {
    const creations = Budget.creations(count(5, 150), now)
    const waiting = Budget.requests({ limit: 30, held: 3, nextBackAt: undefined, blockedUntil: 0, now })
    const budget: Budget.OfUser = { requests: waiting, creations }
    /** An instant as a line might hold it: not a number. */
    const boxed = (epochMillis: number) => ({ epochMillis })
    const lines = Budget.mapInstants(budget, boxed)
    expect(lines).toStrictEqual({
      requests: { used: 3, limit: 30, left: 27, resetsAt: undefined },
      creations: {
        minute: { used: 5, limit: 20, left: 15, resetsAt: boxed(Date.UTC(2026, 10, 26, 18, 0)) },
        day: { used: 150, limit: 200, left: 50, resetsAt: boxed(Date.UTC(2026, 10, 27, 0, 0)) }
      }
    })
    expect(Budget.mapInstants(lines, (instant) => instant.epochMillis)).toStrictEqual(budget)
    expect(
      Budget.mapInstants(
        Budget.requests({ ...waiting, held: 0, nextBackAt: undefined, blockedUntil: 0, now, limit: 30 }),
        boxed
      )
    )
      .toStrictEqual({ used: 0, limit: 30, left: 30, resetsAt: boxed(now) })
    const estimate = Budget.estimate(creations, 70, now, now + 60_000)
    expect(Budget.mapInstants(estimate, boxed)).toStrictEqual({ _tag: "Late", earliest: boxed(Date.UTC(2026, 10, 27)) })
    const asked = { creations: 70, by: boxed(now + 60_000), estimate: Budget.mapInstants(estimate, boxed) }
    expect(Budget.toJson(lines, "memory", asked, (instant) => instant.epochMillis)).toStrictEqual(
      Budget.toJson(budget, "memory", { creations: 70, by: now + 60_000, estimate })
    )
  })
})
