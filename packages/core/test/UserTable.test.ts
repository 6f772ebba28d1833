/**
 * The per-user table of the limiters in memory: an entry leaves when its owner says some activity
 * ended and the entry is idle, or at the next sweep (at most once per `sweepEveryMillis`, at a lookup).
 */
import { describe, expect, it } from "vitest"
import * as UserTable from "../src/UserTable.js"

const table = (sweepEveryMillis?: number) =>
  UserTable.make<{ active: number; until: number }>({
    create: () => ({ active: 0, until: 0 }),
    isIdle: (entry, now) => entry.active === 0 && entry.until <= now,
    sweepEveryMillis
  })

describe("UserTable", () => {
  it("L1 an entry is made on first lookup and the same one found after", () => {
    const users = table()
    const a = users.get("a", 0)
    a.active++
    expect(users.get("a", 1)).toBe(a)
    expect(users.peek("b")).toBeUndefined()
    expect(users.size()).toBe(1)
  })

  it("L1 settle drops the entry only when it is idle", () => {
    const users = table()
    const a = users.get("a", 0)
    a.active = 1
    users.settle("a", 0)
    expect(users.size()).toBe(1)
    a.active = 0
    users.settle("a", 0)
    expect(users.size()).toBe(0)
    users.settle("missing", 0)
    expect(users.size()).toBe(0)
  })

  it("L1 what ends by time alone leaves at the next sweep, at most once per period", () => {
    const users = table(1_000)
    users.get("blocked", 0).until = 500
    users.get("busy", 0).active = 1
    // The first lookup swept at 0; the next sweep is due at 1000.
    users.get("other", 600)
    expect(users.size()).toBe(3)
    users.get("other", 1_000)
    expect([...users.entries()].map(([user]) => user).sort()).toEqual(["busy", "other"])
    // "other" is idle too: a sweep now leaves only the busy user.
    users.sweep(1_000)
    expect([...users.entries()].map(([user]) => user)).toEqual(["busy"])
  })
  it("L1 the owner is told of each entry that leaves, by a settle or a sweep", () => {
    const dropped: Array<string> = []
    const users = UserTable.make<{ until: number }>({
      create: () => ({ until: 10 }),
      isIdle: (entry, now) => entry.until <= now,
      onDrop: (user) => dropped.push(user)
    })
    users.get("a", 0)
    users.get("b", 0)
    users.settle("a", 5)
    expect(dropped).toEqual([])
    users.settle("a", 10)
    expect(dropped).toEqual(["a"])
    users.sweep(10)
    expect(dropped).toEqual(["a", "b"])
    expect(users.size()).toBe(0)
  })
})
