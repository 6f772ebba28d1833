/**
 * Limits and retries against the reference server in process: injected faults retried or not as the
 * operation allows, the pacing of 30 a window that keeps the strict server from refusing, the creation
 * quota of the minute and the day, and a revoked token cached for a minute.
 */
import * as Demo from "@community-api/core/DemoData"
import type { Client, ReferenceWorld } from "../src/Driver.js"
import { assert, failed, failedWith, quotaRefusal, scenario, succeeded, suite } from "../src/Scenario.js"

const main = { group_id: Demo.mainCommunity.group_id, channel: Demo.mainCommunity.channel }
/** 0.5 s doubling, at most 5 retries. */
const plain = { delays: [500, 1000, 2000, 4000, 8000] }
/** No retry at all: any error 5 fails the call. */
const noRetry = { delays: [], limitRetries: 0 }
const create = (client: Client, i: number) =>
  client.call("vars/create", { ...main, title: `Переменная ${i}`, name: `quota_var_${i}` })

const variablesNamed = async (world: ReferenceWorld, prefix: string) =>
  (await world.server.snapshot()).variables.filter((v) => v.name.startsWith(prefix))

export default suite("Limits and retries against the reference server", [
  scenario(
    "A6 X1 injected error 9 is retried on the configured delays, attempts counted on the TestClock",
    async (line) => {
      const world = await line.reference()
      await world.server.setFaults({ keyServiceUnavailable: { next: 3 } })
      const client = await world.client({ retry: plain })
      const started = await world.now()
      const call = client.call("users/me")
      await world.adjust(30_000)
      const me = await succeeded(call) as { user_id: number }
      assert.equal(me.user_id, Demo.userIds.owner)
      assert.equal((await call).at! - started, 500 + 1000 + 2000)
      assert.equal(await world.server.requestCount(), 4)
    }
  ),

  scenario("X1 101 after the action on a creation is not retried and nothing is created twice", async (line) => {
    const world = await line.reference()
    await world.server.setFaults({ internalError: { next: 1, paths: ["vars/create"], afterAction: true } })
    const client = await world.client({ retry: plain })
    const call = create(client, 1)
    await world.adjust(60_000)
    assert.equal(await failedWith(call), "OutcomeUnknownError")
    assert.equal(await world.server.requestCount(), 1)
    assert.equal((await variablesNamed(world, "quota_var_1")).length, 1)
  }),

  scenario(
    "X1 a dropped connection on a creation is an unknown outcome, sent once; on a read it is retried",
    async (line) => {
      const world = await line.reference()
      const client = await world.client({ retry: plain })
      await world.server.setFaults({ dropConnection: { next: 1, paths: ["vars/create"], afterAction: true } })
      const creation = create(client, 2)
      await world.adjust(60_000)
      assert.equal(await failedWith(creation), "OutcomeUnknownError")
      assert.equal((await variablesNamed(world, "quota_var_2")).length, 1)
      await world.server.setFaults({ dropConnection: { next: 2, paths: ["vars/list"] } })
      const read = client.call("vars/list", main)
      await world.adjust(60_000)
      assert.ok((await succeeded(read) as { total: number }).total > 0)
    }
  ),

  scenario("X1 a timeout on a safe operation is retried on the schedule, then fails typed", async (line) => {
    const world = await line.reference()
    await world.server.setFaults({ latency: { fixed: 5000 } })
    const client = await world.client({ timeout: 1000, retry: plain })
    const call = client.call("users/me")
    await world.adjust(120_000)
    assert.equal(await failedWith(call), "TimeoutError")
  }),

  scenario(
    "L1 300 requests from several fibers and two clients: zero error 5, within the minimum time plus a window",
    async (line) => {
      const world = await line.reference()
      const a = await world.client({ retry: noRetry })
      const b = await world.client({ retry: noRetry })
      const calls = [0, 1, 2, 3, 4, 5].flatMap((f) =>
        Array.from({ length: 50 }, () => (f % 2 === 0 ? a : b).call("users/me"))
      )
      await world.adjust(20_000)
      // With no retries on 5, any error 5 would fail a call.
      const finished: Array<number> = []
      for (const call of calls) {
        await succeeded(call)
        finished.push((await call).at!)
      }
      assert.equal(finished.length, 300)
      assert.equal(await world.server.requestCount(), 300)
      // 30 per window: the last batch goes out 9 windows after the first, at least, and within one more.
      const last = Math.max(...finished)
      assert.ok(last >= 9 * 1000, `last at ${last}`)
      assert.ok(last <= 9 * 1000 + 1000, `last at ${last}`)
    }
  ),

  scenario(
    "L1 the server is strict: with pacing loosened to 1000 per second, a burst of 31 gets one error 5",
    async (line) => {
      // Over a store of 1000 permits of its own: the pacing's options refuse a limit above the API's.
      const world = await line.reference({ stores: { permits: { via: "layer", limit: 1000 } } })
      const client = await world.client({ retry: noRetry })
      const results = await Promise.all(Array.from({ length: 31 }, () => client.call("users/me")))
      const refused = results.flatMap((r) => r._tag === "Failure" ? [r.error._tag] : [])
      assert.deepEqual(refused, ["RateLimitError"])
    }
  ),

  scenario("L2 L4 25 concurrent vars/create: 20 created at once, 5 wait for the next minute", async (line) => {
    const world = await line.reference()
    const client = await world.client({ onCreationLimit: "wait" })
    const calls = Array.from({ length: 25 }, (_, i) => create(client, 100 + i))
    await world.adjust(59_000)
    assert.equal((await variablesNamed(world, "quota_var_1")).length, 20)
    await world.adjust(1_000)
    for (const call of calls) await succeeded(call)
    assert.equal((await variablesNamed(world, "quota_var_1")).length, 25)
  }),

  scenario("L2 L4 25 concurrent vars/create: 20 created, 5 fail typed with the minute's reset", async (line) => {
    const world = await line.reference()
    await world.adjust(12_000)
    const client = await world.client({ onCreationLimit: "fail" })
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => create(client, 200 + i)))
    const failures = results.flatMap((r) => r._tag === "Failure" ? [r.error] : [])
    assert.equal(failures.length, 5)
    for (const failure of failures) quotaRefusal(line, failure, "minute", 60_000)
    assert.equal((await variablesNamed(world, "quota_var_2")).length, 20)
  }),

  scenario("L2 L4 the 201st creation of the day fails at once with the reset at 03:00 Moscow time", async (line) => {
    const world = await line.reference()
    await world.adjust(Date.UTC(2026, 10, 21, 21, 0))
    const client = await world.client({ onCreationLimit: "wait" })
    for (let minute = 0; minute < 10; minute++) {
      const calls = Array.from({ length: 20 }, (_, i) => create(client, 1000 + minute * 20 + i))
      for (const call of calls) await succeeded(call)
      await world.adjust(60_000)
    }
    quotaRefusal(line, await failed(create(client, 5000)), "day", Date.parse("2026-11-22T00:00:00.000Z"))
    assert.equal((await variablesNamed(world, "quota_var_")).length, 200)
  }),

  scenario("L1 L2 two clients of one user share the creation quota", async (line) => {
    const world = await line.reference()
    const a = await world.client({ onCreationLimit: "fail" })
    const b = await world.client({ onCreationLimit: "fail" })
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => create(i % 2 === 0 ? a : b, 300 + i)))
    assert.equal(results.filter((r) => r._tag === "Success").length, 20)
    assert.ok(
      results.every((r) => r._tag === "Success" || r._tag === "Failure" && r.error._tag === "CreationQuotaExceeded")
    )
  }),

  scenario("A5 a revoked token keeps working until its 60-second cache entry ages out, then gives 4", async (line) => {
    const world = await line.reference()
    const client = await world.client()
    await succeeded(client.call("users/me"))
    await world.server.revokeToken(Demo.tokens.owner)
    await world.adjust(30_000)
    assert.equal((await succeeded(client.call("users/me")) as { user_id: number }).user_id, Demo.userIds.owner)
    await world.adjust(31_000)
    assert.equal(await failedWith(client.call("users/me")), "InvalidTokenError")
  })
])
