/**
 * B3 pagination: stream all of 100,000 bots of one community through `client.streams.bots.get`, paced
 * by the client, against the server seeded with a generated fixture. Requests and their server time
 * come from the server's log of a timed pass, which forces no collection (a full one holds the event
 * loop about a tenth of a second). A second pass of the stream, untimed, reads memory after a full
 * garbage collection every 20,000 items (while the stream is still open), and without collection after
 * every page for peaks; the server runs in a child process, so these readings are the client's. A third,
 * untimed pass reads the same pages through `client.page` without the stream's de-duplication, as a
 * control for the memory figure.
 */
import { Ids, Operations } from "@community-api/schema"
import { Chunk, Effect, Option, Stream } from "effect"
import { performance } from "node:perf_hooks"
import * as Workload from "./internal/B3Workload.js"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Clients from "./internal/Clients.js"
import * as Memory from "./internal/Memory.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"

/** Runs `stream` to its end, reading memory as it goes (with full collections when `retained`). */
const pass = <E>(stream: Stream.Stream<unknown, E>, retained = true): Effect.Effect<Workload.Pass, E> =>
  Effect.suspend(() => {
    const meter = Workload.meter({ retained })
    return stream.pipe(
      Stream.runForEachChunk((chunk) => Effect.sync(() => meter.chunk(Chunk.size(chunk)))),
      Effect.map(meter.pass)
    )
  })

/** Runs B3 (`id` and `title` name the entry: the lines comparison runs it under its own). */
export const runAs = (options: { readonly id: string; readonly title: string }): Effect.Effect<Result, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* Servers.spawnReference({ bots: Workload.items })
    const client = yield* Clients.make(server.baseUrl, BenchFixture.make({ bots: 0 }).ownerToken)
    const params = { group_id: Ids.GroupId.make(BenchFixture.community.group_id), channel: "VK" as const }

    const baseline = Memory.readRetained()
    // The memory readings, each after a full collection, in a pass of their own: untimed. It is also the
    // warm-up of the timed pass, as a service that has run a while.
    const streamed = yield* pass(client.streams.bots.get(params))
    // The control: the same pages through `client.page`, without the stream's de-duplication, to tell
    // whether the growth is the stream's.
    const control = yield* pass(
      Stream.paginateChunkEffect(
        0,
        (offset) =>
          Effect.map(client.page(Operations.bots.get, params, { offset, count: Workload.pageSize }), (page) => {
            const next = offset + page.items.length
            return [
              Chunk.unsafeFromArray([...page.items]),
              page.items.length > 0 && next < page.total ? Option.some(next) : Option.none()
            ] as const
          })
      )
    )
    // The timed pass, once the permits of the passes before are back (a window and the margin).
    yield* Effect.sleep("1200 millis")
    yield* server.startRecording
    const started = performance.now()
    const timed = yield* pass(client.streams.bots.get(params), false)
    const wallMillis = performance.now() - started
    const log = yield* server.stopRecording
    return Workload.report({ baseline, timed, streamed, wallMillis, log, control }, options)
  }))

/** Runs B3. */
export const run: Effect.Effect<Result, unknown> = runAs({ id: "B3", title: "Pagination at scale" })
