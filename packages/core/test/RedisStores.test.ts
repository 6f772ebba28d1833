/**
 * The two stores of either line's `RedisStore` as data: the limiter each serves, the rules of its
 * options and its settings with their defaults.
 */
import { describe, expect, it } from "vitest"
import type * as OptionRules from "../src/OptionRules.js"
import * as RedisStores from "../src/RedisStores.js"

const reading: OptionRules.Reading = {
  millis: (given) => typeof given === "number" ? given : undefined,
  secret: () => undefined
}

describe("RedisStores", () => {
  it("L1 the pacing permits: the store's options and the pacing's limit are checked; the lease given or 10 s", () => {
    const { permits } = RedisStores
    expect(permits.limiter).toBe("pacing")
    expect(permits.refusal({ url: "redis://localhost:6379", limit: 10 } as never, reading)).toBeUndefined()
    expect(permits.refusal({ url: "redis://localhost:6379", limit: 31 } as never, reading)?.option).toBe("limit")
    expect(permits.refusal({ url: "http://localhost" } as never, reading)?.option).toBe("url")
    expect(permits.settings({ limit: 10 }, undefined)).toEqual({ limit: 10, leaseMillis: 10_000, kept: 2 })
    expect(permits.settings({ interactiveShare: 0 }, 3_000)).toEqual({ limit: 30, leaseMillis: 3_000, kept: 0 })
  })

  it("L1 the creation counts: the store's options and the quota are checked; the API's quota by default", () => {
    const { counts } = RedisStores
    expect(counts.limiter).toBe("creation quota")
    expect(counts.refusal({ url: "redis://localhost:6379", perMinute: 5 } as never, reading)).toBeUndefined()
    expect(counts.refusal({ url: "redis://localhost:6379", perDay: 1_000 } as never, reading)?.option).toBe("perDay")
    expect(counts.settings({ perMinute: 5 }, undefined)).toMatchObject({ perMinute: 5, perDay: 200 })
  })
})
