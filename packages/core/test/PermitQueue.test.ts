/**
 * One user's permits in one process and its waiters by lane: a permit given back goes to the first
 * interactive waiter, else to the first batch waiter, else it is free; a waiter that stops waiting
 * leaves its place.
 */
import { describe, expect, it } from "vitest"
import * as Lane from "../src/Lane.js"
import * as PermitQueue from "../src/PermitQueue.js"

describe("PermitQueue", () => {
  it("L1 free permits are taken at once, then callers queue by lane and are served interactive first", () => {
    const queue = PermitQueue.make<string>(2)
    expect(queue.take("batch", "b0")).toBe(true)
    expect(queue.take("interactive", "i0")).toBe(true)
    expect(queue.free()).toBe(0)
    for (const name of ["b1", "b2"]) expect(queue.take("batch", name)).toBe(false)
    for (const name of ["i1", "i2"]) expect(queue.take("interactive", name)).toBe(false)
    expect(queue.waiting()).toBe(4)
    expect(queue.waiting("interactive")).toBe(2)
    expect([queue.give(), queue.give(), queue.give(), queue.give()]).toEqual(["i1", "i2", "b1", "b2"])
    expect(queue.give()).toBeUndefined()
    expect(queue.free()).toBe(1)
  })

  it("L1 a waiter removed leaves its place; one already served is not found", () => {
    const queue = PermitQueue.make<string>(0)
    for (const name of ["a", "b", "c"]) queue.take("batch", name)
    expect(queue.remove("batch", "b")).toBe(true)
    expect(queue.give()).toBe("a")
    expect(queue.remove("batch", "a")).toBe(false)
    expect(queue.remove("interactive", "c")).toBe(false)
    expect(queue.give()).toBe("c")
    expect(queue.waiting()).toBe(0)
    expect(queue.give()).toBeUndefined()
    expect(queue.free()).toBe(1)
  })

  it("L1 100,000 waiters through one lane come out in order, and the lane's memory does not keep them", () => {
    const queue = PermitQueue.make<number>(0)
    const served: Array<number> = []
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 10_000; i++) queue.take("batch", round * 10_000 + i)
      for (let i = 0; i < 10_000; i++) served.push(queue.give()!)
    }
    expect(served).toEqual(Array.from({ length: 100_000 }, (_, i) => i))
    expect(queue.waiting()).toBe(0)
  })

  it("L1 the interactive share of a window: rounded down, never all of it, and refused outside 0 to 1", () => {
    expect(Lane.reserved(30, Lane.defaults.interactiveShare)).toBe(6)
    expect(Lane.reserved(30, 0)).toBe(0)
    expect(Lane.reserved(30, 1)).toBe(29)
    expect(Lane.reserved(30, 0.25)).toBe(7)
    expect(() => Lane.reserved(30, 1.5)).toThrow(/from 0 to 1/)
    expect(() => Lane.reserved(30, Number.NaN)).toThrow(/from 0 to 1/)
  })
})
