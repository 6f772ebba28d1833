/**
 * The creation quota in one process: 20 creations a calendar minute and 200 a day, waited out or
 * failed typed with the window's reset; an error 5 on a creation never sent again in the same minute,
 * a creation answered with 9 given back to the quota, and what is not a creation never held by it.
 */
import type { Call, Client, Received, Reply } from "../src/Driver.js"
import { assert, error, failed, ok, quotaRefusal, scenario, succeeded, suite } from "../src/Scenario.js"

const params = (i: number) => ({ group_id: 1, channel: "VK", title: `Переменная ${i}`, name: `v${i}` })
const hex = (i: number) => i.toString(16).padStart(24, "0")

/** A strict server of creations: 20 per calendar minute, else error 5 and nothing created. */
const creationServer = () => {
  const created: Array<number> = []
  let rejected = 0
  const script = (request: Received): Reply => {
    if (request.path === "users/me") return ok({ user_id: 7, auth: "token", client_id: "a" })
    const minute = Math.floor(request.at / 60_000)
    if (created.filter((t) => Math.floor(t / 60_000) === minute).length >= 20) {
      rejected++
      return error(5, "Слишком много созданий")
    }
    created.push(request.at)
    const body = request.body as { title: string; name: string }
    return ok({ id: hex(created.length), title: body.title, name: body.name, create_at: request.at / 1000 | 0 })
  }
  return { script, created, rejected: () => rejected }
}

const createMany = (client: Client, n: number, from = 0): Array<Call> =>
  Array.from({ length: n }, (_, i) => client.call("vars/create", params(from + i)))

const outcomes = (calls: ReadonlyArray<Call>) => Promise.all(calls)

export default suite("CreationQuota", [
  scenario("L2 L4 25 concurrent vars/create: 20 at once, 5 wait for the next minute (wait mode)", async (line) => {
    const server = creationServer()
    const world = await line.scripted(server.script)
    const client = await world.client({ onCreationLimit: "wait" })
    const calls = createMany(client, 25)
    await world.adjust(59_000)
    assert.equal(server.created.filter((t) => t === 0).length, 20)
    assert.equal(world.received.length, 20)
    await world.adjust(1_000)
    const results = await outcomes(calls)
    assert.ok(results.every((r) => r._tag === "Success"))
    assert.equal(server.created.filter((t) => t === 60_000).length, 5)
    assert.equal(server.rejected(), 0)
  }),

  scenario(
    "L2 L4 25 concurrent vars/create: 20 created, 5 fail at once with the minute's reset (fail mode)",
    async (line) => {
      const server = creationServer()
      const world = await line.scripted(server.script)
      await world.adjust(30_000)
      const client = await world.client({ onCreationLimit: "fail" })
      const results = await outcomes(createMany(client, 25))
      const failures = results.flatMap((r) => r._tag === "Failure" ? [r.error] : [])
      assert.equal(results.filter((r) => r._tag === "Success").length, 20)
      assert.equal(failures.length, 5)
      for (const failure of failures) {
        quotaRefusal(line, failure, "minute", 60_000)
        assert.equal(failure["operation"], "vars/create")
      }
      assert.equal(world.received.length, 20)
    }
  ),

  scenario("L2 L4 a used-up day fails at once with the reset at 03:00 Moscow time, even in wait mode", async (line) => {
    const server = creationServer()
    const world = await line.scripted(server.script)
    // 20:30 UTC (23:30 in Moscow): the day resets at 00:00 UTC, 03:00 in Moscow.
    await world.adjust(Date.UTC(2026, 10, 21, 20, 30))
    const client = await world.client({ onCreationLimit: "wait" })
    for (let minute = 0; minute < 10; minute++) {
      const results = await outcomes(createMany(client, 20, minute * 20))
      assert.ok(results.every((r) => r._tag === "Success"))
      await world.adjust(60_000)
    }
    const failure = await failed(client.call("vars/create", params(999)))
    quotaRefusal(line, failure, "day", Date.parse("2026-11-22T00:00:00.000Z"))
    assert.match(failure.message, /2026-11-22T00:00:00\.000Z/)
    assert.equal(world.received.length, 200)
    // The next day the quota is back.
    await world.adjust(Date.UTC(2026, 10, 22, 0, 0) - await world.now())
    const created = await succeeded(client.call("vars/create", params(1000)))
    assert.equal((created as { name: string }).name, "v1000")
  }),

  scenario(
    "L2 L4 L1 a creation counted in one minute but sent in the next after waiting for pacing counts in the next",
    async (line) => {
      const server = creationServer()
      const world = await line.scripted(server.script)
      const client = await world.client({ onCreationLimit: "wait" })
      // 30 reads at 59.5 s hold every pacing permit until 60.52 s.
      await world.adjust(59_500)
      for (const read of await outcomes(Array.from({ length: 30 }, () => client.call("users/me")))) {
        assert.equal(read._tag, "Success")
      }
      // Counted at 59.6 s (minute 0), sent at 60.52 s (minute 1).
      await world.adjust(100)
      const late = client.call("vars/create", params(0))
      await world.adjust(1_000)
      // 20 more in minute 1: one of them must wait for minute 2.
      const more = createMany(client, 20, 1)
      await world.adjust(60_000)
      await succeeded(late)
      assert.ok((await outcomes(more)).every((r) => r._tag === "Success"))
      assert.equal(server.rejected(), 0)
      assert.equal(server.created.filter((t) => t >= 60_000 && t < 120_000).length, 20)
      assert.equal(server.created.filter((t) => t >= 120_000).length, 1)
    }
  ),

  scenario("L5 an error 5 on a creation is never sent again in the same minute", async (line) => {
    // Another process of the same user used the minute: the server refuses the first creation.
    const world = await line.scripted((request, i) =>
      i === 0
        ? error(5, "Слишком много созданий")
        : ok({ id: hex(1), title: "t", name: "v1", create_at: request.at / 1000 | 0 })
    )
    await world.adjust(10_000)
    const client = await world.client({ onCreationLimit: "wait" })
    const call = client.call("vars/create", params(1))
    await world.adjust(49_000)
    assert.deepEqual(world.received.map((r) => r.at), [10_000])
    await world.adjust(1_000)
    await succeeded(call)
    assert.deepEqual(world.received.map((r) => r.at), [10_000, 60_000])
  }),

  scenario("L5 an error 5 on a creation in fail mode fails typed with the minute's reset, sent once", async (line) => {
    const world = await line.scripted(() => error(5, "Слишком много созданий"))
    await world.adjust(10_000)
    const client = await world.client({ onCreationLimit: "fail" })
    quotaRefusal(line, await failed(client.call("vars/create", params(1))), "minute")
    assert.equal(world.received.length, 1)
  }),

  scenario(
    "L3 A6 a creation answered with 9 is given back to the quota: 20 creations each retried once all succeed",
    async (line) => {
      const seen = new Set<string>()
      const world = await line.scripted((request) => {
        const body = request.body as { title: string; name: string }
        if (!seen.has(body.name)) {
          seen.add(body.name)
          return error(9)
        }
        return ok({ id: hex(seen.size), title: body.title, name: body.name, create_at: 0 })
      })
      const client = await world.client({ onCreationLimit: "fail" })
      const calls = createMany(client, 20)
      await world.adjust(5_000)
      const results = await outcomes(calls)
      assert.equal(results.filter((r) => r._tag === "Success").length, 20)
      assert.equal(world.received.length, 40)
      assert.ok(world.received.every((r) => r.at < 60_000))
    }
  ),

  scenario("L2 L5 lists/rename is not a creation: never held by the creation quota", async (line) => {
    const world = await line.scripted(() => ok({ id: hex(1), name: "x", create_at: 0 }))
    const client = await world.client({ onCreationLimit: "fail" })
    const calls = Array.from({ length: 25 }, () => client.call("lists/rename", { list_id: hex(1), name: "x" }))
    await world.adjust(1_000)
    for (const call of calls) await succeeded(call)
    assert.equal(world.received.filter((r) => r.at === 0).length, 25)
  })
])
