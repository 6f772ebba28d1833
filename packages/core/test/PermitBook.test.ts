/**
 * The pacing permits of every user in one process, as both lines' memory stores carry them out: the
 * time is passed in, the waiter to wake comes back, and nothing waits or sleeps here.
 */
import { describe, expect, it } from "vitest"
import * as PermitBook from "../src/PermitBook.js"
import * as SyncEffects from "./support/SyncEffects.js"

/** What a line does with a decision: a waiter handed a permit is woken (here, noted). */
const recorder = () => {
  const woken: Array<string> = []
  let waiting = 0
  const book = PermitBook.make<string>({ limit: 2, onWaiting: (change) => (waiting += change) })
  const wake = (waiter: string | undefined) => {
    if (waiter !== undefined) woken.push(waiter)
  }
  return { book, woken, wake, waiting: () => waiting }
}

const hold = { afterAnswerMillis: 1_000, afterTakeMillis: 0 }

describe("PermitBook", () => {
  it("L1 a user's limit of permits is granted at once; further takes wait, interactive ones first", () => {
    const { book, waiting } = recorder()
    expect(book.begin("u", "batch", "b0", 0).granted).toBe(true)
    expect(book.begin("u", "interactive", "i0", 0).granted).toBe(true)
    expect(book.begin("u", "batch", "b1", 0).granted).toBe(false)
    expect(book.begin("u", "interactive", "i1", 0).granted).toBe(false)
    expect(waiting()).toBe(2)
    // Another user's permits are its own.
    expect(book.begin("v", "batch", "x", 0).granted).toBe(true)
    expect(book.users()).toBe(2)
  })

  it("L1 a permit comes back once its hold past the answer has passed, to the first interactive waiter", () => {
    const { book, wake, woken, waiting } = recorder()
    const first = book.begin("u", "interactive", "a", 0)
    book.begin("u", "interactive", "b", 0)
    const batch = book.begin("u", "batch", "c", 0)
    const interactive = book.begin("u", "interactive", "d", 0)
    expect([batch.granted, interactive.granted]).toEqual([false, false])
    const until = book.release(first, 10, hold, 200)
    expect(until).toBe(1_200)
    expect(book.budget("u", 300)).toEqual({ used: 2, limit: 2, left: 0, resetsAt: 1_200 })
    wake(book.returned(first, until, 1_200))
    expect(woken).toEqual(["d"])
    expect(waiting()).toBe(1)
  })

  it("L1 a hold from the take lasts past an early answer", () => {
    const { book } = recorder()
    const take = book.begin("u", "interactive", "a", 0)
    expect(book.release(take, 100, { afterAnswerMillis: 0, afterTakeMillis: 1_000 }, 150)).toBe(1_100)
  })

  it("L1 a waiter that stops waiting leaves its place; one handed a permit meanwhile passes it on", () => {
    const { book, wake, woken, waiting } = recorder()
    const a = book.begin("u", "interactive", "a", 0)
    book.begin("u", "interactive", "b", 0)
    const c = book.begin("u", "interactive", "c", 0)
    const d = book.begin("u", "interactive", "d", 0)
    wake(book.stopWaiting(c, 5))
    expect(woken).toEqual([])
    expect(waiting()).toBe(1)
    // `d` is handed a's permit, then stops waiting before it runs: the permit is free again.
    wake(book.returned(a, book.release(a, 0, hold, 0), 1_000))
    expect(woken).toEqual(["d"])
    wake(book.stopWaiting(d, 1_000))
    expect(woken).toEqual(["d"])
    expect(book.budget("u", 1_000)).toMatchObject({ used: 1, left: 1 })
    expect(waiting()).toBe(0)
  })

  it("L1 a permit taken and abandoned before its request is sent goes to the next waiter", () => {
    const { book, wake, woken } = recorder()
    const a = book.begin("u", "interactive", "a", 0)
    book.begin("u", "interactive", "b", 0)
    book.begin("u", "batch", "c", 0)
    wake(book.abandon(a, 1))
    expect(woken).toEqual(["c"])
  })

  it("L1 after a refusal for the rate every take of the user waits out the block, and the budget says so", () => {
    const { book } = recorder()
    book.block("u", 1_020, 100)
    const take = book.begin("u", "interactive", "a", 200)
    expect(take.granted).toBe(true)
    expect(book.blockedFor(take, 200)).toBe(920)
    expect(book.blockedFor(take, 2_000)).toBe(0)
    expect(book.budget("u", 200)).toEqual({ used: 2, limit: 2, left: 0, resetsAt: 1_120 })
  })

  it("L1 a user leaves memory once nothing of it is taken, waited for, held or blocked", () => {
    const { book } = recorder()
    const a = book.begin("u", "interactive", "a", 0)
    const b = book.begin("u", "interactive", "b", 0)
    book.returned(a, book.release(a, 0, hold, 10), 1_010)
    expect(book.users()).toBe(1)
    book.abandon(b, 1_020)
    expect(book.users()).toBe(0)
    expect(book.budget("u", 1_020)).toEqual({ used: 0, limit: 2, left: 2, resetsAt: 1_020 })
    book.block("w", 500, 2_000)
    expect(book.users()).toBe(1)
  })

  it("L1 a book given `wake` hands it each waiter a freed permit goes to, as it returns it", () => {
    const woken: Array<string> = []
    const book = PermitBook.make<string>({ limit: 1, wake: (waiter) => woken.push(waiter) })
    const a = book.begin("u", "interactive", "a", 0)
    const b = book.begin("u", "batch", "b", 0)
    book.begin("u", "interactive", "c", 0)
    expect(book.abandon(a, 1)).toBe("c")
    expect(woken).toEqual(["c"])
    expect(book.stopWaiting(b, 2)).toBeUndefined()
    expect(woken).toEqual(["c"])
  })
})

describe("PermitBook.store", () => {
  /** A memory store of one permit per user over synchronous effects, on a manual clock from 0. */
  const world = () => {
    const log: Array<string> = []
    const clock = { millis: 0 }
    const { effects, timers } = SyncEffects.memory(log, clock)
    const book = PermitBook.make<SyncEffects.Waiter>({ limit: 1, wake: (waiter) => (waiter.woken = true) })
    return { clock, log, store: PermitBook.store<SyncEffects.F, SyncEffects.Waiter>(effects, book), timers }
  }
  const valueOf = <A>(result: SyncEffects.Result<A, never>): A => {
    if (!result.ok) throw new Error("failed")
    return result.value
  }

  it("L1 a permit is taken at once and held on the timer after its answer, until its hold has passed", () => {
    const { clock, log, store, timers } = world()
    const permit = valueOf(store.take("owner")())
    expect(store.limit).toBe(1)
    expect(valueOf(store.users())).toBe(1)
    clock.millis = 100
    valueOf(store.release(permit, hold)())
    expect(log).toEqual(["hold until 1100"])
    expect(valueOf(store.budget("owner")())).toMatchObject({ used: 1, left: 0, resetsAt: 1_100 })
    timers[0]!.due(1_100)
    expect(valueOf(store.budget("owner")())).toMatchObject({ used: 0, left: 1 })
  })

  it("L1 a take that finds no permit free waits for the one given back; after a refusal, it waits out the block", () => {
    const { clock, log, store } = world()
    const first = valueOf(store.take("owner")())
    valueOf(store.release(first, hold)())
    const second = valueOf(store.take("owner", "batch")())
    expect(clock.millis).toBe(1_000)
    expect(log).toEqual(["hold until 1000", "woken"])
    valueOf(store.release(second, hold)())
    clock.millis = 2_000
    valueOf(store.block("owner", 500)())
    const third = valueOf(store.take("owner")())
    expect(log.slice(2)).toEqual(["hold until 2000", "woken", "sleep 500"])
    expect((third as PermitBook.Permit<SyncEffects.Waiter>).takenAt).toBe(2_500)
  })
})
