/**
 * B2's workload, harness and report, shared by both Effect lines (plain TypeScript, no Effect): the
 * latencies, one measured run against the server in a child process (reset, latency, the request
 * log) and its counts, and the result of the lines comparison. Each line gives only its loop: its
 * client's fibers calling `users/me` until the end.
 */
import * as ReferenceChild from "./ReferenceChild.js"
import type { Result } from "./Result.js"
import { round } from "./Stats.js"

/** Fibers of one user calling in a loop. */
export const fibers = 16
export const seconds = 15
const bucketMillis = 100
const limit = 30
/** The share of its latency's bound the client reaches, at the least. */
export const share = 0.97

/** A server latency of a run: before the server counts a request. */
export interface Latency {
  readonly name: string
  readonly label: string
  readonly faults: ReferenceChild.FaultSettings
  /** How far apart its delays may be (the largest less the smallest), in milliseconds. */
  readonly spreadMillis: number
}

/** The server's latency in each run. */
export const latencies: ReadonlyArray<Latency> = [
  { name: "0ms", label: "0 ms", faults: {}, spreadMillis: 0 },
  { name: "50ms", label: "50 ms", faults: { latency: { fixed: 50 } }, spreadMillis: 0 },
  { name: "100ms", label: "100 ms", faults: { latency: { fixed: 100 } }, spreadMillis: 0 },
  {
    name: "25to75ms",
    label: "25–75 ms random",
    faults: { latency: { min: 25, max: 75, seed: 20261123 } },
    spreadMillis: 50
  }
]

/**
 * The most ok answers a second that no pacing can pass at `latency` without risking an error 5: the
 * limit at a fixed latency; with delays that differ by up to the spread, a permit must stay held a
 * window and the spread (two requests a window apart at the client may land closer at the server).
 */
export const boundOf = (latency: Latency): number => (limit * 1000) / (1000 + latency.spreadMillis)

/** The least ok answers a second the client's rule must reach at the latency named `name`. */
const targetOf = (name: string): number => {
  const latency = latencies.find((l) => l.name === name)
  return share * (latency === undefined ? limit : boundOf(latency))
}

/** The latencies of the lines comparison: none, and the delay where pacing has to hold most. */
export const linesLatencies: ReadonlyArray<Latency> = latencies.filter((l) => l.name === "0ms" || l.name === "100ms")

/** What one strategy did at one latency (and the series of `pacing.svg`). */
export interface Run {
  readonly name: string
  readonly label: string
  readonly latency: string
  readonly strategy: string
  readonly okPer100ms: ReadonlyArray<number>
  readonly error5Per100ms: ReadonlyArray<number>
  readonly okPerSecond: number
  readonly steadyOkPerSecond: number
  readonly error5: number
  readonly error5At: ReadonlyArray<number>
}

/**
 * One run: the server back to its fixture at `latency`, a window's wait for the last run's requests
 * to age out, then `loop(end)` (the line's fibers calling until `end`, a {@link ReferenceChild.now}),
 * counted from the server's own log (retries after error 5 included).
 */
export const measure = async (
  server: ReferenceChild.Controls,
  latency: Latency,
  strategy: { readonly name: string; readonly label: string },
  loop: (end: number) => Promise<void>
): Promise<Run> => {
  await server.reset()
  await server.setFaults(latency.faults)
  await new Promise((resolve) => setTimeout(resolve, 1100))
  await server.startRecording()
  const start = ReferenceChild.now()
  await loop(start + seconds * 1000)
  const entries = (await server.stopRecording()).filter((e) => e.at >= start && e.at < start + seconds * 1000)
  const ok = entries.filter((e) => e.outcome === "ok").map((e) => e.at - start)
  const error5 = entries.filter((e) => e.outcome === 5).map((e) => e.at - start)
  const buckets = (times: ReadonlyArray<number>) => {
    const counts = Array.from({ length: (seconds * 1000) / bucketMillis }, () => 0)
    for (const t of times) counts[Math.floor(t / bucketMillis)]!++
    return counts
  }
  return {
    name: `${latency.name}.${strategy.name}`,
    label: `${latency.label} of server latency: ${strategy.label}`,
    latency: latency.name,
    strategy: strategy.name,
    okPer100ms: buckets(ok),
    error5Per100ms: buckets(error5),
    okPerSecond: ok.length / seconds,
    steadyOkPerSecond: ok.filter((t) => t >= 1000).length / (seconds - 1),
    error5: error5.length,
    error5At: error5.map((t) => Math.round(t))
  }
}

/** The figures of the runs, by run name. */
export const figuresOf = (runs: ReadonlyArray<Run>): Record<string, number | string> => {
  const figures: Record<string, number | string> = {}
  for (const r of runs) {
    figures[`${r.name}.okPerSecond`] = round(r.okPerSecond, 2)
    figures[`${r.name}.steadyOkPerSecond`] = round(r.steadyOkPerSecond, 2)
    figures[`${r.name}.error5`] = r.error5
    if (r.error5 > 0) {
      figures[`${r.name}.error5AtMs`] = r.error5At.slice(0, 40).join(" ") + (r.error5At.length > 40 ? " …" : "")
    }
  }
  return figures
}

/** What the client's runs missed of the target (empty: met). */
export const misses = (runs: ReadonlyArray<Run>): Array<string> =>
  runs.flatMap((r) => [
    ...(r.okPerSecond < targetOf(r.latency)
      ? [
        `${r.latency}: ${round(r.okPerSecond, 2)}/s is ${
          round(targetOf(r.latency) - r.okPerSecond, 2)
        }/s under the target of ${round(targetOf(r.latency), 2)}/s`
      ]
      : []),
    ...(r.error5 > 0 ? [`${r.latency}: ${r.error5} errors 5`] : [])
  ])

/** The target of the client's pacing, in words. */
export const targetText =
  `rule at real latency: >= ${share} of the bound at each latency (${
    latencies.map((l) => `${l.label.replace(" random", "")}: ${round(share * boundOf(l), 2)}/s`).join(", ")
  }; the bound is ${limit}/s at a fixed latency, ${limit} × 1000 / (1000 + the spread of the delays) when they vary) ` +
  "and zero error 5 at every latency"

/** The result of the lines comparison's B2: the client's rule at {@link linesLatencies}. */
export const linesReport = (runs: ReadonlyArray<Run>, options: { readonly id: string; readonly title: string }) => {
  const missed = misses(runs)
  return {
    id: options.id,
    title: options.title,
    method: `${fibers} fibers of one user call users/me in a loop for ${seconds} s per run, the client's default ` +
      `pacing (the rule at real latency), at ${
        linesLatencies.map((l) => l.label).join(" and ")
      } of server latency (before the server counts a request); ok answers and errors 5 counted from the ` +
      `server's request log (retries included) inside the ${seconds} s; steady = from the 2nd second on; the ` +
      "server in a child process.",
    figures: figuresOf(runs),
    target: targetText,
    met: missed.length === 0,
    headline: `ok/s at ${linesLatencies.map((l) => l.label).join(", ")}: ${
      runs.map((r) => `${round(r.okPerSecond, 2)}`).join("/")
    }; errors 5: ${runs.reduce((n, r) => n + r.error5, 0)}`,
    ...(missed.length > 0 ? { note: missed.join("; ") } : {})
  } satisfies Result
}
