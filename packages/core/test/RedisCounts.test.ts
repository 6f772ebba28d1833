/**
 * The creation counts of either line's Redis store: each operation of the count store as one call of
 * the count script and how its reply reads. The script itself runs against a real Redis in the
 * clients' suites.
 */
import { describe, expect, it } from "vitest"
import * as Budget from "../src/Budget.js"
import * as Limits from "../src/Limits.js"
import * as RedisCounts from "../src/RedisCounts.js"
import * as RedisKeys from "../src/RedisKeys.js"
import * as RedisScripts from "../src/RedisScripts.js"

const settings: Limits.CreationSettings = { perMinute: 20, perDay: 500 }
const queries = RedisCounts.make("t:", settings)
const keys = RedisKeys.keysOf("t:", "u")

describe("RedisCounts", () => {
  it("L2 L4 every operation is one call of the count script on the user's key, for the settings given", () => {
    expect(queries.take("u").call).toEqual(RedisScripts.countCreations(keys, settings, { _tag: "take" }))
    expect(queries.retake("u", 7).call).toEqual(
      RedisScripts.countCreations(keys, settings, { _tag: "retake", taken: 7 })
    )
    expect(queries.refund("u", 7).call).toEqual(
      RedisScripts.countCreations(keys, settings, { _tag: "refund", taken: 7 })
    )
    expect(queries.exhaust("u", "day").call).toEqual(
      RedisScripts.countCreations(keys, settings, { _tag: "exhaust", window: "day" })
    )
    expect(queries.usedUp("u").call).toEqual(RedisScripts.countCreations(keys, settings, { _tag: "usedUp" }))
    expect(queries.budget("u").call).toEqual(RedisScripts.readCreations(keys))
  })

  it("L2 L4 the replies read as the verdict, the window used up, and the budget of the counts on Redis's clock", () => {
    expect(queries.take("u").read([1, 42])).toEqual({ _tag: "Taken", at: 42 })
    expect(queries.usedUp("u").read(["minute"])).toBe("minute")
    expect(queries.usedUp("u").read([""])).toBeUndefined()
    expect(queries.refund("u", 1).read([1])).toBeUndefined()
    const now = Limits.dayMillis * 3 + 5_000
    expect(queries.budget("u").read([4, 9, now])).toEqual(
      Budget.creations({ minute: Limits.minuteOf(now), inMinute: 4, day: Limits.dayOf(now), inDay: 9 }, now, settings)
    )
  })

  it("a store over a way to run a query runs each operation's query", () => {
    interface Sync extends RedisCounts.TypeLambda {
      readonly type: this["A"]
    }
    const store = RedisCounts.over<Sync>(
      queries,
      ({ call, read }) => read(call.script === "communityApiCountCreations" ? [1, 7] : [0, 0, 0])
    )
    expect(store.take("u")).toEqual({ _tag: "Taken", at: 7 })
    expect(store.exhaust("u", "minute")).toBeUndefined()
    expect(Object.keys(store).sort()).toEqual(["budget", "exhaust", "refund", "retake", "take", "usedUp"])
  })
})
