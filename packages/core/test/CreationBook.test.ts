/**
 * The creation counts in memory, as both lines' limiters in memory keep them: a minute's and a
 * day's creations per user, a refund, a confirmation across a minute, a window marked used up.
 */
import { describe, expect, it } from "vitest"
import * as CreationBook from "../src/CreationBook.js"
import * as Limits from "../src/Limits.js"
import type * as Timed from "../src/Timed.js"

/** 09:00:00 UTC on 4 June 2025: the start of a minute. */
const start = Date.UTC(2025, 5, 4, 9, 0, 0)

describe("CreationBook", () => {
  it("L2 20 creations a minute per user; the 21st is refused until the next minute; users apart", () => {
    const book = CreationBook.make()
    for (let i = 0; i < 20; i++) expect(book.take("a", start + i)).toEqual({ _tag: "Taken", at: start + i })
    expect(book.take("a", start + 30_000)).toEqual({
      _tag: "Exhausted",
      window: "minute",
      resetsAt: start + Limits.minuteMillis,
      now: start + 30_000
    })
    expect(book.take("b", start + 30_000)._tag).toBe("Taken")
    expect(book.usedUp("a", start + 30_000)).toBe("minute")
    expect(book.take("a", start + Limits.minuteMillis)._tag).toBe("Taken")
  })

  it("L2 a refund gives the creation back within its minute", () => {
    const book = CreationBook.make({ perMinute: 1, perDay: 10 })
    expect(book.take("a", start)._tag).toBe("Taken")
    expect(book.take("a", start + 1)._tag).toBe("Exhausted")
    book.refund("a", start, start + 2)
    expect(book.take("a", start + 3)._tag).toBe("Taken")
  })

  it("L2 L4 a creation confirmed within its minute keeps its time; after it, it is counted again", () => {
    const book = CreationBook.make({ perMinute: 1, perDay: 10 })
    expect(book.take("a", start + 59_000)).toEqual({ _tag: "Taken", at: start + 59_000 })
    expect(book.retake("a", start + 59_000, start + 59_999)).toEqual({ _tag: "Taken", at: start + 59_000 })
    expect(book.retake("a", start + 59_000, start + 60_500)).toEqual({ _tag: "Taken", at: start + 60_500 })
    expect(book.take("a", start + 60_600)._tag).toBe("Exhausted")
  })

  it("L2 L4 a window marked used up refuses until it ends; the day's until the next day", () => {
    const book = CreationBook.make()
    book.exhaust("a", "minute", start)
    expect(book.usedUp("a", start + 1)).toBe("minute")
    expect(book.take("a", start + Limits.minuteMillis)._tag).toBe("Taken")
    book.exhaust("a", "day", start + Limits.minuteMillis)
    expect(book.take("a", start + 2 * Limits.minuteMillis)).toMatchObject({ _tag: "Exhausted", window: "day" })
    expect(book.take("a", Limits.nextDay(start))._tag).toBe("Taken")
  })

  it("L1 L2 the settings default to the API's limits", () => {
    expect(CreationBook.settingsOf()).toEqual(Limits.creationDefaults)
    expect(CreationBook.settingsOf({ perMinute: 3 })).toEqual({ perMinute: 3, perDay: Limits.creationDefaults.perDay })
  })

  it("L2 L4 a user's counts leave the book when both its windows have passed or a refund empties them", () => {
    const book = CreationBook.make()
    expect(book.take("a", start)._tag).toBe("Taken")
    expect(book.take("b", start)._tag).toBe("Taken")
    expect(book.usedUp("c", start)).toBeUndefined()
    expect(book.users()).toBe(2)
    book.refund("b", start, start + 1)
    expect(book.users()).toBe(1)
    // A later minute of the same day: the day still counts "a".
    expect(book.take("d", start + Limits.minuteMillis)._tag).toBe("Taken")
    expect(book.users()).toBe(2)
    // The next day (00:00 UTC, 03:00 Moscow): the first take sweeps both.
    const nextDay = Limits.nextDay(start)
    expect(book.take("e", nextDay)._tag).toBe("Taken")
    expect(book.users()).toBe(1)
  })

  it("L2 a book's calls as a store run each call at the time the line's effect reads", () => {
    // A line's effect, here a thunk that reads a clock set by the test when it runs.
    interface Thunk extends Timed.Lambda {
      readonly type: () => this["A"]
    }
    let clock = start
    const book = CreationBook.make({ perMinute: 1, perDay: 10 })
    const store = CreationBook.store<Thunk>(book, (call) => () => call(clock))
    const take = store.take("a")
    clock = start + 5
    expect(take()).toEqual({ _tag: "Taken", at: start + 5 })
    expect(store.usedUp("a")()).toBe("minute")
    expect(store.budget("a")().minute).toMatchObject({ used: 1, left: 0 })
    clock = start + Limits.minuteMillis
    expect(store.retake("a", start + 5)()).toEqual({ _tag: "Taken", at: start + Limits.minuteMillis })
    store.refund("a", start + Limits.minuteMillis)()
    expect(store.budget("a")().day).toMatchObject({ used: 0 })
    store.exhaust("a", "day")()
    expect(store.take("a")()).toMatchObject({ _tag: "Exhausted", window: "day" })
    expect(store.users()).toBe(1)
  })
})
