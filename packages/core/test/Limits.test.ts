import { describe, expect, it } from "vitest"
import * as Limits from "../src/Limits.js"

/** An instant in UTC; Moscow is three hours ahead all year. */
const utc = (iso: string): number => Date.parse(`${iso}Z`)

describe("the limits' numbers", () => {
  it("L1 L2 30 requests a second; 20 creations a minute and 200 a day", () => {
    expect([Limits.requestsPerWindow, Limits.rateWindowMillis]).toEqual([30, 1_000])
    expect(Limits.creationDefaults).toEqual({ perMinute: 20, perDay: 200 })
  })
})

describe("the calendar windows", () => {
  it("L4 a minute starts on the minute: the last millisecond of one and the first of the next", () => {
    const start = utc("2024-03-10T12:34:00.000")
    expect(Limits.minuteOf(start - 1)).toBe(Limits.minuteOf(start) - 1)
    expect(Limits.nextMinute(start - 1)).toBe(start)
    expect(Limits.nextMinute(start)).toBe(start + 60_000)
    expect(Limits.windowEnd("minute", start + 59_999)).toBe(start + 60_000)
  })

  it("L4 the day starts at 03:00 Moscow time (00:00 UTC), not at Moscow's midnight", () => {
    const moscowMidnight = utc("2024-03-09T21:00:00.000")
    const threeInMoscow = utc("2024-03-10T00:00:00.000")
    expect(Limits.dayOf(moscowMidnight)).toBe(Limits.dayOf(threeInMoscow - 1))
    expect(Limits.dayOf(threeInMoscow)).toBe(Limits.dayOf(threeInMoscow - 1) + 1)
    expect(Limits.nextDay(moscowMidnight)).toBe(threeInMoscow)
    expect(Limits.nextDay(threeInMoscow)).toBe(utc("2024-03-11T00:00:00.000"))
    expect(Limits.windowEnd("day", utc("2024-03-10T23:59:59.999"))).toBe(utc("2024-03-11T00:00:00.000"))
  })

  it("L4 a leap day and the turn of a year are days like the others", () => {
    expect(Limits.nextDay(utc("2024-02-28T12:00:00.000"))).toBe(utc("2024-02-29T00:00:00.000"))
    expect(Limits.nextDay(utc("2024-02-29T12:00:00.000"))).toBe(utc("2024-03-01T00:00:00.000"))
    expect(Limits.nextDay(utc("2024-12-31T23:59:59.999"))).toBe(utc("2025-01-01T00:00:00.000"))
  })
})

/** Takes `n` creations one after another at `now`, failing the test when one does not fit. */
const takeMany = (count: Limits.CreationCount, now: number, n: number, settings?: Limits.CreationSettings) => {
  let current = count
  for (let i = 0; i < n; i++) {
    const taken = Limits.takeCreation(current, now, settings)
    if (taken._tag !== "Taken") throw new Error(`creation ${i + 1} refused: ${taken.window}`)
    current = taken.count
  }
  return current
}

describe("the creation counter", () => {
  const noon = utc("2024-03-10T12:00:00.000")

  it("L2 L4 L5 the 21st creation in a minute is refused until the next minute, and nothing is counted", () => {
    const full = takeMany(Limits.emptyCount, noon, 20)
    expect(full).toMatchObject({ inMinute: 20, inDay: 20 })
    expect(Limits.exhaustedWindow(full, noon + 59_999)).toBe("minute")
    expect(Limits.takeCreation(full, noon + 59_999)).toEqual({
      _tag: "Exhausted",
      window: "minute",
      resetsAt: noon + 60_000
    })
    expect(Limits.exhaustedWindow(full, noon + 60_000)).toBeUndefined()
    const next = Limits.takeCreation(full, noon + 60_000)
    expect(next).toEqual({ _tag: "Taken", count: expect.objectContaining({ inMinute: 1, inDay: 21 }) })
  })

  it("L2 L4 the 201st creation in a day is refused until 03:00 Moscow time, even in a fresh minute", () => {
    let count = Limits.emptyCount
    for (let minute = 0; minute < 10; minute++) count = takeMany(count, noon + minute * 60_000, 20)
    const later = noon + 10 * 60_000
    expect(Limits.rollCount(count, later)).toMatchObject({ inMinute: 0, inDay: 200 })
    expect(Limits.takeCreation(count, later)).toEqual({
      _tag: "Exhausted",
      window: "day",
      resetsAt: utc("2024-03-11T00:00:00.000")
    })
    expect(Limits.takeCreation(count, utc("2024-03-11T00:00:00.000"))._tag).toBe("Taken")
  })

  it("L2 when the minute and the day are both used up, the day is the window told", () => {
    const settings = { perMinute: 2, perDay: 2 }
    const full = takeMany(Limits.emptyCount, noon, 2, settings)
    expect(Limits.exhaustedWindow(full, noon, settings)).toBe("day")
  })

  it("a count of a past minute or day starts again from zero", () => {
    const count = takeMany(Limits.emptyCount, noon, 3)
    expect(Limits.rollCount(count, noon + 1)).toEqual(count)
    expect(Limits.rollCount(count, noon + 60_000)).toMatchObject({ inMinute: 0, inDay: 3 })
    expect(Limits.rollCount(count, utc("2024-03-11T00:00:00.000"))).toMatchObject({ inMinute: 0, inDay: 0 })
  })

  it("a refund gives back only to the windows it was taken in, and never below zero", () => {
    const count = takeMany(Limits.emptyCount, noon, 2)
    expect(Limits.refundCreation(count, noon, noon + 10)).toMatchObject({ inMinute: 1, inDay: 1 })
    expect(Limits.refundCreation(count, noon, noon + 60_000)).toMatchObject({ inMinute: 0, inDay: 1 })
    expect(Limits.refundCreation(count, noon, utc("2024-03-11T00:00:00.000"))).toMatchObject({
      inMinute: 0,
      inDay: 0
    })
    expect(Limits.refundCreation(Limits.emptyCount, noon, noon)).toMatchObject({ inMinute: 0, inDay: 0 })
  })
})
