/**
 * The stores under the limiters as a user sees them: `PermitStore` and `CountStore` are tags, and a
 * store of the user's own, provided as one under `Pacing.layerFromStore` or
 * `CreationQuota.layerFromStore`, is the one the client's limiters use. The stores here wrap the
 * memory stores and record what the limiters ask of them (the driver's `StoreOptions`, `"own"`); the
 * scripted server records what reached it.
 */
import { assert, error, failed, me, ok, scenario, succeeded, suite } from "../src/Scenario.js"

const created = { id: "0".repeat(24), title: "v1", name: "v1", create_at: 0 }
const variable = (i: number) => ({ group_id: 1, channel: "VK", title: `v${i}`, name: `v${i}` })

export default suite("Stores of the limiters", [
  scenario(
    "L1 a store of permits of the user's own, provided as PermitStore, is what the client paces with",
    async (line) => {
      // The fourth request is refused for the rate: the pacing blocks the user in the store.
      const world = await line.scripted((_, i) => i === 3 ? error(5) : ok(me), {
        stores: { permits: { via: "own", limit: 2 } }
      })
      const client = await world.client({ retry: "never" })
      assert.deepEqual(world.pacingSettings, { limit: 2, windowMillis: 1000, marginMillis: 20 })
      const calls = [client.call("users/me"), client.call("users/me"), client.call("users/me")]
      await world.adjust(5_000)
      for (const call of calls) await succeeded(call)
      // The store's limit of 2: the third request waits for a permit held a window plus the margin.
      assert.deepEqual(world.received.map((r) => r.at), [0, 0, 1020])
      assert.equal(world.stores.takes, 3)
      assert.deepEqual(
        world.stores.holds,
        Array.from({ length: 3 }, () => ({ afterAnswerMillis: 1020, afterTakeMillis: 0 }))
      )
      assert.equal(await failed(client.call("users/me")).then((f) => f._tag), "RateLimitError")
      assert.deepEqual(world.stores.blocks, [1020])
    }
  ),

  scenario(
    "L1 a store of permits that fails fails the request with its LimiterUnavailable, and nothing is sent",
    async (line) => {
      const world = await line.scripted(() => ok(me), {
        stores: { permits: { via: "own", fails: { limiter: "pacing", store: "mine", reason: "down" } } }
      })
      const client = await world.client()
      const failure = await failed(client.call("users/me"))
      assert.equal(failure._tag, "LimiterUnavailable")
      assert.deepEqual([failure["limiter"], failure["store"], failure["reason"]], ["pacing", "mine", "down"])
      assert.equal(failure.message, world.stores.failure?.message)
      assert.deepEqual(world.received, [])
    }
  ),

  scenario(
    "L2 a store of counts of the user's own, provided as CountStore, is what the client counts creations in",
    async (line) => {
      const world = await line.scripted(
        (request) => ok({ id: "0".repeat(24), title: request.body["title"], name: request.body["name"], create_at: 0 }),
        { stores: { counts: { via: "own", perMinute: 2 } } }
      )
      const client = await world.client({ onCreationLimit: "fail" })
      const results = []
      for (const i of [0, 1, 2]) results.push(await client.call("vars/create", variable(i)))
      assert.deepEqual(results.map((r) => r._tag === "Success"), [true, true, false])
      const third = results[2]!
      assert.equal(third._tag === "Failure" ? third.error._tag : third._tag, "CreationQuotaExceeded")
      assert.deepEqual(world.stores.verdicts, ["Taken", "Taken", "Exhausted"])
      assert.equal(world.received.length, 2)
    }
  ),

  scenario(
    "L1 L2 over the memory stores' layers the limiters keep the stores' limits: one permit, one creation a minute",
    async (line) => {
      const world = await line.scripted((request) => request.path === "vars/create" ? ok(created) : ok(me), {
        stores: { permits: { via: "layer", limit: 1, marginMillis: 5 }, counts: { via: "layer", perMinute: 1 } }
      })
      assert.deepEqual(world.pacingSettings, { limit: 1, windowMillis: 1000, marginMillis: 5 })
      const client = await world.client({ onCreationLimit: "fail" })
      const calls = [0, 1].map(() => client.call("users/me"))
      await world.adjust(2_000)
      for (const call of calls) await succeeded(call)
      assert.deepEqual(world.received.map((r) => r.at), [0, 1005])
      // The creation counted at 2 s is sent when the one permit is back; the next one is refused for the minute.
      const creation = client.call("vars/create", variable(1))
      await world.adjust(1_000)
      await succeeded(creation)
      assert.deepEqual(world.received.map((r) => r.at), [0, 1005, 2010])
      const refused = await failed(client.call("vars/create", variable(2)))
      assert.equal(refused._tag === "CreationQuotaExceeded" ? refused["window"] : refused._tag, "minute")
    }
  )
])
