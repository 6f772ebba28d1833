import { describe, expect, it } from "vitest"
import * as OptionRules from "../src/OptionRules.js"

/** A line's reading: a duration is `{ millis }`, a secret `{ redacted }`. */
const reading: OptionRules.Reading = {
  millis: (given) =>
    typeof given === "number"
      ? given
      : typeof given === "object" && given !== null && "millis" in given
      ? Number(given.millis)
      : undefined,
  secret: (given) =>
    typeof given === "object" && given !== null && "redacted" in given ? { text: given.redacted } : undefined
}
const base = { baseUrl: "https://host/external-api/v2", token: { redacted: "thp_1" } }

describe("OptionRules", () => {
  it("a duration must be greater than zero, finite unless told, and a duration at all", () => {
    expect(OptionRules.duration(0, 0)).toBe("must be a duration greater than zero, not 0 millis")
    expect(OptionRules.duration(-5000, -5000)).toBe("must be a duration greater than zero, not -5000 millis")
    expect(OptionRules.duration(undefined, "10s")).toBe(
      "must be a duration greater than zero (a Duration, a number of millis or a text such as \"10 seconds\"), not \"10s\""
    )
    expect(OptionRules.duration(Infinity, Infinity)).toBe(
      "must be a duration greater than zero and finite, not an infinite one"
    )
    expect(OptionRules.duration(Infinity, Infinity, { infinite: true })).toBeUndefined()
    expect(OptionRules.duration(0, 0, { zero: true })).toBeUndefined()
    expect(OptionRules.duration(1, 1)).toBeUndefined()
  })

  it("L1 a pacing limit is at most the API's 30 a second; creation limits at most 20 a minute and 200 a day", () => {
    expect(OptionRules.pacingLimit(30)).toBeUndefined()
    expect(OptionRules.pacingLimit(300)).toBe(
      "must be a whole number from 1 to 30 (the API allows 30 requests a second and answers error 5 past them), not 300"
    )
    expect(OptionRules.pacingLimit(0)).toMatch(/not 0$/)
    expect(OptionRules.pacingLimit(1.5)).toMatch(/not 1.5$/)
    expect(OptionRules.pacingLimit("30")).toMatch(/not "30"$/)
    expect(OptionRules.creations("minute", 21)).toBe(
      "must be a whole number from 1 to 20 (the API allows 20 creations a minute), not 21"
    )
    expect(OptionRules.creations("day", 200)).toBeUndefined()
  })

  it("a share is from 0 to 1, a choice one of its values", () => {
    expect(OptionRules.share(1.5)).toBe("must be a number from 0 to 1, not 1.5")
    expect(OptionRules.share(0)).toBeUndefined()
    expect(OptionRules.oneOf("ignore", ["fail", "fallback"])).toBe("must be \"fail\" or \"fallback\", not \"ignore\"")
    expect(OptionRules.oneOf("fallback", ["fail", "fallback"])).toBeUndefined()
  })

  it("a token must be Redacted and not blank, and is never shown", () => {
    expect(OptionRules.token("thp_secret", false, undefined)).toBe(
      "must be Redacted (Redacted.make(token), or Config.redacted from the environment), not a plain string"
    )
    expect(OptionRules.token(undefined, false, undefined)).toMatch(/not missing$/)
    expect(OptionRules.token({}, true, " ")).toBe("must not be empty: the API refuses every call without a token")
    expect(OptionRules.token({}, true, "thp_1")).toBeUndefined()
  })

  it("a Redis URL is of a known scheme, its database a number; never shown", () => {
    for (const url of ["redis://h:6379", "rediss://:p@h/2", "redis+cluster://a:1,b:2", "REDISS+CLUSTER://a:1"]) {
      expect(OptionRules.redisUrl(url)).toBeUndefined()
    }
    expect(OptionRules.redisUrl("http://u:pw@127.0.0.1:6390")).toBe(
      "must be a URL of redis:, rediss:, redis+cluster:, rediss+cluster: (such as redis://host:6379/0), not one of http:"
    )
    expect(OptionRules.redisUrl("127.0.0.1:6390")).toMatch(/not a text without one$/)
    expect(OptionRules.redisUrl("redis://h/db")).toMatch(/its path names a database by its number, not "\/db"$/)
    expect(OptionRules.redisUrl(6379)).toMatch(/not 6379$/)
  })

  it("a client's options: the first refused, named, the base URL and token required", () => {
    expect(OptionRules.client(base, reading)).toBeUndefined()
    expect(OptionRules.client({ ...base, timeout: { millis: -5000 } }, reading)).toEqual({
      option: "timeout",
      reason: "must be a duration greater than zero, not -5000 millis"
    })
    expect(OptionRules.client({ ...base, timeout: "10s" }, reading)?.option).toBe("timeout")
    expect(OptionRules.client({ ...base, token: "thp_1" }, reading)?.option).toBe("token")
    expect(OptionRules.client({ ...base, token: { redacted: "" } }, reading)?.option).toBe("token")
    expect(OptionRules.client({ baseUrl: base.baseUrl }, reading)?.option).toBe("token")
    expect(OptionRules.client({ token: base.token }, reading)?.option).toBe("baseUrl")
    expect(OptionRules.client({ ...base, deadline: { millis: 0 } }, reading)?.option).toBe("deadline")
    expect(OptionRules.client({ ...base, maxResponseBytes: 0 }, reading)?.option).toBe("maxResponseBytes")
    expect(OptionRules.client({ ...base, retry: { limitRetries: -1 } }, reading)?.option).toBe("retry.limitRetries")
    expect(OptionRules.client({ ...base, userKey: " " }, reading)?.option).toBe("userKey")
    expect(OptionRules.client({ ...base, onCreationLimit: "queue" }, reading)?.option).toBe("onCreationLimit")
    expect(OptionRules.client({ ...base, lane: "bulk" }, reading)?.option).toBe("lane")
    expect(OptionRules.client({ ...base, auth: "query" }, reading)?.option).toBe("auth")
    expect(OptionRules.client(undefined, reading)?.option).toBe("config")
  })

  it("the limiters' and the stores' options: each named with what it takes", () => {
    expect(OptionRules.pacing({ limit: 300 }, reading)?.option).toBe("limit")
    expect(OptionRules.pacing({ window: { millis: 0 } }, reading)?.option).toBe("window")
    expect(OptionRules.pacing({ margin: { millis: 0 } }, reading)).toBeUndefined()
    expect(OptionRules.pacing({ hold: "never" }, reading)?.option).toBe("hold")
    expect(OptionRules.pacing(undefined, reading)).toBeUndefined()
    expect(OptionRules.quota({ perMinute: 30 })?.option).toBe("perMinute")
    expect(OptionRules.quota({ perDay: 0 })?.option).toBe("perDay")
    const url = "redis://h:6379"
    expect(OptionRules.store({ url }, reading)).toBeUndefined()
    expect(OptionRules.store({ url: { redacted: url } }, reading)).toBeUndefined()
    expect(OptionRules.store({ url: { redacted: "http://h" } }, reading)?.option).toBe("url")
    expect(OptionRules.store({}, reading)?.option).toBe("url")
    expect(OptionRules.store({ url, lease: { millis: 0 } }, reading)).toEqual({
      option: "lease",
      reason: "must be a duration greater than zero, not 0 millis"
    })
    expect(OptionRules.store({ url, lease: { millis: 2999 } }, reading)).toEqual({
      option: "lease",
      reason: "must be at least 3 times the store's timeout (3000 ms with a timeout of 1000 ms: a permit is renewed " +
        "every third of its lease, and a renewal may take the timeout), not 2999 ms"
    })
    expect(OptionRules.store({ url, lease: { millis: 3000 } }, reading)).toBeUndefined()
    expect(OptionRules.store({ url, lease: { millis: 600 }, timeout: { millis: 200 } }, reading)).toBeUndefined()
    expect(OptionRules.store({ url, lease: { millis: 600 }, timeout: { millis: 201 } }, reading)?.option).toBe("lease")
    expect(OptionRules.store({ url, timeout: { millis: -1 } }, reading)?.option).toBe("timeout")
    expect(OptionRules.store({ url, onUnavailable: "ignore" }, reading)?.option).toBe("onUnavailable")
    expect(OptionRules.store({ url, interactiveShare: 1.5 }, reading)?.option).toBe("interactiveShare")
    expect(OptionRules.store({ url, prefix: 5 }, reading)?.option).toBe("prefix")
  })
})
