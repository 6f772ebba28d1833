/**
 * B3 pagination: stream all of 100,000 bots of one community through `client.streams.bots.get`, paced
 * by the client, against the server seeded with a generated fixture. Requests and their server time
 * come from the server's log; memory is read after a full garbage collection at 20,000 and at 100,000
 * items (while the stream is still open), and sampled without collection after every page for peaks;
 * the server runs in a child process, so these readings are the client's.
 */
import { Ids } from "@community-api/schema"
import { Chunk, Effect, Stream } from "effect"
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

/** Runs B3. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  const server = yield* Servers.spawnReference({ bots: items })
  const client = yield* Clients.make(server.baseUrl, BenchFixture.make({ bots: 0 }).ownerToken)
  const params = { group_id: Ids.GroupId.make(BenchFixture.community.group_id), channel: "VK" as const }

  const baseline = Memory.readRetained()
  let seen = 0
  let atCheckpoint: Memory.Reading | undefined
  let atEnd: Memory.Reading | undefined
  const retained: Array<string> = []
  let peakRss = 0
  let peakHeap = 0
  yield* server.startRecording
  const started = performance.now()
  yield* client.streams.bots.get(params).pipe(
    Stream.runForEachChunk((chunk) =>
      Effect.sync(() => {
        seen += Chunk.size(chunk)
        const now = Memory.read()
        peakRss = Math.max(peakRss, now.rssMiB)
        peakHeap = Math.max(peakHeap, now.heapUsedMiB)
        if (seen % checkpoint === 0) {
          const reading = Memory.readRetained()
          retained.push(`${seen / 1000}k:${round(reading.heapUsedMiB, 1)}`)
          if (seen === checkpoint) atCheckpoint = reading
          if (seen === lastCheckpoint) atEnd = reading
        }
      })
    )
  )
  const wallMillis = performance.now() - started
  const log = (yield* server.stopRecording).filter((e) => e.path.endsWith("/bots/get"))

  const minRequests = Math.ceil(items / pageSize)
  const minMillis = (minRequests / ratePerSecond) * 1000
  const growth = (atEnd?.heapUsedMiB ?? Number.NaN) - (atCheckpoint?.heapUsedMiB ?? Number.NaN)
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
    retainedHeapMiBEvery20k: retained.join(" "),
    retainedHeapMiBAt20k: round(atCheckpoint?.heapUsedMiB ?? Number.NaN, 1),
    retainedHeapMiBAt80k: round(atEnd?.heapUsedMiB ?? Number.NaN, 1),
    retainedGrowthMiB20kTo80k: round(growth, 2),
    retainedGrowthBytesPerItem: round((growth * 1024 * 1024) / (lastCheckpoint - checkpoint), 1),
    peakRssMiB: round(peakRss, 1),
    peakHeapUsedMiB: round(peakHeap, 1)
  }
  const requestsOk = figures.requests <= minRequests + 1
  const timeOk = wallMillis <= minMillis * 1.1
  const memoryOk = growth <= growthBudgetMiB
  const misses: Array<string> = []
  if (!requestsOk) misses.push(`${figures.requests - minRequests - 1} requests over the minimum + 1`)
  if (!timeOk) {
    misses.push(
      `wall time ${round(wallMillis / 1000, 2)} s is ${round((wallMillis / minMillis - 1) * 100, 1)}% over the ` +
        `${round(minMillis / 1000, 2)} s minimum (target 10%); the server alone spent ${
          round(serverTotal / 1000, 2)
        } s on the ${log.length} pages (median ${figures.serverMsMedianPerPage} ms a page), and pages are fetched ` +
        "one after the other"
    )
  }
  if (!memoryOk) {
    misses.push(
      `retained heap grew ${
        round(growth, 2)
      } MiB from ${checkpoint} to ${lastCheckpoint} items (${figures.retainedGrowthBytesPerItem} bytes an item, budget ${growthBudgetMiB} MiB): memory grows with the number of items, most likely the ` +
        "client stream's set of ids already seen (Paginate.ts, kept to drop repeats)"
    )
  }
  return {
    id: "B3",
    title: "Pagination at scale",
    method: `Stream every bot of a community of ${items} (generated fixture) with the client's stream, paced by the ` +
      `client; minimum time = ${minRequests} requests at ${ratePerSecond}/s; memory: heapUsed after a full GC every ` +
      `${checkpoint} items (stream still open), growth = reading at ${lastCheckpoint} − reading at ${checkpoint} (at ${items} the stream has ` +
      `already let go of its state), rss/heapUsed sampled after every page for peaks; ` +
      "the server in a child process, so the heap is the client's.",
    figures,
    target: `requests <= ${minRequests + 1}, wall time <= 1.1 × ${round(minMillis / 1000, 2)} s, retained heap ` +
      `growth 20k→80k items <= ${growthBudgetMiB} MiB`,
    met: requestsOk && timeOk && memoryOk,
    headline: `${figures.requests}/${minRequests} requests, ${
      round(wallMillis / 1000, 2)
    } s (${figures.wallOverMin}× min), heap +${round(growth, 1)} MiB 20k→80k`,
    ...(misses.length > 0 ? { note: misses.join("; ") } : {})
  }
}))
