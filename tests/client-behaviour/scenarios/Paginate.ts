/**
 * Paging: every item of a list in pages of 500 from any offset, no duplicates and no gaps while
 * records are added at the front, two pages fetched ahead and nothing past the last.
 */
import * as BotList from "../src/BotList.js"
import type { Line, ScriptedWorld } from "../src/Driver.js"
import { assert, ok, scenario, succeeded, suite } from "../src/Scenario.js"

const { bot } = BotList

type Named = { readonly id: string; readonly name: string; readonly create_at: unknown }

/** A world over a list of `n` bots, newest first; `onPage` may add new ones at the front between pages. */
const listServer = (line: Line, n: number, onPage: (bots: Array<BotList.Bot>, page: number) => void = () => {}) => {
  const bots = BotList.newestFirst(n)
  return line.scripted((request, page) => {
    const answer = BotList.page(bots, request)
    onPage(bots, page)
    return answer
  })
}

/** `[count, offset]` of every request the world's server received. */
const positions = (world: ScriptedWorld) => world.received.map((r) => [r.body["count"], r.body["offset"]])

/** Every record of the list `1..n` is among `ids`, and each of `ids` once. */
const everyOnce = (ids: ReadonlyArray<string>, n: number) => {
  assert.equal(new Set(ids).size, ids.length)
  const seen = new Set(ids)
  for (let i = 1; i <= n; i++) assert.ok(seen.has(bot(i).id), `bot ${i}`)
}

export default suite("Paginate", [
  scenario("C12 C13 streams every item in pages of 500, stopping at total", async (line) => {
    const world = await listServer(line, 1234)
    const client = await world.client()
    const items = await succeeded(client.stream("bots/get", { group_id: 1 })) as ReadonlyArray<Named>
    assert.equal(items.length, 1234)
    assert.equal(items[0]!.name, "Бот 1234")
    assert.equal(line.isDateTime(items[0]!.create_at), true)
    assert.deepEqual(positions(world), [[500, 0], [500, 500], [500, 1000]])
    assert.ok(world.received.every((r) => r.body["group_id"] === 1))
  }),

  scenario("C12 C14 records added at the front while paging give no duplicates and no gaps", async (line) => {
    let next = 1001
    const world = await listServer(line, 1000, (bots, page) => {
      if (page < 2) { for (let i = 0; i < 7; i++) bots.unshift(bot(next++)) }
    })
    const client = await world.client()
    const items = await succeeded(client.streamOf("bots/get", {})) as ReadonlyArray<Named>
    // Every record that existed when paging began is there.
    everyOnce(items.map((b) => b.id), 1000)
  }),

  scenario("C12 C14 more than a page of records added between two requests still gives no duplicates", async (line) => {
    let next = 3001
    const world = await listServer(line, 3000, (bots, page) => {
      if (page === 1) { for (let i = 0; i < 700; i++) bots.unshift(bot(next++)) }
    })
    const client = await world.client()
    const items = await succeeded(client.streamOf("bots/get", {})) as ReadonlyArray<Named>
    everyOnce(items.map((b) => b.id), 3000)
  }),

  scenario("C12 an empty list is one request and no items", async (line) => {
    const world = await listServer(line, 0)
    const client = await world.client()
    assert.equal((await succeeded(client.stream("bots/get"))).length, 0)
    assert.equal(world.received.length, 1)
  }),

  scenario("C13 a single page is reachable with its position", async (line) => {
    const world = await listServer(line, 50)
    const client = await world.client()
    const page = await succeeded(client.page("bots/get", {}, { offset: 10, count: 5 }))
    assert.equal(page.total, 50)
    assert.deepEqual((page.items as ReadonlyArray<Named>).map((b) => b.name), [
      "Бот 40",
      "Бот 39",
      "Бот 38",
      "Бот 37",
      "Бот 36"
    ])
    const direct = await succeeded(client.call("bots/get", { count: 2 })) as { items: ReadonlyArray<unknown> }
    assert.equal(direct.items.length, 2)
  }),

  scenario("C12 C13 pages from offset 0: each page with its offset and the total, ending at the last", async (line) => {
    const world = await listServer(line, 1234)
    const client = await world.client()
    const params = { group_id: 1 }
    const pages = await succeeded(client.pages("bots/get", params))
    assert.deepEqual(pages.map((page) => [page.offset, page.items.length, page.total]), [
      [0, 500, 1234],
      [500, 500, 1234],
      [1000, 234, 1234]
    ])
    assert.deepEqual(positions(world), [[500, 0], [500, 500], [500, 1000]])
    // The items of the item stream are the pages flattened.
    const items = await succeeded(client.pagedItems("bots/get", params)) as ReadonlyArray<Named>
    assert.deepEqual(
      items.map((b) => b.id),
      pages.flatMap((page) => (page.items as ReadonlyArray<Named>).map((b) => b.id))
    )
  }),

  scenario("C12 C13 pages from a middle offset: the records from there, the total of the whole list", async (line) => {
    const world = await listServer(line, 1234)
    const client = await world.client()
    const pages = await succeeded(client.pages("bots/get", {}, { offset: 700, pageSize: 200 }))
    assert.deepEqual(pages.map((page) => [page.offset, page.items.length, page.total]), [
      [700, 200, 1234],
      [900, 200, 1234],
      [1100, 134, 1234]
    ])
    assert.equal((pages[0]!.items[0] as Named).name, "Бот 534")
    assert.equal((pages[2]!.items.at(-1) as Named).name, "Бот 1")
    assert.deepEqual(positions(world), [[200, 700], [200, 900], [200, 1100]])
    const items = await succeeded(client.pagedItems("bots/get", {}, { offset: 1200 })) as ReadonlyArray<Named>
    assert.deepEqual(items.map((b) => b.name), Array.from({ length: 34 }, (_, i) => `Бот ${34 - i}`))
  }),

  scenario("C13 a page size above 500 asks for 500", async (line) => {
    const world = await listServer(line, 600)
    const client = await world.client()
    const pages = await succeeded(client.pages("bots/get", {}, { offset: 50, pageSize: 1000 }))
    assert.deepEqual(pages.map((page) => page.items.length), [500, 50])
    assert.deepEqual(positions(world), [[500, 50], [500, 550]])
  }),

  scenario(
    "C12 C13 an offset past the end, or at it, is one request and one empty page with the total",
    async (line) => {
      const world = await listServer(line, 40)
      const client = await world.client()
      for (const offset of [1000, 40]) {
        const pages = await succeeded(client.pages("bots/get", {}, { offset }))
        assert.deepEqual(pages.map((page) => ({ ...page })), [{ items: [], total: 40, offset }])
      }
      assert.deepEqual(world.received.map((r) => r.body["offset"]), [1000, 40])
    }
  ),

  scenario(
    "C12 C14 a page holds only the records not seen before; the next offset counts every record of the page",
    async (line) => {
      let next = 101
      const world = await listServer(line, 100, (bots, page) => {
        if (page === 0) { for (let i = 0; i < 3; i++) bots.unshift(bot(next++)) }
      })
      const client = await world.client()
      const pages = await succeeded(client.pages("bots/get", {}, { offset: 10, pageSize: 50 }))
      // Three records created after the first page push three of it onto the second (43 records to the
      // end of the list), where they are dropped: the 90 records from offset 10, each once.
      assert.deepEqual(pages.map((page) => [page.offset, page.items.length, page.total]), [
        [10, 50, 100],
        [60, 40, 103]
      ])
      const names = pages.flatMap((page) => (page.items as ReadonlyArray<Named>).map((b) => b.name))
      assert.equal(new Set(names).size, names.length)
      assert.equal(names.at(-1), "Бот 1")
    }
  ),

  scenario("C12 C13 pages from an offset fetch two pages ahead and nothing past the last", async (line) => {
    const world = await line.scripted(() => ok())
    const asked: Array<[number, number]> = []
    const consumed: Array<[number, number]> = []
    // A list of 250 records, each page answered 100 ms after it is asked for.
    const call = world.pages(
      (position, at) => {
        asked.push([position.offset, at])
        return {
          millis: 100,
          then: () => ({
            items: Array.from(
              { length: Math.max(0, Math.min(position.count, 250 - position.offset)) },
              (_, i) => ({ id: String(position.offset + i) })
            ),
            total: 250
          })
        }
      },
      { offset: 30, pageSize: 100 },
      {
        // The caller takes 300 ms over each page.
        millis: 300,
        each: (page, at) => consumed.push([page.offset, at])
      }
    )
    await world.adjust(5000)
    await succeeded(call)
    // Asked at 0, both pages after it at 100 (first page handed over), and nothing after the last.
    assert.deepEqual(asked, [[30, 0], [130, 100], [230, 100]])
    assert.deepEqual(consumed, [[30, 400], [130, 700], [230, 1000]])
  }),

  scenario(
    "C12 C13 a page that comes back short gives up the page fetched ahead of it and asks where the list goes on",
    async (line) => {
      const world = await line.scripted(() => ok())
      const asked: Array<[number, number]> = []
      const answered: Array<number> = []
      // A list of 350 records in pages of 100; the page at 100 holds 90 only, and the page at 200
      // takes long enough to be given up before it answers.
      const call = world.pages((position, at) => {
        asked.push([position.offset, at])
        return {
          millis: position.offset === 200 ? 500 : 100,
          then: () => {
            answered.push(position.offset)
            const length = position.offset === 100 ? 90 : Math.min(position.count, 350 - position.offset)
            return { items: Array.from({ length }, (_, i) => ({ id: String(position.offset + i) })), total: 350 }
          }
        }
      }, { pageSize: 100 })
      await world.adjust(5000)
      const pages = await succeeded(call)
      assert.deepEqual(asked, [[0, 0], [100, 100], [200, 100], [190, 200], [290, 200]])
      // The two last were asked at the same moment and answer together, in either order.
      assert.deepEqual([...answered].sort((a, b) => a - b), [0, 100, 190, 290])
      assert.deepEqual(pages.map((page) => [page.offset, page.items.length]), [[0, 100], [100, 90], [190, 100], [
        290,
        60
      ]])
      const ids = pages.flatMap((page) => (page.items as ReadonlyArray<{ id: string }>).map((item) => Number(item.id)))
      assert.deepEqual(ids, Array.from({ length: 350 }, (_, i) => i))
    }
  ),

  scenario("C12 items are told apart by id, else by community pair", async (line) => {
    assert.equal(line.keyOf({ id: "a" }), "id:a")
    assert.notEqual(line.keyOf({ group_id: 1, channel: "VK" }), line.keyOf({ group_id: 1, channel: "TG" }))
  })
])
