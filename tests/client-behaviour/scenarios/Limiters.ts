/**
 * Where the limiters come from: their defaults are the contract's `Limits`, and a client made with no
 * limiter layer uses the process-wide instances (the documented default), never unpaced ones.
 */
import * as Limits from "@community-api/core/Limits"
import { assert, error, failed, ok, quotaRefusal, scenario, succeeded, suite } from "../src/Scenario.js"

const main = { group_id: 218340001, channel: "VK" }
const hex = (i: number) => i.toString(16).padStart(24, "0")

export default suite("Limiters", [
  scenario("L1 L2 the limiters' defaults are the contract's limits", async (line) => {
    const { globalPacing, pacingDefaults, quotaDefaults } = line.constants
    const pacing = { limit: Limits.requestsPerWindow, windowMillis: Limits.rateWindowMillis }
    assert.deepEqual(pacingDefaults, pacing)
    assert.deepEqual({ limit: globalPacing.limit, windowMillis: globalPacing.windowMillis }, pacing)
    assert.deepEqual(quotaDefaults, { perMinute: Limits.creationsPerMinute, perDay: Limits.creationsPerDay })
  }),

  scenario("L1 L2 with no layer the limiters are the process-wide ones; a layer replaces them", async (line) => {
    assert.deepEqual(await line.limiterServices(), {
      pacingIsGlobal: true,
      quotaIsGlobal: true,
      layeredPacingIsGlobal: false,
      layeredPacingLimit: 3,
      layeredQuotaIsGlobal: false
    })
  }),

  scenario(
    "L2 L4 the quota counts by the contract's calendar: 20 in a minute, the 21st waits for the next",
    async (line) => {
      // The first 20 creations are made; the next one that reaches the server is refused for the minute.
      const world = await line.scripted((_, i) =>
        i < Limits.creationsPerMinute
          ? ok({ id: hex(i), title: "t", name: `v${i}`, create_at: 0 })
          : error(5, "Слишком много созданий: не более 20 в минуту")
      )
      const create = (client: Awaited<ReturnType<typeof world.client>>, i: number) =>
        client.call("vars/create", { ...main, title: "t", name: `v${i}` })
      const u = await world.client({ userKey: "u", onCreationLimit: "fail" })
      for (let i = 0; i < Limits.creationsPerMinute; i++) await succeeded(create(u, i))
      quotaRefusal(line, await failed(create(u, 20)), "minute", Limits.nextMinute(0))
      assert.equal(world.received.length, Limits.creationsPerMinute)
      // Error 5 on a creation: the rest of the minute is used up for that user, not for another one.
      const v = await world.client({ userKey: "v", onCreationLimit: "fail" })
      assert.equal((await failed(create(v, 0)))["window"], "minute")
      assert.equal((await failed(create(v, 1)))["window"], "minute")
      assert.equal(world.received.length, Limits.creationsPerMinute + 1)
    }
  )
])
