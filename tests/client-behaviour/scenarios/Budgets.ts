/**
 * Budgets you can read: what is left of a user's rate window and creation windows, when each comes
 * back, and whether N creations fit by an instant, from the limiters in memory, on the world's clock;
 * and their JSON (`Budget.toJson`, `Budget.Json`), held to the fixture `../src/BudgetJson.ts`.
 * The Redis store's budgets are tested in `RedisStore.test.ts`. A client's budgets hold the line's
 * instants (`DateTime.Utc`); they are compared here in epoch milliseconds.
 */
import * as Budget from "@community-api/core/Budget"
import * as BudgetJson from "../src/BudgetJson.js"
import type { Client, Line } from "../src/Driver.js"
import { assert, error, failed, me, ok, scenario, succeeded, suite, wait } from "../src/Scenario.js"

const created = { id: "5e0000000000000000000001", title: "t", name: "v", create_at: 0 }
const variable = { group_id: 1, channel: "VK", title: "t", name: "v" }
/** A token of user `w`, told apart from `u`'s by the server. */
const wToken = "thp_waiting-user-token-0123456789"

/** `client.budget`, and `client.estimateCreations(count, by)`, with the line's instants in epoch milliseconds. */
const readerOf = (line: Line, client: Client) => ({
  budget: async () => Budget.mapInstants(await client.budget(), line.epochMillis),
  estimate: async (count: number, by: number) =>
    Budget.mapInstants(await client.estimateCreations(count, by), line.epochMillis)
})

export default suite("Budgets", [
  scenario(
    "L1 the requests left to a user: all 30, none while 30 are held, back when their hold ends",
    async (line) => {
      const world = await line.scripted(() => wait(100, ok(me)))
      const client = await world.client({ userKey: "u" })
      const read = readerOf(line, client)
      const other = await world.client({ userKey: "other" })
      assert.deepEqual((await read.budget()).requests, { used: 0, limit: 30, left: 30, resetsAt: 0 })
      const calls = Array.from({ length: 31 }, () => client.call("users/me"))
      await world.adjust(50)
      // 30 in flight, the 31st waits: when one comes back is not known before an answer.
      assert.deepEqual((await read.budget()).requests, { used: 30, limit: 30, left: 0, resetsAt: undefined })
      assert.equal((await other.budget()).requests.left, 30)
      await world.adjust(50)
      // Answered at 100 ms: each comes back a window and the margin later (no spread learnt yet).
      assert.deepEqual((await read.budget()).requests, { used: 30, limit: 30, left: 0, resetsAt: 1_120 })
      await world.adjust(1020)
      // The 31st took one at 1120 ms.
      assert.equal((await read.budget()).requests.left, 29)
      await world.adjust(100)
      for (const call of calls) await succeeded(call)
      await world.adjust(1020)
      assert.deepEqual((await read.budget()).requests, { used: 0, limit: 30, left: 30, resetsAt: 2_240 })
    }
  ),

  scenario("L1 after a refusal for the rate the user has nothing left until the block ends", async (line) => {
    const world = await line.scripted(() => error(5))
    const client = await world.client({ userKey: "u", retry: "never" })
    const read = readerOf(line, client)
    assert.equal((await client.call("users/me"))._tag, "Failure")
    assert.deepEqual((await read.budget()).requests, { used: 30, limit: 30, left: 0, resetsAt: 1_020 })
    await world.adjust(1020)
    assert.equal((await read.budget()).requests.left, 30)
  }),

  scenario(
    "L2 L4 the creations left in the minute and the day, when each resets, and N creations by an instant",
    async (line) => {
      const world = await line.scripted(() => ok(created))
      // 2026-11-26 20:59:30 Moscow (17:59:30 UTC).
      await world.adjust(Date.UTC(2026, 10, 26, 17, 59, 30))
      const client = await world.client({ userKey: "u", onCreationLimit: "fail" })
      const read = readerOf(line, client)
      const other = await world.client({ userKey: "other" })
      for (const call of Array.from({ length: 5 }, () => client.call("vars/create", variable))) await succeeded(call)
      assert.deepEqual((await read.budget()).creations, {
        minute: { used: 5, limit: 20, left: 15, resetsAt: Date.UTC(2026, 10, 26, 18, 0) },
        day: { used: 5, limit: 200, left: 195, resetsAt: Date.UTC(2026, 10, 27, 0, 0) }
      })
      // 40 more: 15 in this minute, 20 at 18:00, 5 at 18:01.
      const at1801 = Date.UTC(2026, 10, 26, 18, 1)
      assert.deepEqual(await read.estimate(40, Date.UTC(2026, 10, 26, 18, 0, 30)), {
        _tag: "Late",
        earliest: at1801
      })
      assert.deepEqual(await read.estimate(40, at1801), { _tag: "InTime", lastAt: at1801 })
      // Another user's budget is whole; the day's count resets at 03:00 Moscow.
      assert.equal((await other.budget()).creations.minute.left, 20)
      await world.adjust(Date.UTC(2026, 10, 27, 0, 0) - await world.now())
      assert.deepEqual((await read.budget()).creations.day, {
        used: 0,
        limit: 200,
        left: 200,
        resetsAt: Date.UTC(2026, 10, 28, 0, 0)
      })
    }
  ),

  scenario("L1 L2 a client reads its own user's budget and whether N creations fit by an instant", async (line) => {
    const world = await line.scripted((request) => request.path === "vars/create" ? ok(created) : ok(me))
    await world.adjust(Date.UTC(2026, 10, 26, 17, 59, 30))
    const client = await world.client()
    const read = readerOf(line, client)
    await succeeded(client.call("users/me"))
    await succeeded(client.call("vars/create", variable))
    const budget = await read.budget()
    // Both requests hold their permits a window and the margin past their answers.
    assert.deepEqual(budget.requests, {
      used: 2,
      limit: 30,
      left: 28,
      resetsAt: Date.UTC(2026, 10, 26, 17, 59, 31, 20)
    })
    assert.deepEqual(budget.creations.minute, { used: 1, limit: 20, left: 19, resetsAt: Date.UTC(2026, 10, 26, 18, 0) })
    assert.equal(budget.creations.day.left, 199)
    assert.deepEqual(await read.estimate(19, Date.UTC(2026, 10, 26, 17, 59, 45)), {
      _tag: "InTime",
      lastAt: Date.UTC(2026, 10, 26, 17, 59, 30)
    })
    assert.deepEqual(await read.estimate(20, Date.UTC(2026, 10, 26, 17, 59, 45)), {
      _tag: "Late",
      earliest: Date.UTC(2026, 10, 26, 18, 0)
    })
  }),

  scenario(
    "L2 L4 budget instants are DateTime values, the same on both lines: the minute's reset is the quota error's resetsAt",
    async (line) => {
      const world = await line.scripted((request) => request.path === "vars/create" ? ok(created) : ok(me))
      await world.adjust(Date.UTC(2026, 10, 26, 17, 59, 30))
      const client = await world.client({ userKey: "u", onCreationLimit: "fail" })
      for (let i = 0; i < 20; i++) await succeeded(client.call("vars/create", variable))
      const refused = await failed(client.call("vars/create", variable))
      const budget = await client.budget()
      const instants = [
        budget.requests.resetsAt,
        budget.creations.minute.resetsAt,
        budget.creations.day.resetsAt
      ]
      const estimates = [
        await client.estimateCreations(1, Date.UTC(2026, 10, 26, 18, 0)),
        await client.estimateCreations(1, Date.UTC(2026, 10, 26, 17, 59, 40))
      ]
      assert.deepEqual(estimates.map((estimate) => estimate._tag), ["InTime", "Late"])
      for (const estimate of estimates) instants.push(estimate._tag === "InTime" ? estimate.lastAt : estimate.earliest)
      assert.deepEqual(instants.map(line.isDateTime), [true, true, true, true, true])
      assert.deepEqual(instants.map(line.epochMillis), [
        Date.UTC(2026, 10, 26, 17, 59, 31, 20),
        Date.UTC(2026, 10, 26, 18, 0),
        Date.UTC(2026, 10, 27, 0, 0),
        Date.UTC(2026, 10, 26, 18, 0),
        Date.UTC(2026, 10, 26, 18, 0)
      ])
      // The quota's error and the budget tell the minute's reset alike.
      assert.equal(refused._tag, "CreationQuotaExceeded")
      assert.equal(line.isDateTime(refused["resetsAt"]), true)
      assert.equal(line.epochMillis(refused["resetsAt"]), line.epochMillis(budget.creations.minute.resetsAt))
    }
  ),

  scenario(
    "L1 L2 L4 the JSON of budgets read from the memory limiters: the fields and values both lines show, which Budget.Json decodes and encodes as they are",
    async (line) => {
      const world = await line.scripted((request) =>
        request.authorization?.includes(wToken) === true
          ? wait(3_600_000, ok(me))
          : request.path === "vars/create"
          ? ok(created)
          : ok(me)
      )
      const { answered, waiting } = BudgetJson
      const u = await world.client({ userKey: answered.user, onCreationLimit: "fail" })
      const w = await world.client({ userKey: waiting.user, token: wToken })
      // `u`'s creations earlier in the minute, their permits back by the scene; its requests at the scene.
      await world.adjust(BudgetJson.at - 30_000)
      for (let i = 0; i < answered.creations; i++) await succeeded(u.call("vars/create", variable))
      await world.adjust(30_000)
      for (let i = 0; i < answered.requests; i++) await succeeded(u.call("users/me"))
      const inFlight = w.call("users/me")
      while (world.received.length < answered.creations + answered.requests + 1) {
        await new Promise((resolve) => setImmediate(resolve))
      }

      const jsons = [
        [await u.budgetJson(BudgetJson.answeredAsks), BudgetJson.answeredJson],
        [await u.budgetJson(), BudgetJson.answeredJsonUnasked],
        [await w.budgetJson(BudgetJson.waitingAsks), BudgetJson.waitingJson]
      ] as const
      const schemas = line.budgetSchemas
      for (const [json, expected] of jsons) {
        assert.deepStrictEqual(json, expected)
        // Plain JSON: what the command line prints is read back the same.
        assert.deepStrictEqual(JSON.parse(JSON.stringify(json)), json)
        assert.deepStrictEqual(schemas.decode(json), json)
        assert.deepStrictEqual(schemas.encode(json), json)
      }
      // The schema's type is the core's `Json`, both ways: each driver gives the one as the other.
      // What is not of the shape is refused: a store of no kind, a negative count.
      assert.throws(() => schemas.decode({ ...BudgetJson.waitingJson, limiters: "disk" }))
      assert.throws(() => schemas.decodeWindow({ ...BudgetJson.waitingJson.creations.day, left: -1 }))
      await inFlight.interrupt()
    }
  )
])
