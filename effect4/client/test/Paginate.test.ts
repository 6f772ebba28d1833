import { Ids, Operations } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { Clock, DateTime, Duration, Effect, Fiber, Schema, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as Paginate from "../src/Paginate.js"
import * as BotList from "./support/BotList.js"
import * as FakeServer from "./support/FakeServer.js"

const { bot } = BotList

/** A list server of `n` bots, newest first; `onPage` may add new ones at the front between pages. */
const listServer = (n: number, onPage: (bots: Array<BotList.Bot>, page: number) => void = () => {}) => {
  const bots = BotList.newestFirst(n)
  let pages = 0
  const fake = FakeServer.make((request) => {
    const answer = BotList.page(bots, request)
    onPage(bots, pages++)
    return Effect.succeed(answer)
  })
  return { ...fake, bots }
}

describe("Paginate", () => {
  it.effect("C12 C13 streams every item in pages of 500, stopping at total", () => {
    const server = listServer(1234)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const items = yield* Stream.runCollect(client.streams.bots.get({ group_id: Schema.decodeSync(Ids.GroupId)(1) }))
      expect(items).toHaveLength(1234)
      expect(items[0]!.name).toBe("Бот 1234")
      expect(DateTime.isDateTime(items[0]!.create_at)).toBe(true)
      expect(server.received.map((r) => [r.body.count, r.body.offset])).toEqual([[500, 0], [500, 500], [500, 1000]])
      expect(server.received.every((r) => r.body.group_id === 1)).toBe(true)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 C14 records added at the front while paging give no duplicates and no gaps", () => {
    let next = 1001
    const server = listServer(1000, (bots, page) => {
      if (page < 2) { for (let i = 0; i < 7; i++) bots.unshift(bot(next++)) }
    })
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const items = yield* Stream.runCollect(client.stream(Operations.bots.get, {}))
      const ids = items.map((b) => b.id)
      expect(new Set(ids).size).toBe(ids.length)
      // Every record that existed when paging began is there.
      for (let n = 1; n <= 1000; n++) expect(ids).toContain(bot(n).id)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 C14 more than a page of records added between two requests still gives no duplicates", () => {
    let next = 3001
    const server = listServer(3000, (bots, page) => {
      if (page === 1) { for (let i = 0; i < 700; i++) bots.unshift(bot(next++)) }
    })
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const items = yield* Stream.runCollect(client.stream(Operations.bots.get, {}))
      const ids = items.map((b) => b.id)
      expect(new Set(ids).size).toBe(ids.length)
      for (let n = 1; n <= 3000; n++) expect(ids).toContain(bot(n).id)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 an empty list is one request and no items", () => {
    const server = listServer(0)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const items = yield* Stream.runCollect(client.streams.bots.get())
      expect(items.length).toBe(0)
      expect(server.received).toHaveLength(1)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C13 a single page is reachable with its position", () => {
    const server = listServer(50)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const page = yield* client.page(Operations.bots.get, {}, { offset: 10, count: 5 })
      expect(page.total).toBe(50)
      expect(page.items.map((b) => b.name)).toEqual(["Бот 40", "Бот 39", "Бот 38", "Бот 37", "Бот 36"])
      const direct = yield* client.bots.get({ count: 2 })
      expect(direct.items).toHaveLength(2)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 C13 pages from offset 0: each page with its offset and the total, ending at the last", () => {
    const server = listServer(1234)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const params = { group_id: Schema.decodeSync(Ids.GroupId)(1) }
      const fetch = (position: Paginate.Position) => client.page(Operations.bots.get, params, position)
      const pages = yield* Stream.runCollect(Paginate.pages(fetch))
      expect(pages.map((page) => [page.offset, page.items.length, page.total])).toEqual([
        [0, 500, 1234],
        [500, 500, 1234],
        [1000, 234, 1234]
      ])
      expect(server.received.map((r) => [r.body.count, r.body.offset])).toEqual([[500, 0], [500, 500], [500, 1000]])
      // The items of the item stream are the pages flattened.
      const items = yield* Stream.runCollect(Paginate.stream(fetch))
      expect(items.map((b) => b.id)).toEqual(pages.flatMap((page) => page.items.map((b) => b.id)))
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 C13 pages from a middle offset: the records from there, the total of the whole list", () => {
    const server = listServer(1234)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fetch = (position: Paginate.Position) => client.page(Operations.bots.get, {}, position)
      const pages = yield* Stream.runCollect(Paginate.pages(fetch, { offset: 700, pageSize: 200 }))
      expect(pages.map((page) => [page.offset, page.items.length, page.total])).toEqual([
        [700, 200, 1234],
        [900, 200, 1234],
        [1100, 134, 1234]
      ])
      expect(pages[0]!.items[0]!.name).toBe("Бот 534")
      expect(pages[2]!.items.at(-1)!.name).toBe("Бот 1")
      expect(server.received.map((r) => [r.body.count, r.body.offset])).toEqual([[200, 700], [200, 900], [200, 1100]])
      const items = yield* Stream.runCollect(Paginate.stream(fetch, { offset: 1200 }))
      expect(items.map((b) => b.name)).toEqual(
        Array.from({ length: 34 }, (_, i) => `Бот ${34 - i}`)
      )
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C13 a page size above 500 asks for 500", () => {
    const server = listServer(600)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fetch = (position: Paginate.Position) => client.page(Operations.bots.get, {}, position)
      const pages = yield* Stream.runCollect(Paginate.pages(fetch, { offset: 50, pageSize: 1000 }))
      expect(pages.map((page) => page.items.length)).toEqual([500, 50])
      expect(server.received.map((r) => [r.body.count, r.body.offset])).toEqual([[500, 50], [500, 550]])
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 C13 an offset past the end, or at it, is one request and one empty page with the total", () => {
    const server = listServer(40)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fetch = (position: Paginate.Position) => client.page(Operations.bots.get, {}, position)
      for (const offset of [1000, 40]) {
        const pages = yield* Stream.runCollect(Paginate.pages(fetch, { offset }))
        expect(pages).toEqual([{ items: [], total: 40, offset }])
      }
      expect(server.received.map((r) => r.body.offset)).toEqual([1000, 40])
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 C14 a page holds only the records not seen before; the next offset counts every record of the page", () => {
    let next = 101
    const server = listServer(100, (bots, page) => {
      if (page === 0) { for (let i = 0; i < 3; i++) bots.unshift(bot(next++)) }
    })
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fetch = (position: Paginate.Position) => client.page(Operations.bots.get, {}, position)
      const pages = yield* Stream.runCollect(Paginate.pages(fetch, { offset: 10, pageSize: 50 }))
      // Three records created after the first page push three of it onto the second (43 records to the
      // end of the list), where they are dropped: the 90 records from offset 10, each once.
      expect(pages.map((page) => [page.offset, page.items.length, page.total])).toEqual([
        [10, 50, 100],
        [60, 40, 103]
      ])
      const names = pages.flatMap((page) => page.items.map((b) => b.name))
      expect(new Set(names).size).toBe(names.length)
      expect(names.at(-1)).toBe("Бот 1")
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 C13 pages from an offset fetch two pages ahead and nothing past the last", () =>
    Effect.gen(function*() {
      const asked: Array<[number, number]> = []
      // A list of 250 records, each page answered 100 ms after it is asked for.
      const fetch = (position: Paginate.Position) =>
        Effect.gen(function*() {
          asked.push([position.offset, yield* Clock.currentTimeMillis])
          yield* Effect.sleep(Duration.millis(100))
          const items = Array.from(
            { length: Math.max(0, Math.min(position.count, 250 - position.offset)) },
            (_, i) => ({ id: String(position.offset + i) })
          )
          return { items, total: 250 }
        })
      const consumed: Array<[number, number]> = []
      const fiber = yield* Effect.forkChild(
        Stream.runForEach(Paginate.pages(fetch, { offset: 30, pageSize: 100 }), (page) =>
          // The caller takes 300 ms over each page.
          Effect.andThen(
            Effect.sleep(Duration.millis(300)),
            Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => consumed.push([page.offset, now])))
          ))
      )
      yield* TestClock.adjust(Duration.seconds(5))
      yield* Fiber.join(fiber)
      // Asked at 0, both pages after it at 100 (first page handed over), and nothing after the last.
      expect(asked).toEqual([[30, 0], [130, 100], [230, 100]])
      expect(consumed).toEqual([[30, 400], [130, 700], [230, 1000]])
    }))

  it.effect("C12 C13 a page that comes back short gives up the page fetched ahead of it and asks where the list goes on", () =>
    Effect.gen(function*() {
      const asked: Array<[number, number]> = []
      const answered: Array<number> = []
      // A list of 350 records in pages of 100; the page at 100 holds 90 only, and the page at 200
      // takes long enough to be given up before it answers.
      const fetch = (position: Paginate.Position) =>
        Effect.gen(function*() {
          asked.push([position.offset, yield* Clock.currentTimeMillis])
          yield* Effect.sleep(Duration.millis(position.offset === 200 ? 500 : 100))
          answered.push(position.offset)
          const length = position.offset === 100 ? 90 : Math.min(position.count, 350 - position.offset)
          return { items: Array.from({ length }, (_, i) => ({ id: String(position.offset + i) })), total: 350 }
        })
      const fiber = yield* Effect.forkChild(Stream.runCollect(Paginate.pages(fetch, { pageSize: 100 })))
      yield* TestClock.adjust(Duration.seconds(5))
      const pages = yield* Fiber.join(fiber)
      expect(asked).toEqual([[0, 0], [100, 100], [200, 100], [190, 200], [290, 200]])
      // The two last were asked at the same moment and answer together, in either order.
      expect([...answered].sort((a, b) => a - b)).toEqual([0, 100, 190, 290])
      expect(pages.map((page) => [page.offset, page.items.length])).toEqual([[0, 100], [100, 90], [190, 100], [
        290,
        60
      ]])
      const ids = pages.flatMap((page) => page.items.map((item) => Number(item.id)))
      expect(ids).toEqual(Array.from({ length: 350 }, (_, i) => i))
    }))

  it("C12 items are told apart by id, else by community pair", () => {
    expect(Paginate.keyOf({ id: "a" })).toBe("id:a")
    expect(Paginate.keyOf({ group_id: 1, channel: "VK" })).not.toBe(Paginate.keyOf({ group_id: 1, channel: "TG" }))
  })
})
