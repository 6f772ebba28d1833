/**
 * B3 pagination: stream all of 100,000 bots of one community through `client.streams.bots.get`, paced
 * by the client, against the server seeded with a generated fixture. Requests and their server time
 * come from the server's log; memory is read after a full garbage collection every 20,000 items (while
 * the stream is still open), and sampled without collection after every page for peaks; the server runs
 * in a child process, so these readings are the client's. A second, untimed pass reads the same pages
 * through `client.page` without the stream's de-duplication, as a control for the memory figure.
 */
import { Ids, Operations } from "@community-api/schema"
import { Chunk, Effect, Option, Stream } from "effect"
import { performance } from "node:perf_hooks"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Clients from "./internal/Clients.js"
import * as Memory from "./internal/Memory.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { median, round } from "./internal/Stats.js"

const items = 100_000
const checkpoint = 20_000
/**
 * The last reading compared: the stream lets go of its state when it emits the last page, so the
 * reading at 100,000 would miss whatever it accumulated.
 */
const lastCheckpoint = items - checkpoint
const pageSize = 500
const ratePerSecond = 30
/** Retained heap may grow by at most this much between the checkpoints (noise, not items). */
const growthBudgetMiB = 2
/** The wall time allowed, over the minimum the rate allows. */
const timeBudget = 1.05

/** What one pass over the stream saw of memory. */
interface Pass {
  readonly items: number
  /** `heapUsed` after a full collection every {@link checkpoint} items, as `20k:63.2 40k:…`. */
  readonly readings: string
  /** Retained heap growth from {@link checkpoint} to {@link lastCheckpoint} items, in MiB. */
  readonly growthMiB: number
  readonly atCheckpointMiB: number
  readonly atLastCheckpointMiB: number
  readonly peakRssMiB: number
  readonly peakHeapUsedMiB: number
}

/** Runs `stream` to its end, reading memory as it goes. */
const pass = <E>(stream: Stream.Stream<unknown, E>): Effect.Effect<Pass, E> =>
  Effect.suspend(() => {
    let seen = 0
    let atCheckpoint = Number.NaN
    let atLast = Number.NaN
    const readings: Array<string> = []
    let peakRss = 0
    let peakHeap = 0
    return stream.pipe(
      Stream.runForEachChunk((chunk) =>
        Effect.sync(() => {
          seen += Chunk.size(chunk)
          const now = Memory.read()
          peakRss = Math.max(peakRss, now.rssMiB)
          peakHeap = Math.max(peakHeap, now.heapUsedMiB)
          if (seen % checkpoint === 0) {
            const reading = Memory.readRetained()
            readings.push(`${seen / 1000}k:${round(reading.heapUsedMiB, 1)}`)
            if (seen === checkpoint) atCheckpoint = reading.heapUsedMiB
            if (seen === lastCheckpoint) atLast = reading.heapUsedMiB
          }
        })
      ),
      Effect.map(() => ({
        items: seen,
        readings: readings.join(" "),
        growthMiB: atLast - atCheckpoint,
        atCheckpointMiB: atCheckpoint,
        atLastCheckpointMiB: atLast,
        peakRssMiB: peakRss,
        peakHeapUsedMiB: peakHeap
      }))
    )
  })

/** Runs B3. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  const server = yield* Servers.spawnReference({ bots: items })
  const client = yield* Clients.make(server.baseUrl, BenchFixture.make({ bots: 0 }).ownerToken)
  const params = { group_id: Ids.GroupId.make(BenchFixture.community.group_id), channel: "VK" as const }

  const baseline = Memory.readRetained()
  yield* server.startRecording
  const started = performance.now()
  const streamed = yield* pass(client.streams.bots.get(params))
  const wallMillis = performance.now() - started
  const log = (yield* server.stopRecording).filter((e) => e.path.endsWith("/bots/get"))

  // The control: the same pages through `client.page`, without the stream's de-duplication, to tell
  // whether the growth is the stream's.
  const control = yield* pass(
    Stream.paginateChunkEffect(
      0,
      (offset) =>
        Effect.map(client.page(Operations.bots.get, params, { offset, count: pageSize }), (page) => {
          const next = offset + page.items.length
          return [
            Chunk.unsafeFromArray([...page.items]),
            page.items.length > 0 && next < page.total ? Option.some(next) : Option.none()
          ] as const
        })
    )
  )
  const seen = streamed.items
  const growth = streamed.growthMiB

  const minRequests = Math.ceil(items / pageSize)
  const minMillis = (minRequests / ratePerSecond) * 1000
  const serverMillis = log.map((e) => e.millis)
  const serverTotal = serverMillis.reduce((a, b) => a + b, 0)
  const figures = {
    items: seen,
    requests: log.length,
    minRequests,
    error5: log.filter((e) => e.outcome === 5).length,
    wallMs: Math.round(wallMillis),
    minWallMs: Math.round(minMillis),
    wallOverMin: round(wallMillis / minMillis, 3),
    serverMsMedianPerPage: round(median(serverMillis), 1),
    serverMsTotal: Math.round(serverTotal),
    baselineHeapMiB: round(baseline.heapUsedMiB, 1),
    retainedHeapMiBEvery20k: streamed.readings,
    retainedHeapMiBAt20k: round(streamed.atCheckpointMiB, 1),
    retainedHeapMiBAt80k: round(streamed.atLastCheckpointMiB, 1),
    retainedGrowthMiB20kTo80k: round(growth, 2),
    retainedGrowthBytesPerItem: round((growth * 1024 * 1024) / (lastCheckpoint - checkpoint), 1),
    peakRssMiB: round(streamed.peakRssMiB, 1),
    peakHeapUsedMiB: round(streamed.peakHeapUsedMiB, 1),
    controlPagesWithoutDedupItems: control.items,
    controlRetainedHeapMiBEvery20k: control.readings,
    controlRetainedGrowthMiB20kTo80k: round(control.growthMiB, 2)
  }
  const requestsOk = figures.requests <= minRequests + 1
  const timeOk = wallMillis <= minMillis * timeBudget
  const memoryOk = growth <= growthBudgetMiB
  const misses: Array<string> = []
  if (!requestsOk) misses.push(`${figures.requests - minRequests - 1} requests over the minimum + 1`)
  if (!timeOk) {
    misses.push(
      `wall time ${round(wallMillis / 1000, 2)} s is ${round((wallMillis / minMillis - 1) * 100, 1)}% over the ` +
        `${round(minMillis / 1000, 2)} s minimum (target ${
          round((timeBudget - 1) * 100, 0)
        }%); the server alone spent ${
          round(serverTotal / 1000, 2)
        } s on the ${log.length} pages (median ${figures.serverMsMedianPerPage} ms a page); each page is asked for ` +
        "while the one before is consumed, but the requests still go one after the other"
    )
  }
  if (!memoryOk) {
    const cause = control.growthMiB <= growthBudgetMiB
      ? `the same pages through client.page without the stream's de-duplication grew ${
        round(control.growthMiB, 2)
      } MiB, so the growth is the stream's set of ids already seen (Paginate.ts, kept to drop repeats)`
      : `the same pages through client.page without the stream's de-duplication grew ${
        round(control.growthMiB, 2)
      } MiB too`
    misses.push(
      `retained heap grew ${
        round(growth, 2)
      } MiB from ${checkpoint} to ${lastCheckpoint} items (${figures.retainedGrowthBytesPerItem} bytes an item, budget ${growthBudgetMiB} MiB): ${cause}`
    )
  }
  return {
    id: "B3",
    title: "Pagination at scale",
    method: `Stream every bot of a community of ${items} (generated fixture) with the client's stream (the next page ` +
      `asked for while the current one is consumed), paced by the client; minimum time = ${minRequests} requests at ${ratePerSecond}/s; memory: heapUsed after a full GC every ` +
      `${checkpoint} items (stream still open), growth = reading at ${lastCheckpoint} − reading at ${checkpoint} (at ${items} the stream has ` +
      `already let go of its state), rss/heapUsed sampled after every page for peaks; ` +
      "the server in a child process, so the heap is the client's; control (untimed): the same pages through " +
      "client.page without the stream's de-duplication.",
    figures,
    target:
      `requests <= ${minRequests + 1}, wall time <= ${timeBudget} × ${round(minMillis / 1000, 2)} s, retained heap ` +
      `growth 20k→80k items <= ${growthBudgetMiB} MiB`,
    met: requestsOk && timeOk && memoryOk,
    headline: `${figures.requests}/${minRequests} requests, ${
      round(wallMillis / 1000, 2)
    } s (${figures.wallOverMin}× min), heap +${round(growth, 1)} MiB 20k→80k`,
    ...(misses.length > 0 ? { note: misses.join("; ") } : {})
  }
}))
