/**
 * Streams fetch the two pages after the current one while the caller consumes it: two pages ahead,
 * no further, nothing past the last page, and the pages fetched ahead end with the stream.
 */
import * as BotList from "../src/BotList.js"
import type { Line } from "../src/Driver.js"
import { assert, error, failed, scenario, succeeded, suite, wait } from "../src/Scenario.js"

/** A world over a list of `n` bots; each page takes `millis` to answer; `fail` answers error 7 at that offset. */
const listServer = async (line: Line, n: number, millis: number, fail?: number) => {
  const bots = BotList.newestFirst(n)
  const answered: Array<{ readonly offset: number; readonly at: number }> = []
  const world = await line.scripted((request) => {
    const { offset } = BotList.positionOf(request)
    return wait(millis, (at) => {
      answered.push({ offset, at })
      return offset === fail ? error(7, "ошибка") : BotList.page(bots, request)
    })
  })
  return { world, answered, client: await world.client() }
}

const params = { group_id: 1 }

export default suite("Paginate: the next pages while the current one is consumed", [
  scenario(
    "C12 C13 the two next pages are asked for as soon as the first is handed over, and no page past the last",
    async (line) => {
      const { client, world } = await listServer(line, 1234, 100)
      const consumed: Array<number> = []
      // The caller takes 300 ms over each page.
      const call = client.consume("bots/get", params, { millis: 300, each: (chunk) => consumed.push(chunk.length) })
      await world.adjust(5000)
      await succeeded(call)
      assert.deepEqual(consumed, [500, 500, 234])
      // Sent at 0, then both pages after it at 100 (page 1 handed over, consumed until 400): their
      // fetches overlap each other and the consumption of the first page.
      assert.deepEqual(world.received.map((r) => [r.body["offset"], r.at]), [[0, 0], [500, 100], [1000, 100]])
    }
  ),

  scenario(
    "C12 two pages ahead and no further: a caller that stops pulling holds three pages at most",
    async (line) => {
      const { client, world } = await listServer(line, 5000, 10)
      const call = client.consume("bots/get", params, { millis: "never" })
      await world.adjust(10_000)
      assert.deepEqual(world.received.map((r) => r.body["offset"]), [0, 500, 1000])
      await call.interrupt()
    }
  ),

  scenario("C12 an interrupted stream interrupts the pages it was fetching ahead", async (line) => {
    const { answered, client, world } = await listServer(line, 5000, 1000)
    const call = client.consume("bots/get", params, { millis: 1000 })
    await world.adjust(1500)
    // The second and third pages were asked for at 1000 ms, while the caller consumed the first.
    assert.deepEqual(world.received.map((r) => r.body["offset"]), [0, 500, 1000])
    await call.interrupt()
    await world.adjust(10_000)
    assert.deepEqual(answered.map((a) => a.offset), [0])
  }),

  scenario("C12 a stream taken short ends with its first page and leaves nothing running", async (line) => {
    const { answered, client, world } = await listServer(line, 5000, 1000)
    const call = client.stream("bots/get", params, { take: 3 })
    await world.adjust(1000)
    assert.equal((await succeeded(call)).length, 3)
    await world.adjust(10_000)
    assert.deepEqual(answered.map((a) => a.offset), [0])
  }),

  scenario("C12 X1 a page fetched ahead that fails fails the stream after the pages before it", async (line) => {
    const { client, world } = await listServer(line, 1500, 10, 1000)
    const seen: Array<number> = []
    const call = client.consume("bots/get", params, { each: (chunk) => seen.push(chunk.length) })
    await world.adjust(5000)
    const failure = await failed(call)
    assert.deepEqual(seen, [500, 500])
    assert.equal(failure._tag, "InvalidParameterError")
  })
])
