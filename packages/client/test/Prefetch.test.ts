/**
 * Streams fetch the two pages after the current one while the caller consumes it: two pages ahead,
 * no further, nothing past the last page, and the pages fetched ahead end with the stream.
 */
import { GroupId } from "@community-api/schema/Ids"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Clock, Deferred, Duration, Effect, Either, Fiber, Stream, TestClock } from "effect"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as BotList from "./support/BotList.js"
import * as FakeServer from "./support/FakeServer.js"

/** A list of `n` bots; each page takes `millis` to answer; `fail` answers error 7 at that offset. */
const listServer = (n: number, millis: number, fail?: number) => {
  const bots = BotList.newestFirst(n)
  const answered: Array<{ readonly offset: number; readonly at: number }> = []
  const fake = FakeServer.make((request) =>
    Effect.gen(function*() {
      const { offset } = BotList.positionOf(request)
      yield* Effect.sleep(Duration.millis(millis))
      answered.push({ offset, at: yield* Clock.currentTimeMillis })
      return offset === fail ? FakeServer.error(7, "ошибка") : BotList.page(bots, request)
    })
  )
  return { ...fake, answered }
}

const params = { group_id: GroupId.make(1) }

describe("Paginate: the next pages while the current one is consumed", () => {
  it.effect("C12 C13 the two next pages are asked for as soon as the first is handed over, and no page past the last", () => {
    const server = listServer(1234, 100)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const consumed: Array<number> = []
      const fiber = yield* Effect.fork(
        Stream.runForEachChunk(client.streams.bots.get(params), (chunk) =>
          // The caller takes 300 ms over each page.
          Effect.zipRight(Effect.sleep(Duration.millis(300)), Effect.sync(() => consumed.push(Chunk.size(chunk)))))
      )
      yield* TestClock.adjust(Duration.seconds(5))
      yield* Fiber.join(fiber)
      expect(consumed).toEqual([500, 500, 234])
      // Sent at 0, then both pages after it at 100 (page 1 handed over, consumed until 400): their
      // fetches overlap each other and the consumption of the first page.
      expect(server.received.map((r) => [r.body.offset, r.at])).toEqual([[0, 0], [500, 100], [1000, 100]])
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 two pages ahead and no further: a caller that stops pulling holds three pages at most", () => {
    const server = listServer(5000, 10)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const never = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(
        Stream.runForEachChunk(client.streams.bots.get(params), () => Deferred.await(never))
      )
      yield* TestClock.adjust(Duration.seconds(10))
      expect(server.received.map((r) => r.body.offset)).toEqual([0, 500, 1000])
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 an interrupted stream interrupts the pages it was fetching ahead", () => {
    const server = listServer(5000, 1000)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.fork(
        Stream.runForEachChunk(client.streams.bots.get(params), () => Effect.sleep(Duration.seconds(1)))
      )
      yield* TestClock.adjust(Duration.millis(1500))
      // The second and third pages were asked for at 1000 ms, while the caller consumed the first.
      expect(server.received.map((r) => r.body.offset)).toEqual([0, 500, 1000])
      yield* Fiber.interrupt(fiber)
      yield* TestClock.adjust(Duration.seconds(10))
      expect(server.answered.map((a) => a.offset)).toEqual([0])
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 a stream taken short ends with its first page and leaves nothing running", () => {
    const server = listServer(5000, 1000)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.fork(Stream.runCollect(Stream.take(client.streams.bots.get(params), 3)))
      yield* TestClock.adjust(Duration.millis(1000))
      expect(Chunk.size(yield* Fiber.join(fiber))).toBe(3)
      yield* TestClock.adjust(Duration.seconds(10))
      expect(server.answered.map((a) => a.offset)).toEqual([0])
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("C12 X1 a page fetched ahead that fails fails the stream after the pages before it", () => {
    const server = listServer(1500, 10, 1000)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const seen: Array<number> = []
      const result = yield* Effect.either(
        Stream.runForEachChunk(
          client.streams.bots.get(params),
          (chunk) => Effect.sync(() => seen.push(Chunk.size(chunk)))
        )
      ).pipe(Effect.fork, Effect.tap(() => TestClock.adjust(Duration.seconds(5))), Effect.flatMap(Fiber.join))
      expect(seen).toEqual([500, 500])
      expect(Either.isLeft(result) && result.left._tag).toBe("InvalidParameterError")
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })
})
