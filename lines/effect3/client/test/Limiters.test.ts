import { Limits } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import suite from "../../../../tests/client-behaviour/scenarios/Limiters.js"
import { register } from "../../../../tests/client-behaviour/src/Scenario.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import { line } from "./support/Driver.js"

register(suite, line, { describe, it })

// The line's own values: its modules' defaults and its layers.
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
})
