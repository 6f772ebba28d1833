/**
 * The timers of one clock in one list: fired once each when due, in the order they fall due, a removed
 * one never, and safe against callbacks that add or remove timers while the list fires.
 */
import { describe, expect, it } from "vitest"
import * as TimerList from "../src/TimerList.js"

describe("TimerList", () => {
  it("fires each timer once when due, in the order they fall due, ties in the order added", () => {
    const list = TimerList.make()
    const fired: Array<[string, number]> = []
    const add = (name: string, at: number) => list.add(at, (now) => fired.push([name, now]))
    add("c", 300)
    add("a", 100)
    add("b1", 200)
    add("b2", 200)
    expect(list.next()).toBe(100)
    expect(list.size()).toBe(4)
    list.fire(99)
    expect(fired).toEqual([])
    list.fire(200)
    expect(fired).toEqual([["a", 200], ["b1", 200], ["b2", 200]])
    expect(list.next()).toBe(300)
    list.fire(1000)
    list.fire(2000)
    expect(fired.map(([name]) => name)).toEqual(["a", "b1", "b2", "c"])
    expect(list.size()).toBe(0)
    expect(list.next()).toBeUndefined()
  })

  it("a removed timer is never fired; removing it again, or once fired, says so", () => {
    const list = TimerList.make()
    const fired: Array<string> = []
    const a = list.add(100, () => fired.push("a"))
    const b = list.add(200, () => fired.push("b"))
    expect(list.remove(b)).toBe(true)
    expect(list.remove(b)).toBe(false)
    expect(list.next()).toBe(100)
    list.fire(500)
    expect(fired).toEqual(["a"])
    expect(list.remove(a)).toBe(false)
    expect(list.size()).toBe(0)
    expect(list.next()).toBeUndefined()
  })

  it("callbacks may add and remove timers while the list fires", () => {
    const list = TimerList.make()
    const fired: Array<string> = []
    list.add(100, () => {
      fired.push("a")
      expect(list.firing()).toBe(true)
      // Due already: fired in the same pass, after the one firing now.
      list.add(50, () => fired.push("added, due"))
      // Not due yet: kept for later.
      list.add(400, () => fired.push("added, later"))
      list.remove(late)
    })
    const late = list.add(150, () => fired.push("removed"))
    list.add(150, () => fired.push("b"))
    list.fire(200)
    expect(list.firing()).toBe(false)
    expect(fired).toEqual(["a", "added, due", "b"])
    expect(list.next()).toBe(400)
    list.fire(400)
    expect(fired).toEqual(["a", "added, due", "b", "added, later"])
  })

  it("thousands of timers in and out of order keep their order and leave no memory behind", () => {
    const list = TimerList.make()
    const fired: Array<number> = []
    const kept: Array<TimerList.Timer> = []
    for (let i = 0; i < 5000; i++) {
      // Mostly in order, every tenth one earlier than those before it.
      const at = i % 10 === 0 ? i - 35 : i
      kept.push(list.add(at, () => fired.push(at)))
    }
    for (let i = 0; i < 5000; i += 3) list.remove(kept[i]!)
    for (let now = 0; now < 5000 + 7; now += 7) list.fire(now)
    const expected = kept.filter((_, i) => i % 3 !== 0).map((timer) => timer.at).sort((a, b) => a - b)
    expect(fired).toEqual(expected)
    expect(list.size()).toBe(0)
  })

  it("the waiter sleeps whole milliseconds, at least one, never a rounding short of the next", () => {
    expect(TimerList.wakeDelay(1000, 0)).toBe(1000)
    expect(TimerList.wakeDelay(1000.0003217, 0.7312097)).toBe(1000)
    expect(TimerList.wakeDelay(10.2, 10)).toBe(1)
    expect(TimerList.wakeDelay(10, 10)).toBe(1)
    expect(TimerList.wakeDelay(5, 10)).toBe(1)
    // Whatever the fractions, now plus the delay reaches the next.
    for (let i = 0; i < 1000; i++) {
      const now = i * 3.7312097
      const next = now + 1000.0003217 + (i % 5) * 0.0000001
      expect(now + TimerList.wakeDelay(next, now)).toBeGreaterThanOrEqual(next)
    }
  })
})
