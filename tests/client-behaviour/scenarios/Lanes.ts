/**
 * Priority lanes in one process: an interactive call takes the next free permit of its user ahead of
 * every queued batch call, a batch-only load still runs at the full rate, and a mark on a call (or a
 * stream) wins over its client's lane. Under the test clock; the share kept across processes on Redis
 * is in `RedisLanes.test.ts` (the take script) and `RedisLanesPacing.test.ts` (clients of two processes).
 */
import type { Received } from "../src/Driver.js"
import { assert, me, ok, scenario, succeeded, suite, wait } from "../src/Scenario.js"

/** Requests of 100 ms. */
const slow = () => wait(100, ok(me))
/** A permit comes back a window and the margin after its answer (no delays learnt yet). */
const window = 1000 + 20
/** The interactive client's token: the same user ("account") as the batch client's, told apart. */
const interactiveToken = "thp_interactive-token-0123456789"
const isInteractive = (r: Received) => r.authorization?.includes(interactiveToken) === true

export default suite("Priority lanes", [
  scenario(
    "L1 an interactive call takes the next free permit ahead of 200 queued batch calls: its wait stays within one window",
    async (line) => {
      const world = await line.scripted(slow)
      const client = await world.client({ userKey: "account" })
      const batch = Array.from({ length: 200 }, () => client.call("users/me", {}, { lane: "batch" }))
      await world.adjust(1_500)
      // 30 a window: the first 60 started, 140 wait; a call without a mark is interactive.
      assert.equal(world.received.length, 60)
      const askedAt = await world.now()
      const other = await world.client({ userKey: "account", token: interactiveToken })
      const interactive = other.call("users/me")
      await world.adjust(1_100)
      const interactiveStarts = world.received.filter(isInteractive).map((r) => r.at)
      assert.equal(interactiveStarts.length, 1)
      const waited = interactiveStarts[0]! - askedAt
      assert.ok(waited <= window, `waited ${waited}`)
      // It went first: no batch call queued before it started before it.
      const batchStarts = () => world.received.filter((r) => !isInteractive(r)).map((r) => r.at)
      assert.deepEqual(batchStarts().filter((at) => at > askedAt && at < interactiveStarts[0]!), [])
      // Without its lane it would have waited behind 140 calls, more than four windows.
      await world.adjust(10_000)
      for (const call of [interactive, ...batch]) await succeeded(call)
      assert.equal(batchStarts().length, 200)
    }
  ),

  scenario("L1 batch calls alone run at the full rate: 300 in ten windows, 30 in each", async (line) => {
    const world = await line.scripted(slow)
    const client = await world.client({ lane: "batch" })
    const calls = Array.from({ length: 300 }, () => client.call("users/me"))
    await world.adjust(10 * window)
    for (const call of calls) await succeeded(call)
    const starts = world.received.map((r) => r.at)
    assert.equal(starts.length, 300)
    for (let i = 0; i < 10; i++) {
      assert.equal(starts.filter((at) => at >= i * window && at < (i + 1) * window).length, 30, `window ${i}`)
    }
  }),

  scenario(
    "L1 an interactive waiter that stops waiting leaves its place: the permit goes to the next batch call",
    async (line) => {
      const world = await line.scripted(slow, { pacingLimit: 2 })
      const client = await world.client()
      client.call("users/me", {}, { lane: "batch" })
      client.call("users/me", {}, { lane: "batch" })
      const queuedBatch = client.call("users/me", {}, { lane: "batch" })
      const interactive = client.call("users/me", {}, { lane: "interactive" })
      await world.adjust(10)
      await interactive.interrupt()
      // The batch call queued behind it starts when the first permit comes back: a window and the
      // margin after its answer, the hold of a user whose delays are not known yet.
      await world.adjust(window + 100)
      assert.equal(world.received.length, 3)
      await world.adjust(2_000)
      await succeeded(queuedBatch)
      // Every permit is back once the holds have passed.
      assert.equal((await client.budget()).requests.left, 2)
    }
  ),

  scenario("L1 a client's lane applies to its calls, and a mark on a call or a stream wins over it", async (line) => {
    const world = await line.scripted((r) => r.path === "bots/get" ? ok({ items: [], total: 0 }) : ok(me))
    const jobs = await world.client({ lane: "batch" })
    const pages = await world.client()
    await succeeded(jobs.call("users/me"))
    await succeeded(jobs.call("users/me", {}, { lane: "interactive" }))
    await succeeded(pages.call("users/me"))
    await succeeded(pages.call("users/me", {}, { lane: "batch" }))
    await succeeded(pages.stream("bots/get", {}, { lane: "batch" }))
    assert.deepEqual(world.lanes, ["batch", "interactive", "interactive", "batch", "batch"])
  })
])
