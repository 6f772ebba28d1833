/**
 * The deadline of a whole call: every attempt, retry, pacing wait and quota wait together, 120 s by
 * default. Past it a call fails with `TimeoutError { scope: "call" }`, or with `OutcomeUnknownError`
 * when an attempt of an operation that is not safe to repeat was in flight.
 */
import type { Call, Failure, World } from "../src/Driver.js"
import { assert, error, me, ok, scenario, succeeded, suite, wait } from "../src/Scenario.js"

const variable = { group_id: 1, channel: "VK", title: "Город", name: "city" }
const hex = (i: number) => i.toString(16).padStart(24, "0")
/** A reply that never comes within a scenario: a day on the world's clock. */
const never = wait(86_400_000, ok())

/** Moves the clock `by`, and gives the failure of `call` and the time it ended at. */
const endOf = async (world: World, call: Call, by: number): Promise<{ error: Failure; at: number | undefined }> => {
  await world.adjust(by)
  const outcome = await call
  if (outcome._tag !== "Failure") assert.fail(`the call ended with ${outcome._tag}, where a failure was due`)
  return { error: outcome.error, at: outcome.at }
}

/** The fields of a timeout of the whole call. */
const callTimeout = (error: Failure) => ({
  _tag: error._tag,
  scope: error["scope"],
  timeoutMillis: error["timeoutMillis"]
})

export default suite("Deadline", [
  scenario(
    "L2 L5 X1 a creation that keeps getting error 5 ends at the default deadline of 120 s, typed",
    async (line) => {
      const world = await line.scripted(() => error(5, "Слишком много созданий: не более 20 в минуту"))
      // The default schedule's delays, unjittered: error 5 is waited out for its window, not on the schedule.
      const client = await world.client({
        onCreationLimit: "wait",
        retry: { delays: [500, 1000, 2000, 4000, 8000], limitRetries: 1_000 }
      })
      await world.adjust(10_000)
      const { at, error: failure } = await endOf(world, client.call("vars/create", variable), 600_000)
      assert.deepEqual(callTimeout(failure), { _tag: "TimeoutError", scope: "call", timeoutMillis: 120_000 })
      assert.ok(failure.message.includes("deadline of 120000 ms"), failure.message)
      assert.equal(at, 130_000)
      // Each refusal of the quota waited for the next minute; nothing was in flight at the deadline.
      assert.deepEqual(world.received.map((r) => r.at), [10_000, 60_000, 120_000])
    }
  ),

  scenario("A6 X1 retries of error 9 stop at a configured deadline of 4.5 s", async (line) => {
    const world = await line.scripted(() => error(9))
    // Spaced by 1 s, more retries than the deadline lets happen.
    const client = await world.client({ deadline: 4_500, retry: { delays: Array.from({ length: 100 }, () => 1_000) } })
    const { at, error: failure } = await endOf(world, client.call("users/me"), 60_000)
    assert.deepEqual(callTimeout(failure), { _tag: "TimeoutError", scope: "call", timeoutMillis: 4_500 })
    assert.equal(at, 4_500)
    assert.deepEqual(world.received.map((r) => r.at), [0, 1_000, 2_000, 3_000, 4_000])
  }),

  scenario(
    "L2 a creation waiting for the next minute of its own quota ends at the deadline, never sent",
    async (line) => {
      const world = await line.scripted(
        (request, i) => ok({ id: hex(i), title: "t", name: `v${i}`, create_at: request.at / 1000 | 0 }),
        { quotaPerMinute: 1 }
      )
      const client = await world.client({ onCreationLimit: "wait", deadline: 30_000 })
      await succeeded(client.call("vars/create", variable))
      const { at, error: failure } = await endOf(
        world,
        client.call("vars/create", { ...variable, name: "town" }),
        120_000
      )
      assert.deepEqual(callTimeout(failure), { _tag: "TimeoutError", scope: "call", timeoutMillis: 30_000 })
      assert.equal(at, 30_000)
      assert.equal(world.received.length, 1)
    }
  ),

  scenario("X1 a creation in flight at the deadline is an unknown outcome, sent once", async (line) => {
    const world = await line.scripted(() => never)
    const client = await world.client({ deadline: 10_000, timeout: 60_000 })
    const { at, error: failure } = await endOf(world, client.call("vars/create", variable), 60_000)
    assert.equal(failure._tag, "OutcomeUnknownError")
    assert.ok(failure.message.includes("deadline of 10000 ms"), failure.message)
    assert.equal(at, 10_000)
    assert.equal(world.received.length, 1)
  }),

  scenario("X1 a read in flight at the deadline is a timeout of the call, not an unknown outcome", async (line) => {
    const world = await line.scripted((_, i) => i === 0 ? never : ok(me))
    const client = await world.client({ deadline: 10_000, timeout: 60_000 })
    const { at, error: failure } = await endOf(world, client.call("users/me"), 60_000)
    assert.deepEqual(callTimeout(failure), { _tag: "TimeoutError", scope: "call", timeoutMillis: 10_000 })
    assert.equal(at, 10_000)
    // The next call is not held by the abandoned one.
    assert.deepEqual(await succeeded(client.call("users/me")), me)
  })
])
