/**
 * What every process of a user shares on one Redis, whichever Effect line it runs: the keys, the
 * scripts' texts (Redis knows a script by the SHA-1 of its text) and the order and units of their
 * arguments. A change that fails here is a change to what processes of different versions share.
 * The scripts' behaviour is tested against a real Redis by the client's store tests.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import * as RedisKeys from "../src/RedisKeys.js"
import * as RedisScripts from "../src/RedisScripts.js"

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex")

describe("RedisKeys", () => {
  it("L1 L2 one user's keys under the default prefix, hash-tagged to one cluster slot", () => {
    expect(RedisKeys.defaultPrefix).toBe("community-api:")
    expect(RedisKeys.keysOf(RedisKeys.defaultPrefix, "token:abc:def")).toEqual({
      inFlight: "community-api:{token:abc:def}:permits:in-flight",
      given: "community-api:{token:abc:def}:permits:given-back",
      blocked: "community-api:{token:abc:def}:blocked",
      interactiveWaited: "community-api:{token:abc:def}:permits:interactive-waited",
      creations: "community-api:{token:abc:def}:creations"
    })
    expect(RedisKeys.keysOf("staging/", "bot-7").creations).toBe("staging/{bot-7}:creations")
  })
})

describe("RedisScripts", () => {
  const keys = RedisKeys.keysOf("p:", "u")

  it("L1 L2 the scripts are defined under their names with these texts", () => {
    expect(
      Object.fromEntries(
        Object.entries(RedisScripts.scripts).map(([name, { lua, numberOfKeys }]) => [name, [numberOfKeys, sha1(lua)]])
      )
    ).toEqual({
      communityApiTakePermits: [4, "2ffe4f3b8e4f21e90161b755f0ec4cc764c33150"],
      communityApiRenewPermits: [2, "7cfbc6fdccc0e52350f603f571e2a291c2e549d5"],
      communityApiReleasePermit: [2, "634cd7621208b6a3a9481b8dd6c86bb1e6f14235"],
      communityApiReturnTake: [2, "fc686f4efdfc2a5aa7bfe324c0ec55614ae0316f"],
      communityApiBlockUser: [1, "a5e4db066a80448206222d91c1247dfb850414c9"],
      communityApiCountCreations: [1, "db1d9f4e34e8827b03e3fe965bc0c0fd36d3a526"],
      communityApiReadPermits: [3, "4a5b93a0ca920cba0b5b517a71b52b02f31c89d3"],
      communityApiReadCreations: [1, "72821fdf98ad4e1fc47c608529a9ba262ae04407"]
    })
  })

  it("L1 the pacing calls pass their keys, and their times in microseconds", () => {
    expect(
      RedisScripts.takePermits(keys, {
        limit: 30,
        leaseMillis: 10_000,
        namePrefix: "abc-0",
        pollMillis: 50,
        count: 3,
        leadMillis: 30,
        interactive: 1,
        kept: 6
      })
    ).toEqual({
      script: "communityApiTakePermits",
      keys: [
        "p:{u}:permits:in-flight",
        "p:{u}:permits:given-back",
        "p:{u}:blocked",
        "p:{u}:permits:interactive-waited"
      ],
      args: [30, 10_000_000, "abc-0", 50_000, 3, 30_000, 1, 6, 1_000_000]
    })
    expect(RedisScripts.renewPermits(keys, 10_000, new Set(["a.1:5", "a.2:6"]))).toEqual({
      script: "communityApiRenewPermits",
      keys: ["p:{u}:permits:in-flight", "p:{u}:permits:given-back"],
      args: [10_000_000, "a.1:5", "a.2:6"]
    })
    expect(RedisScripts.releasePermit(keys, "a.1:5", { afterAnswerMillis: 1020.0004, afterTakeMillis: 0 })).toEqual({
      script: "communityApiReleasePermit",
      keys: ["p:{u}:permits:in-flight", "p:{u}:permits:given-back"],
      args: ["a.1:5", 1_020_001, 0]
    })
    expect(RedisScripts.returnTake(keys, "abc-0")).toEqual({
      script: "communityApiReturnTake",
      keys: ["p:{u}:permits:in-flight", "p:{u}:permits:given-back"],
      args: ["abc-0"]
    })
    expect(RedisScripts.blockUser(keys, 1020)).toEqual({
      script: "communityApiBlockUser",
      keys: ["p:{u}:blocked"],
      args: [1_020_000]
    })
    // A fraction of a microsecond is rounded up, never down.
    expect(RedisScripts.micros(0.0001)).toBe(1)
  })

  it("L1 a take's reply reads as the permits granted and the wait, in milliseconds", () => {
    expect(RedisScripts.readTake([0, "abc-0.1:1700000000000000", 0, "abc-0.2:1700000000250000", 250_000])).toEqual({
      waitMillis: 0,
      granted: [
        { name: "abc-0.1:1700000000000000", delayMillis: 0 },
        { name: "abc-0.2:1700000000250000", delayMillis: 250 }
      ]
    })
    expect(RedisScripts.readTake([40_000])).toEqual({ waitMillis: 40, granted: [] })
    expect(RedisScripts.readReturned([3])).toBe(3)
  })

  it("L2 the count calls pass the quota, the calendar in milliseconds and the request's own argument", () => {
    const quota = { perMinute: 20, perDay: 200 }
    const calendar = [20, 200, 60_000, 86_400_000, 0]
    const argsOf = (request: RedisScripts.CountRequest) => {
      const call = RedisScripts.countCreations(keys, quota, request)
      expect(call.script).toBe("communityApiCountCreations")
      expect(call.keys).toEqual(["p:{u}:creations"])
      return call.args
    }
    expect(argsOf({ _tag: "take" })).toEqual(["take", ...calendar])
    expect(argsOf({ _tag: "retake", taken: 1_700_000_000_123 })).toEqual(["retake", ...calendar, 1_700_000_000_123])
    expect(argsOf({ _tag: "refund", taken: 5 })).toEqual(["refund", ...calendar, 5])
    expect(argsOf({ _tag: "exhaust", window: "day" })).toEqual(["exhaust", ...calendar, "day"])
    expect(argsOf({ _tag: "usedUp" })).toEqual(["usedUp", ...calendar])
  })

  it("L2 a count's reply reads as counted, or the window used up with its reset and the Redis time", () => {
    expect(RedisScripts.readVerdict([1, 1_700_000_000_123])).toEqual({ _tag: "Taken", at: 1_700_000_000_123 })
    expect(RedisScripts.readVerdict([0, "minute", 1_700_000_040_000, 1_700_000_000_123])).toEqual({
      _tag: "Exhausted",
      window: "minute",
      resetsAt: 1_700_000_040_000,
      now: 1_700_000_000_123
    })
    expect(RedisScripts.readVerdict([0, "day", 2, 1])).toMatchObject({ window: "day" })
    expect(RedisScripts.readUsedUp(["day"])).toBe("day")
    expect(RedisScripts.readUsedUp(["minute"])).toBe("minute")
    expect(RedisScripts.readUsedUp([""])).toBeUndefined()
  })
})
