/**
 * The pacing service of either line without a runtime: its settings resolved from the options, the
 * rule of each user applied to the calls it is told of, the sweeper of the idle rules, and a refusal.
 */
import { describe, expect, it } from "vitest"
import * as PacingBook from "../src/PacingBook.js"
import * as PacingRule from "../src/PacingRule.js"
import * as SyncEffects from "./support/SyncEffects.js"

const settings = PacingRule.defaults
const safeHold = settings.windowMillis + settings.marginMillis

/** A book whose users and held permits are noted, as a line's metrics note them. */
const recorder = (hold?: "learned" | "safe") => {
  const users: Array<[string, number]> = []
  const held: Array<[string, number, number]> = []
  let permits = 0
  const book = PacingBook.make(settings, {
    hold,
    onUsers: (change) => users.push(["", change]),
    onDrop: (user) => users.push([user, 0]),
    onPermits: (change) => (permits += change),
    onHeld: (user, count) => held.push([user, count, permits])
  })
  return { book, users, held }
}

/** One call of `user` from `at`: its permit taken `waited` later, its answer `heldMillis` after that. */
const call = (book: PacingBook.PacingBook, user: string, at: number, waited: number, heldMillis: number) => {
  const c = book.begin(user, at)
  expect(book.taken(c, at + waited)).toBe(waited)
  const hold = book.answered(c, at + waited + heldMillis)
  book.settle(c, at + waited + heldMillis)
  return hold
}

describe("PacingBook", () => {
  it("L1 the defaults are the pacing rule's, in a line's durations", () => {
    expect(PacingBook.defaultsIn((millis) => `${millis} ms`)).toEqual({ limit: 30, window: "1000 ms", margin: "20 ms" })
  })

  it("L1 the settings are the pacing rule's defaults, or the options' durations read by the line", () => {
    expect(PacingBook.resolve(30, {}, () => 0)).toEqual(settings)
    expect(PacingBook.resolve(10, { window: "2 s", margin: "5 ms" }, (d) => (d === "2 s" ? 2_000 : 5))).toEqual({
      limit: 10,
      windowMillis: 2_000,
      marginMillis: 5
    })
  })

  it("L1 a call's permit is held a window and the margin after its answer until its user's rule has learnt", () => {
    const { book, held } = recorder()
    const c = book.begin("u", 0)
    expect(c.held()).toBe(0)
    expect(book.taken(c, 40)).toBe(40)
    expect(c.held()).toBe(1)
    expect(book.answered(c, 140)).toEqual({ afterAnswerMillis: safeHold, afterTakeMillis: 0 })
    expect(held).toEqual([["u", 1, 1], ["u", 0, 0]])
  })

  it("L1 with round trips in a band, the learning rule gives back what they share; the safe rule never", () => {
    const learned = recorder().book
    const safe = recorder("safe").book
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) {
      call(learned, "u", i * 200, 0, 100 + (i % 2) * 10)
      call(safe, "u", i * 200, 0, 100 + (i % 2) * 10)
    }
    // Held 105 ms in a band of 100 to 110: 95 ms of it is the same in every request.
    const next = PacingRule.observationsBeforeTrust * 200
    expect(call(learned, "u", next, 0, 105).afterAnswerMillis).toBe(safeHold - 95)
    expect(call(safe, "u", next, 0, 105).afterAnswerMillis).toBe(safeHold)
  })

  it("L1 after a refusal the user's rule forgets what it learnt, and the store blocks a window and the margin", () => {
    const { book } = recorder()
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) call(book, "u", i * 200, 0, 100)
    const next = PacingRule.observationsBeforeTrust * 200
    expect(call(book, "u", next, 0, 100).afterAnswerMillis).toBeLessThan(safeHold)
    expect(book.refused("u")).toBe(safeHold)
    expect(call(book, "u", next + 200, 0, 100).afterAnswerMillis).toBe(safeHold)
    // A user the book does not know is blocked all the same.
    expect(book.refused("v")).toBe(safeHold)
    expect(book.users()).toBe(1)
  })

  it("L1 a user who comes back after its rule left learns again, with the full hold until then", () => {
    const { book, users } = recorder()
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) call(book, "u", i * 200, 0, 100)
    expect(call(book, "u", 10_000, 0, 100).afterAnswerMillis).toBe(safeHold)
    expect(users).toEqual([["", 1], ["", -1], ["u", 0], ["", 1]])
  })

  it("L1 one sweeper is started by the first call that ends, and goes on while a rule is kept", () => {
    const { book, users } = recorder()
    expect(book.idleMillis).toBe(safeHold)
    const a = book.begin("a", 0)
    const b = book.begin("b", 0)
    expect(book.settle(a, 10)).toBe(true)
    expect(book.settle(b, 500)).toBe(false)
    // A window and the margin after a's end: a leaves, b stays a while.
    expect(book.sweep(10 + safeHold)).toBe(true)
    expect(users).toEqual([["", 1], ["", 1], ["", -1], ["a", 0]])
    expect(book.sweep(500 + safeHold)).toBe(false)
    expect(book.users()).toBe(0)
    // Stopped with the last rule: the next call that ends starts it again.
    expect(book.settle(book.begin("c", 2_000), 2_000)).toBe(true)
  })

  it("L1 a user with a call waiting or in flight is never swept", () => {
    const { book } = recorder()
    const waiting = book.begin("u", 0)
    book.settle(book.begin("u", 0), 0)
    expect(book.sweep(10 * safeHold)).toBe(true)
    expect(book.users()).toBe(1)
    book.settle(waiting, 10 * safeHold)
    expect(book.sweep(11 * safeHold)).toBe(false)
  })

  it("says why a block was not stored", () => {
    expect(PacingBook.blockNotStored(new Error("down"))).toBe("pacing: the block after error 5 was not stored: down")
    expect(PacingBook.blockNotStored("gone")).toBe("pacing: the block after error 5 was not stored: gone")
  })
})

describe("PacingBook.shape and sweeper", () => {
  it("L1 a refusal blocks the user's takes in the store for a window and the margin; a block not stored is logged", () => {
    const log: Array<string> = []
    const { book } = recorder()
    const blocks: Array<[string, number]> = []
    const store = {
      budget: () => SyncEffects.succeed({ used: 1, limit: 30, left: 29, resetsAt: 0 }),
      block: (user: string, millis: number) =>
        user === "down"
          ? () => ({ ok: false as const, error: new Error("unreachable") })
          : () => ({ ok: true as const, value: void blocks.push([user, millis]) })
    }
    const shape = PacingBook.shape<SyncEffects.F, string, Error>(SyncEffects.effects(log, { millis: 0 }), store, book)
    expect(shape.settings).toEqual(settings)
    call(book, "owner", 0, 0, 100)
    expect(shape.users()).toEqual({ ok: true, value: 1 })
    expect(shape.budget("owner")()).toEqual({
      ok: true,
      value: { used: 1, limit: 30, left: 29, resetsAt: new Date(0).toISOString() }
    })
    shape.penalize("owner")()
    shape.penalize("down")()
    expect(blocks).toEqual([["owner", safeHold]])
    expect(log).toEqual(["debug: " + PacingBook.blockNotStored(new Error("unreachable"))])
  })

  it("L1 the sweeper idles a window and the margin between sweeps, and stops once no rule is left", () => {
    const log: Array<string> = []
    const clock = { millis: 0 }
    const { book } = recorder()
    call(book, "owner", 0, 0, 100)
    const sweeper = PacingBook.sweeper<SyncEffects.F>(SyncEffects.effects(log, clock), book)
    expect(sweeper()).toEqual({ ok: true, value: undefined })
    expect(book.users()).toBe(0)
    expect(log).toEqual([`idle ${safeHold}`, `idle ${safeHold}`])
  })
})
