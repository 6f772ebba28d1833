/**
 * What keeps a process alive: the client's bookkeeping (the holds of the permits after their answers,
 * the sweep of idle users) never does on its own, so a script ends with its last answer; a call waiting
 * for a permit does, so a script never ends with a call still waiting. Read on the live clock from
 * Node's count of referenced timers (`process.getActiveResourcesInfo`), not from how long anything took.
 */
import { assert, scenario, succeeded, suite } from "../src/Scenario.js"

/** The timers that keep this process alive now. */
const referencedTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length

/** Polls `check` on the live clock until it holds, for at most `millis`. */
const eventually = async (check: () => boolean | Promise<boolean>, millis = 5000) => {
  const until = Date.now() + millis
  while (!(await check()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5))
  return check()
}

export default suite("KeepAlive", [
  scenario("background timers keep the process alive only while a call waits for one of them", async (line) => {
    const live = await line.live()
    const timers = live.timers({ inBackground: true })
    const before = referencedTimers()
    const entry = await timers.addAt((await live.now()) + 60_000, () => {})
    await live.settle()
    assert.equal(referencedTimers(), before)
    timers.awaited(1)
    assert.equal(referencedTimers(), before + 1)
    timers.awaited(1)
    timers.awaited(-1)
    assert.equal(referencedTimers(), before + 1)
    timers.awaited(-1)
    assert.equal(referencedTimers(), before)
    await timers.remove(entry)
    await live.settle()
    assert.equal(referencedTimers(), before)
  }),

  scenario("the timers of the exchanges' timeouts keep the process alive while they run", async (line) => {
    const live = await line.live()
    const timers = live.timers()
    const before = referencedTimers()
    const entry = await timers.addAt((await live.now()) + 60_000, () => {})
    assert.equal(await eventually(() => referencedTimers() === before + 1), true)
    await timers.remove(entry)
    assert.equal(await eventually(() => referencedTimers() === before), true)
  }),

  scenario(
    "after the last answer the holds of the permits and the sweep of idle users hold nothing up; a call waiting for a permit does",
    async (line) => {
      const live = await line.live()
      const pacing = await live.pacing({ limit: 1, windowMillis: 300, marginMillis: 0 })
      const before = referencedTimers()
      await succeeded(pacing.withPermit("user"))
      await live.settle()
      // The permit is held for the window after its answer, and the user's rule waits to be swept.
      assert.equal((await pacing.budget("user")).left, 0)
      assert.equal(referencedTimers(), before)
      // The next call waits for that permit: its hold now keeps the process alive until it comes.
      const beforeWaiting = referencedTimers()
      const waiting = pacing.withPermit("user")
      await live.settle()
      assert.equal(referencedTimers(), beforeWaiting + 1)
      await succeeded(waiting)
      await live.settle()
      // At most as many as before (the test runner's own timers may have ended meanwhile).
      assert.ok(referencedTimers() <= beforeWaiting)
      // Every user swept, every permit back: nothing is left to wake for.
      assert.equal(
        await eventually(async () => (await pacing.users()) === 0 && (await pacing.storeUsers()) === 0),
        true
      )
      assert.ok(referencedTimers() <= beforeWaiting)
    }
  )
])
