/**
 * B3's workload, meter and report, shared by both Effect lines (plain TypeScript, no Effect): the
 * sizes, the memory readings taken as the items arrive, and the result. Each line gives only its
 * passes: its client's stream, and the control through its `client.page`.
 */
import * as Memory from "./Memory.js"
import type * as ReferenceChild from "./ReferenceChild.js"
import type { Result } from "./Result.js"
import { median, round } from "./Stats.js"

export const items = 100_000
const checkpoint = 20_000
/**
 * The last reading compared: the stream lets go of its state when it emits the last page, so the
 * reading at 100,000 would miss whatever it accumulated.
 */
const lastCheckpoint = items - checkpoint
export const pageSize = 500
const ratePerSecond = 30
/** Retained heap may grow by at most this much between the checkpoints (noise, not items). */
const growthBudgetMiB = 2
/** The wall time allowed, over the minimum the rate allows. */
const timeBudget = 1.05

/** What one pass over the stream saw of memory. */
export interface Pass {
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

/**
 * Reads memory as the chunks of a pass arrive: `chunk(size)` after each, `pass()` at the end. With
 * `retained: false` (the timed pass) only the cheap readings for the peaks are taken: a full collection
 * every {@link checkpoint} items holds the client's event loop for about a tenth of a second, which
 * the wall time would count.
 */
export const meter = (
  options: { readonly retained: boolean } = { retained: true }
): { readonly chunk: (size: number) => void; readonly pass: () => Pass } => {
  let seen = 0
  let atCheckpoint = Number.NaN
  let atLast = Number.NaN
  const readings: Array<string> = []
  let peakRss = 0
  let peakHeap = 0
  return {
    chunk: (size) => {
      seen += size
      const now = Memory.read()
      peakRss = Math.max(peakRss, now.rssMiB)
      peakHeap = Math.max(peakHeap, now.heapUsedMiB)
      if (options.retained && seen % checkpoint === 0) {
        const reading = Memory.readRetained()
        readings.push(`${seen / 1000}k:${round(reading.heapUsedMiB, 1)}`)
        if (seen === checkpoint) atCheckpoint = reading.heapUsedMiB
        if (seen === lastCheckpoint) atLast = reading.heapUsedMiB
      }
    },
    pass: () => ({
      items: seen,
      readings: readings.join(" "),
      growthMiB: atLast - atCheckpoint,
      atCheckpointMiB: atCheckpoint,
      atLastCheckpointMiB: atLast,
      peakRssMiB: peakRss,
      peakHeapUsedMiB: peakHeap
    })
  }
}

/**
 * What a line measured: the stream's timed pass, its pass with the memory readings (untimed), and the
 * control's.
 */
export interface Measured {
  readonly baseline: Memory.Reading
  readonly timed: Pass
  readonly streamed: Pass
  readonly wallMillis: number
  /** The server's log of the timed pass. */
  readonly log: ReadonlyArray<ReferenceChild.Recorded>
  readonly control: Pass
}

/** The result of B3. */
export const report = (
  { baseline, control, log: all, streamed, timed, wallMillis }: Measured,
  options: { readonly id: string; readonly title: string }
): Result => {
  const log = all.filter((e) => e.path.endsWith("/bots/get"))
  const growth = streamed.growthMiB
  const minRequests = Math.ceil(items / pageSize)
  const minMillis = (minRequests / ratePerSecond) * 1000
  const serverMillis = log.map((e) => e.millis)
  const serverTotal = serverMillis.reduce((a, b) => a + b, 0)
  const figures = {
    items: timed.items,
    memoryPassItems: streamed.items,
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
        } s on the ${log.length} pages (median ${figures.serverMsMedianPerPage} ms a page)`
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
    id: options.id,
    title: options.title,
    method: `Stream every bot of a community of ${items} (generated fixture) with the client's stream (the pages ` +
      `after the current one asked for while it is consumed), paced by the client, timed with no full GC in it; minimum ` +
      `time = ${minRequests} requests at ${ratePerSecond}/s; memory, from a second pass of the stream (untimed): heapUsed after a full GC every ` +
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
}
