/**
 * B3 pagination on the Effect 4 line: the Effect 3 line's workload, meter and report
 * (`@community-api/bench/B3Workload`), streaming 100,000 bots through this line's
 * `client.streams.bots.get`, against the same reference server in a child process.
 */
import * as Workload from "@community-api/bench/B3Workload"
import * as BenchFixture from "@community-api/bench/BenchFixture"
import * as Memory from "@community-api/bench/Memory"
import * as ReferenceChild from "@community-api/bench/ReferenceChild"
import type { Result } from "@community-api/bench/Result"
import { Ids, Operations } from "@community-api/effect4-schema"
import { Effect, Option, Stream } from "effect"
import { performance } from "node:perf_hooks"
import * as Clients from "./internal/Clients.js"

/** Runs `stream` to its end, reading memory as it goes (with full collections when `retained`). */
const pass = <E>(stream: Stream.Stream<unknown, E>, retained = true): Effect.Effect<Workload.Pass, E> =>
  Effect.suspend(() => {
    const meter = Workload.meter({ retained })
    return stream.pipe(
      Stream.runForEachArray((items) => Effect.sync(() => meter.chunk(items.length))),
      Effect.map(meter.pass)
    )
  })

/** Runs B3 under the entry `id` and `title`. */
export const run = (options: { readonly id: string; readonly title: string }): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const server = yield* Effect.acquireRelease(
      Effect.promise(() => ReferenceChild.spawn({ bots: Workload.items })),
      (server) => Effect.sync(server.close)
    )
    const client = yield* Clients.make(server.baseUrl, BenchFixture.make({ bots: 0 }).ownerToken)
    const params = { group_id: Ids.GroupId.make(BenchFixture.community.group_id), channel: "VK" as const }

    const baseline = Memory.readRetained()
    // The memory readings, each after a full collection, in a pass of their own: untimed. It is also the
    // warm-up of the timed pass, as a service that has run a while.
    const streamed = yield* pass(client.streams.bots.get(params))
    // The control: the same pages through `client.page`, without the stream's de-duplication.
    const control = yield* pass(
      Stream.paginate(
        0,
        (offset: number) =>
          Effect.map(client.page(Operations.bots.get, params, { offset, count: Workload.pageSize }), (page) => {
            const next = offset + page.items.length
            return [page.items, page.items.length > 0 && next < page.total ? Option.some(next) : Option.none()] as const
          })
      )
    )
    // The timed pass, once the permits of the passes before are back (a window and the margin).
    yield* Effect.sleep("1200 millis")
    yield* Effect.promise(server.startRecording)
    const started = performance.now()
    const timed = yield* pass(client.streams.bots.get(params), false)
    const wallMillis = performance.now() - started
    const log = yield* Effect.promise(server.stopRecording)
    return Workload.report({ baseline, timed, streamed, wallMillis, log, control }, options)
  }).pipe(Effect.scoped)
