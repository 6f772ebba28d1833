/**
 * Where the limiters come from: their defaults are the contract's `Limits`, and a client made with no
 * limiter layer uses the process-wide instances (the documented default), never unpaced ones.
 */
import * as Limits from "@community-api/core/Limits"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect } from "effect"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"

describe("Limiters", () => {
  it("L1 L2 the limiters' defaults are the contract's limits", () => {
    expect(Pacing.defaults.limit).toBe(Limits.requestsPerWindow)
    expect(Duration.toMillis(Pacing.defaults.window)).toBe(Limits.rateWindowMillis)
    expect(Pacing.global.settings).toMatchObject({
      limit: Limits.requestsPerWindow,
      windowMillis: Limits.rateWindowMillis
    })
    expect(CreationQuota.defaults).toEqual({ perMinute: Limits.creationsPerMinute, perDay: Limits.creationsPerDay })
  })

  it.effect("L1 L2 with no layer the limiters are the process-wide ones; a layer replaces them", () =>
    Effect.gen(function*() {
      expect(yield* Pacing.Pacing).toBe(Pacing.global)
      expect(yield* CreationQuota.CreationQuota).toBe(CreationQuota.global)
      const own = yield* Effect.provide(Pacing.Pacing, Pacing.layer({ limit: 3 }))
      expect(own).not.toBe(Pacing.global)
      expect(own.settings.limit).toBe(3)
      const quota = yield* Effect.provide(CreationQuota.CreationQuota, CreationQuota.layer())
      expect(quota).not.toBe(CreationQuota.global)
    }))

  it.effect("L2 L4 the quota counts by the contract's calendar: 20 in a minute, the 21st waits for the next", () =>
    Effect.gen(function*() {
      const quota = yield* CreationQuota.make()
      for (let i = 0; i < Limits.creationsPerMinute; i++) yield* quota.acquire("u", "vars/create", "fail")
      const error = yield* Effect.flip(quota.acquire("u", "vars/create", "fail"))
      expect(error.window).toBe("minute")
      expect(DateTime.toEpochMillis(error.resetsAt)).toBe(Limits.nextMinute(0))
      // Error 5 on a creation: the rest of the minute is used up for that user, not for another one.
      yield* quota.exhaustMinute("v")
      expect((yield* Effect.flip(quota.acquire("v", "vars/create", "fail"))).window).toBe("minute")
    }))
})
