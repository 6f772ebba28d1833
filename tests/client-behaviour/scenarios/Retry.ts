/**
 * Retries: error 9 always, 101, a transport failure or a timeout only where the operation is safe to
 * repeat, error 5 waited out; nothing else, and a creation never sent twice.
 */
import { assert, codeOf, drop, error, failed, me, ok, scenario, succeeded, suite, wait } from "../src/Scenario.js"

const variable = { id: "0123456789abcdef01234567", title: "Город", name: "city", create_at: 1_700_000_000 }
const createParams = { group_id: 1, channel: "VK", title: "Город", name: "city" }

/** 0.5 s doubling without jitter, at most 6 attempts. */
const plain = { delays: [500, 1000, 2000, 4000, 8000] }

export default suite("Retry", [
  scenario("A6 X1 error 9 is retried on the configured delays until it succeeds", async (line) => {
    const world = await line.scripted((_, i) => i < 3 ? error(9) : ok(me))
    const client = await world.client({ retry: plain })
    const call = client.call("users/me")
    await world.adjust(10_000)
    assert.deepEqual(await succeeded(call), me)
    assert.deepEqual(world.received.map((r) => r.at), [0, 500, 1500, 3500])
  }),

  scenario("A6 X1 error 9 on a creation is retried, and nothing more is created", async (line) => {
    const world = await line.scripted((_, i) => i < 2 ? error(9) : ok(variable))
    const client = await world.client({ retry: plain })
    const call = client.call("vars/create", createParams)
    await world.adjust(10_000)
    assert.equal((await succeeded(call) as { id: string }).id, variable.id)
    assert.deepEqual(world.received.map((r) => r.at), [0, 500, 1500])
  }),

  scenario(
    "A6 X1 the default policy makes 6 attempts, delays from 0.5 s doubling, jittered, at most 8 s",
    async (line) => {
      const world = await line.scripted(() => error(9))
      const client = await world.client()
      const call = client.call("users/me")
      await world.adjust(60_000)
      assert.equal((await failed(call))._tag, "KeyServiceUnavailableError")
      const times = world.received.map((r) => r.at)
      assert.equal(times.length, 6)
      const delays = times.slice(1).map((t, i) => t - times[i]!)
      ;[500, 1000, 2000, 4000, 8000].forEach((base, i) => {
        assert.ok(delays[i]! >= base * 0.8, `delay ${i}: ${delays[i]}`)
        assert.ok(delays[i]! <= Math.min(base * 1.2, 8000), `delay ${i}: ${delays[i]}`)
      })
    }
  ),

  scenario("X1 101 on a creation is not retried and fails as an unknown outcome", async (line) => {
    const world = await line.scripted(() => error(101))
    const client = await world.client({ retry: plain })
    const call = client.call("vars/create", createParams)
    await world.adjust(60_000)
    const failure = await failed(call)
    assert.equal(failure._tag, "OutcomeUnknownError")
    assert.match(failure.message, /outcome is unknown/)
    assert.equal(world.received.length, 1)
  }),

  scenario("X1 101 on an operation safe to repeat is retried", async (line) => {
    const world = await line.scripted((_, i) => i < 2 ? error(101) : ok(me))
    const client = await world.client({ retry: plain })
    const call = client.call("users/me")
    await world.adjust(10_000)
    assert.deepEqual(await succeeded(call), me)
    assert.equal(world.received.length, 3)
  }),

  scenario(
    "X1 a transport failure is retried for a safe operation, and is an unknown outcome for a creation",
    async (line) => {
      const world = await line.scripted((_, i) => i % 2 === 0 ? drop() : ok(me))
      const client = await world.client({ retry: plain })
      const safe = client.call("users/me")
      await world.adjust(10_000)
      assert.deepEqual(await succeeded(safe), me)
      const creation = client.call("vars/create", createParams)
      await world.adjust(10_000)
      assert.equal((await failed(creation))._tag, "OutcomeUnknownError")
      assert.deepEqual(world.received.map((r) => r.path), ["users/me", "users/me", "vars/create"])
    }
  ),

  scenario("X1 a timeout is retried for a safe operation, then fails typed", async (line) => {
    const world = await line.scripted(() => wait(300_000, ok(me)))
    const client = await world.client({ timeout: 1000, retry: { delays: [500, 500] } })
    const call = client.call("users/me")
    await world.adjust(60_000)
    assert.equal((await failed(call))._tag, "TimeoutError")
    assert.deepEqual(world.received.map((r) => r.at), [0, 1500, 3000])
  }),

  scenario("C5 X1 an answer that does not decode is never retried", async (line) => {
    const world = await line.scripted(() => ok({ user_id: "seven" }))
    const client = await world.client()
    assert.equal((await failed(client.call("users/me")))._tag, "ResponseDecodeError")
    assert.equal(world.received.length, 1)
  }),

  scenario("X1 final errors (7) are never retried and keep their code and text", async (line) => {
    const world = await line.scripted(() => error(7, "Бот не найден"))
    const client = await world.client()
    const failure = await failed(client.call("bots/getById", { bot_id: variable.id }))
    assert.equal(failure._tag, "InvalidParameterError")
    assert.deepEqual([failure["code"], failure["text"], failure["operation"]], [7, "Бот не найден", "bots/getById"])
    assert.equal(await codeOf(client.call("bots/getById", { bot_id: variable.id })), 7)
    assert.equal(world.received.length, 2)
  }),

  scenario("L1 X1 error 5 on an ordinary request waits for the window and is sent again", async (line) => {
    const world = await line.scripted((_, i) => i === 0 ? error(5) : ok(me))
    const client = await world.client()
    const call = client.call("users/me")
    await world.adjust(5000)
    assert.deepEqual(await succeeded(call), me)
    assert.deepEqual(world.received.map((r) => r.at), [0, 1020])
  }),

  scenario("X1 the decision table follows the contract's classification and flags", async (line) => {
    const safe = { safeToRepeat: true, creation: false }
    const creation = { safeToRepeat: false, creation: true }
    const code = (c: number) => ({ _tag: "E", code: c })
    assert.deepEqual(
      [1, 3, 4, 5, 6, 7, 8, 9, 101].map((c) => line.decide(safe, code(c))),
      ["fail", "fail", "fail", "wait-for-limit", "fail", "fail", "fail", "retry", "retry"]
    )
    assert.equal(line.decide(creation, code(101)), "outcome-unknown")
    assert.equal(line.decide(creation, code(9)), "retry")
    assert.equal(line.decide(creation, { _tag: "TransportError" }), "outcome-unknown")
    assert.equal(line.decide(safe, { _tag: "TimeoutError" }), "retry")
    assert.equal(line.decide(safe, { _tag: "ResponseDecodeError" }), "fail")
  }),

  scenario(
    "X1 L2 a creation is never sent again after 101, a transport failure or a timeout, whatever its flags say",
    async (line) => {
      const creationMarkedSafe = { safeToRepeat: true, creation: true }
      assert.equal(line.decide(creationMarkedSafe, { _tag: "E", code: 101 }), "outcome-unknown")
      assert.equal(line.decide(creationMarkedSafe, { _tag: "TransportError" }), "outcome-unknown")
      assert.equal(line.decide(creationMarkedSafe, { _tag: "TimeoutError" }), "outcome-unknown")
      assert.equal(line.decide(creationMarkedSafe, { _tag: "E", code: 9 }), "retry")
    }
  )
])
