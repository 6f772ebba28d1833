/**
 * What the shared stores decide around this process's memory: the store to build once the Redis
 * module is loaded or not, why it could not be, and one warning per process.
 */
import { describe, expect, it } from "vitest"
import * as StoreFallback from "../src/StoreFallback.js"

describe("StoreFallback", () => {
  it("L1 L2 without the Redis module a store fails or falls back to memory alone, by the options", () => {
    expect(StoreFallback.build(false, "fail")).toBe("fail")
    expect(StoreFallback.build(false, "fallback")).toBe("memory")
  })

  it("L1 L2 with the Redis module a store is Redis alone, or Redis with memory behind it", () => {
    expect(StoreFallback.build(true, "fail")).toBe("shared")
    expect(StoreFallback.build(true, "fallback")).toBe("fallback")
  })

  it("the reason a missing module gives names the package to install", () => {
    expect(StoreFallback.moduleMissing(new Error("Cannot find package 'ioredis'"))).toBe(
      "the Redis store needs the package ioredis (npm install ioredis@^5): Cannot find package 'ioredis'"
    )
  })

  it("a store whose module is missing is named without credentials, with the package to install", () => {
    expect(StoreFallback.moduleUnavailable("pacing", "redis://:s3cret@localhost:6379/2", new Error("gone"))).toEqual({
      limiter: "pacing",
      store: "redis://localhost:6379/2",
      reason: "the Redis store needs the package ioredis (npm install ioredis@^5): gone"
    })
  })

  it("L1 L2 a process warns once that its limiters fell back to memory, naming the store and the reason", () => {
    const warned: StoreFallback.Warned = { done: false }
    const unavailable = { store: "redis://localhost:6379", reason: "connection refused" }
    const first = StoreFallback.warning(warned, unavailable)
    expect(first).toContain("(redis://localhost:6379: connection refused)")
    expect(first).toContain("falls back to its own limiters")
    expect(StoreFallback.warning(warned, unavailable)).toBeUndefined()
    expect(warned.done).toBe(true)
  })
})
