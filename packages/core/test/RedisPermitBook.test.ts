/**
 * This process's side of the permits in Redis, as both lines' Redis stores carry it out: which calls
 * to send, what a take's reply grants to which waiter, and when a user's entry may go. No Redis here:
 * the replies are written as the take script answers (`RedisScripts.readTake`), and Redis itself runs
 * the scripts in the clients' suites.
 */
import { describe, expect, it } from "vitest"
import * as RedisPermitBook from "../src/RedisPermitBook.js"

const make = () =>
  RedisPermitBook.make<string>({ prefix: "t:", limit: 30, leaseMillis: 3_000, kept: 3, processId: "p" })

/** A take script's reply: the wait in microseconds, then each permit's name and delay in microseconds. */
const reply = (waitMillis: number, granted: ReadonlyArray<[string, number]>) => [
  waitMillis * 1000,
  ...granted.flatMap(([name, delayMillis]) => [name, delayMillis * 1000])
]

describe("RedisPermitBook", () => {
  it("L1 the first waiter of a user starts its asking loop; the take asks for every waiter, interactive ones counted", () => {
    const book = make()
    const entry = book.entry("u", 0)
    expect(book.enqueue(entry, "batch", "b0")).toBe(true)
    expect(book.enqueue(entry, "interactive", "i0")).toBe(false)
    expect(book.enqueue(entry, "batch", "b1")).toBe(false)
    const take = book.nextTake(entry, 0)!
    expect({ count: take.count, interactive: take.interactive }).toEqual({ count: 3, interactive: 1 })
    expect(take.call.script).toBe("communityApiTakePermits")
    expect(take.call.keys[0]).toBe("t:{u}:permits:in-flight")
    expect(take.call.args).toEqual(expect.arrayContaining([30, take.namePrefix, 3, 1]))
    // Each take's names are this process's own and never repeat.
    expect(book.nextTake(entry, 0)!.namePrefix).not.toBe(take.namePrefix)
  })

  it("L1 a take's permits go to the interactive waiters first, then the batch ones, in the order they came", () => {
    const book = make()
    const entry = book.entry("u", 0)
    for (const [lane, name] of [["batch", "b0"], ["interactive", "i0"], ["batch", "b1"]] as const) {
      book.enqueue(entry, lane, name)
    }
    const take = book.nextTake(entry, 0)!
    const { granted, sleepMillis } = book.answered(entry, take, reply(40.5, [["p-0-1", 0], ["p-0-2", 12]]))
    expect(granted).toEqual([
      { name: "p-0-1", delayMillis: 0, waiter: "i0" },
      { name: "p-0-2", delayMillis: 12, waiter: "b0" }
    ])
    // One still waits: the loop sleeps what Redis said, in whole milliseconds, then asks again.
    expect(sleepMillis).toBe(41)
    expect(book.nextTake(entry, 41)!.count).toBe(1)
  })

  it("L1 a permit whose waiter stopped waiting meanwhile has no waiter: it goes back unused", () => {
    const book = make()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "interactive", "a")
    const take = book.nextTake(entry, 0)!
    expect(book.remove(entry, "interactive", "a", 1)).toBe(true)
    const { granted, sleepMillis } = book.answered(entry, take, reply(0, [["p-0-1", 0]]))
    expect(granted).toEqual([{ name: "p-0-1", delayMillis: 0, waiter: undefined }])
    expect(sleepMillis).toBeUndefined()
    expect(book.release(entry, "p-0-1", RedisPermitBook.unused).args).toEqual(["p-0-1", 0, 0])
    // A waiter already handed its permit is not found.
    expect(book.remove(entry, "interactive", "a", 2)).toBe(false)
  })

  it("L1 the permits in flight here are renewed until given back", () => {
    const book = make()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "interactive", "a")
    book.enqueue(entry, "interactive", "b")
    book.answered(entry, book.nextTake(entry, 0)!, reply(0, [["p-0-1", 0], ["p-0-2", 0]]))
    expect(book.renewals().map(({ call }) => call?.args)).toEqual([[3_000_000, "p-0-1", "p-0-2"]])
    book.release(entry, "p-0-1", { afterAnswerMillis: 1_020, afterTakeMillis: 0 })
    expect(book.renewals().map(({ call }) => call?.args)).toEqual([[3_000_000, "p-0-2"]])
  })

  it("L1 a take with no reply is given back by its names' prefix until a lease after it failed, then forgotten", () => {
    const book = make()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "batch", "a")
    const take = book.nextTake(entry, 100)!
    book.takeFailed(entry, take, 100)
    expect(book.drain(entry)).toEqual(["a"])
    const pending = book.pendingReturn(entry, 200)!
    expect(pending.call).toMatchObject({ script: "communityApiReturnTake", args: [take.namePrefix] })
    expect(pending.unanswered.until).toBe(3_100)
    // Not given back in time (Redis unreachable): once the lease has passed, its permits have lapsed.
    expect(book.pendingReturn(entry, 3_100)).toBeUndefined()
    book.takeFailed(entry, take, 4_000)
    const again = book.pendingReturn(entry, 4_000)!
    book.returned(entry, again.unanswered, 4_001)
    expect(book.pendingReturn(entry, 4_002)).toBeUndefined()
  })

  it("L1 this process's block of a user holds its granted permits, and blocks the user in Redis", () => {
    const book = make()
    const call = book.block("u", 1_020, 500)
    expect(call).toMatchObject({ script: "communityApiBlockUser", args: [1_020_000] })
    const entry = book.entry("u", 600)
    expect(book.blockedFor(entry, 600)).toBe(920)
    expect(book.blockedFor(entry, 2_000)).toBe(0)
  })

  it("L1 a user's entry goes once nothing of it waits, asks, is in flight, blocked or left to give back", () => {
    const book = make()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "interactive", "a")
    const take = book.nextTake(entry, 0)!
    book.answered(entry, take, reply(0, [["p-0-1", 0]]))
    book.settle("u", 1)
    expect(book.renewals()).toHaveLength(1)
    // The loop ends: nothing waits; the permit in flight still keeps the entry.
    expect(book.nextTake(entry, 2)).toBeUndefined()
    expect(book.renewals()).toHaveLength(1)
    book.release(entry, "p-0-1", RedisPermitBook.unused)
    book.settle("u", 3)
    expect(book.renewals()).toHaveLength(0)
  })

  it("L1 the budget reads the user's permits in Redis", () => {
    const book = make()
    expect(book.readBudget("u")).toMatchObject({
      script: "communityApiReadPermits",
      keys: ["t:{u}:permits:in-flight", "t:{u}:permits:given-back", "t:{u}:blocked"]
    })
  })
})
