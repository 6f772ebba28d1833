/**
 * The options of either line's Redis store with their defaults, in milliseconds.
 */
import { describe, expect, it } from "vitest"
import * as RedisStoreOptions from "../src/RedisStoreOptions.js"

describe("RedisStoreOptions", () => {
  it("L1 L2 the defaults: the keys' prefix, a 1 s timeout, a 10 s lease, fail closed", () => {
    expect(RedisStoreOptions.defaults).toEqual({
      prefix: "community-api:",
      timeoutMillis: 1_000,
      leaseMillis: 10_000,
      onUnavailable: "fail"
    })
    expect(RedisStoreOptions.connection({})).toEqual({
      prefix: "community-api:",
      timeoutMillis: 1_000,
      onUnavailable: "fail"
    })
    expect(RedisStoreOptions.connection({ prefix: "p:", timeoutMillis: 250, onUnavailable: "fallback" })).toEqual({
      prefix: "p:",
      timeoutMillis: 250,
      onUnavailable: "fallback"
    })
  })

  it("L1 the permits: the API's 30 a window, 6 of them kept for interactive calls by default", () => {
    expect(RedisStoreOptions.permits({})).toEqual({ limit: 30, leaseMillis: 10_000, kept: 6 })
    expect(RedisStoreOptions.permits({ limit: 10, leaseMillis: 3_000, interactiveShare: 0.5 })).toEqual({
      limit: 10,
      leaseMillis: 3_000,
      kept: 5
    })
    expect(() => RedisStoreOptions.permits({ interactiveShare: 2 })).toThrow(RangeError)
  })

  it("L1 L2 the defaults with a line's durations", () => {
    expect(RedisStoreOptions.defaultsIn((millis) => `${millis} ms`)).toEqual({
      prefix: "community-api:",
      timeout: "1000 ms",
      lease: "10000 ms",
      onUnavailable: "fail"
    })
  })
})
