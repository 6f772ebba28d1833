/**
 * Idle users leave the client's memory: the memory store's gates, the pacing rules and the memory
 * store's creation counts are held only while their user is active, so that a process serving many
 * accounts holds the ones active now, not every one it has served. On the test clock.
 */
import { assert, scenario, succeeded, suite } from "../src/Scenario.js"

// Few enough for the test clock, which wakes each sleeping release in turn; benchmark B9 counts in thousands.
const N = 300

const users = (n: number) => Array.from({ length: n }, (_, i) => `user-${i}`)

export default suite("Eviction of idle users", [
  scenario(
    "L1 300 users' gates leave memory once their permits come back, their pacing rules a window after their last call",
    async (line) => {
      const world = await line.limiters()
      const pacing = await world.pacing()
      for (const user of users(N)) await succeeded(pacing.withPermit(user))
      // Answered: the permits are still held, and the rules kept for the next calls a while.
      assert.equal(await pacing.users(), N)
      assert.equal(await world.permits.users(), N)
      await world.adjust(pacing.settings.windowMillis + pacing.settings.marginMillis)
      assert.equal(await world.permits.users(), 0)
      assert.equal(await pacing.users(), 0)
    }
  ),

  scenario(
    "L1 a user with a call waiting or in flight keeps its state until the call and its hold end",
    async (line) => {
      const world = await line.limiters({ permitLimit: 2 })
      const pacing = await world.pacing()
      const calls = [1, 2, 3].map(() => pacing.withPermit("busy", 500))
      await world.adjust(100)
      assert.equal(await pacing.users(), 1)
      assert.equal(await world.permits.users(), 1)
      // The third waits for a permit: interrupted, it leaves nothing behind once the others are done.
      await calls[2]!.interrupt()
      await world.adjust(400)
      for (const call of calls.slice(0, 2)) await succeeded(call)
      assert.equal(await pacing.users(), 1)
      assert.equal(await world.permits.users(), 1)
      await world.adjust(1020)
      assert.equal(await world.permits.users(), 0)
      // The rule stays a window after the last call ended, and the sweep that drops it runs once a window.
      assert.equal(await pacing.users(), 1)
      await world.adjust(1020)
      assert.equal(await pacing.users(), 0)
    }
  ),

  scenario(
    "L1 a user blocked after a refusal keeps its gate until the block ends, then the next sweep drops it",
    async (line) => {
      const world = await line.limiters()
      await world.permits.block("refused", 1020)
      assert.equal(await world.permits.users(), 1)
      await world.adjust(1020)
      // Another user's take sweeps the idle gates (at most once a second).
      const permit = await world.permits.take("other")
      assert.equal(await world.permits.users(), 1)
      await world.permits.release(permit, { afterAnswerMillis: 0, afterTakeMillis: 0 })
      await world.adjust(1)
      assert.equal(await world.permits.users(), 0)
    }
  ),

  scenario(
    "L2 L4 creation counts leave memory when their day ends (03:00 Moscow), or when a refund empties them",
    async (line) => {
      const world = await line.limiters()
      // 2026-11-26 12:00 UTC, 15:00 Moscow.
      await world.setTime(Date.UTC(2026, 10, 26, 12))
      for (const user of users(1_000)) await world.counts.take(user)
      assert.equal(await world.counts.users(), 1_000)
      // A refund that leaves nothing counted drops the user at once.
      await world.counts.refund("user-0", Date.UTC(2026, 10, 26, 12))
      assert.equal(await world.counts.users(), 999)
      // The minute ended, the day did not: the counts stay, the day's 200 still counts them.
      await world.setTime(Date.UTC(2026, 10, 26, 23, 59))
      await world.counts.take("late")
      assert.equal(await world.counts.users(), 1_000)
      // 00:00 UTC is 03:00 Moscow: a new day; the next take sweeps every count of the day before.
      await world.setTime(Date.UTC(2026, 10, 27, 0, 0, 1))
      await world.counts.take("next-day")
      assert.equal(await world.counts.users(), 1)
    }
  )
])
