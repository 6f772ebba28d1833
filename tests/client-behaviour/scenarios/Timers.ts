/**
 * The timers of the exchanges' timeouts and of the permits' holds: one fiber per clock calls each
 * timer once it is due, in the order they fall due, on a clock whose times may be fractional.
 */
import { assert, scenario, suite } from "../src/Scenario.js"

export default suite("Timers", [
  scenario("each timer is called once when due, in order, and a removed one never", async (line) => {
    const world = await line.limiters()
    const timers = world.timers()
    const called: Array<[string, number]> = []
    const add = (name: string, at: number) => timers.addAt(at, (now) => called.push([name, now]))
    await add("b", 300)
    await add("a", 100)
    const removed = await add("x", 200)
    await add("c", 300)
    await timers.remove(removed)
    await world.adjust(250)
    assert.deepEqual(called, [["a", 100]])
    await world.adjust(100)
    assert.deepEqual(called, [["a", 100], ["b", 300], ["c", 300]])
  }),

  scenario("on a clock moved by fractional latencies every timer comes due, within a millisecond", async (line) => {
    const world = await line.limiters()
    const timers = world.timers()
    const due: Array<number> = []
    const late: Array<number> = []
    // Fractional times, as the in-process server's random latencies make them: a timer added at a
    // fractional instant, due a fractional delay later, while the clock moves by fractional steps.
    for (let i = 0; i < 300; i++) {
      await world.adjust(3.7312097 + (i % 7) * 0.1234567)
      const at = (await world.now()) + 1000.0003217 + (i % 5) * 0.0000001
      due.push(at)
      await timers.addAt(at, (calledAt) => late.push(calledAt - at))
    }
    await world.adjust(2000)
    assert.equal(late.length, due.length)
    assert.ok(Math.min(...late) >= 0)
    assert.ok(Math.max(...late) <= 1)
  })
])
