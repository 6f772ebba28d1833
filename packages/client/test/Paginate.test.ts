import { Operations } from "@community-api/schema"
import { GroupId } from "@community-api/schema/Ids"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, DateTime, Effect, Stream } from "effect"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as Paginate from "../src/Paginate.js"
import * as FakeServer from "./support/FakeServer.js"

const bot = (n: number) => ({
  id: n.toString(16).padStart(24, "0"),
  name: `Бот ${n}`,
  group_id: 1,
  channel: "VK",
  active: 1,
  archived: 0,
  activity_type: "subscribe",
  create_at: 1_700_000_000 + n
})

/** A list server of `n` bots, newest first; `onPage` may add new ones at the front between pages. */
const listServer = (n: number, onPage: (bots: Array<ReturnType<typeof bot>>, page: number) => void = () => {}) => {
  const bots = Array.from({ length: n }, (_, i) => bot(n - i))
  let pages = 0
  const fake = FakeServer.make((request) => {
    const count = Math.min(Number(request.body.count ?? 100), 500)
    const offset = Number(request.body.offset ?? 0)
    const answer = FakeServer.ok({ items: bots.slice(offset, offset + count), total: bots.length })
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
      const items = Chunk.toReadonlyArray(
        yield* Stream.runCollect(client.streams.bots.get({ group_id: GroupId.make(1) }))
      )
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
      const items = Chunk.toReadonlyArray(yield* Stream.runCollect(client.stream(Operations.bots.get, {})))
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
      const items = Chunk.toReadonlyArray(yield* Stream.runCollect(client.stream(Operations.bots.get, {})))
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
      expect(Chunk.size(items)).toBe(0)
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

  it("C12 items are told apart by id, else by community pair", () => {
    expect(Paginate.keyOf({ id: "a" })).toBe("id:a")
    expect(Paginate.keyOf({ group_id: 1, channel: "VK" })).not.toBe(Paginate.keyOf({ group_id: 1, channel: "TG" }))
  })
})
