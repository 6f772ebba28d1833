/**
 * B2 pacing: 15 seconds of `users/me` from 16 concurrent fibers of one user against the server's strict
 * window (the 31st request in any 1000 ms gets error 5), at 0, 50 and 100 ms of server latency and at
 * 25–75 ms of random latency, each time with today's rule (permits held a window past the answer) and
 * with the client's rule at real latency, one after the other in the same run; then, at 0 ms, Effect's
 * `RateLimiter` (token bucket) and naive fixed spacing for comparison. The server's latency comes before
 * it counts a request, so the whole delay is on the way there: the case where pacing has to hold most.
 * The counts come from the server's own request log, so retries after error 5 are counted too.
 */
import type { Faults } from "@community-api/server"
import { Duration, Effect, Fiber } from "effect"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Clients from "./internal/Clients.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { round } from "./internal/Stats.js"
import * as Strategies from "./internal/Strategies.js"
import type { Series } from "./internal/Svg.js"

const fibers = 16
const seconds = 15
const bucketMillis = 100
/** 98% of the limit (30 per second). */
const target = 29.4

/** The server's latency in each run: before it counts a request. */
const latencies: ReadonlyArray<
  { readonly name: string; readonly label: string; readonly faults: Faults.FaultSettings }
> = [
  { name: "0ms", label: "0 ms", faults: {} },
  { name: "50ms", label: "50 ms", faults: { latency: { fixed: 50 } } },
  { name: "100ms", label: "100 ms", faults: { latency: { fixed: 100 } } },
  { name: "25to75ms", label: "25–75 ms random", faults: { latency: { min: 25, max: 75, seed: 20261123 } } }
]

/** What one strategy did at one latency, for the chart. */
export interface Run extends Series {
  readonly latency: string
  readonly strategy: string
  readonly okPerSecond: number
  readonly steadyOkPerSecond: number
  readonly error5: number
  readonly error5At: ReadonlyArray<number>
}

const measure = (
  server: Servers.Reference,
  token: string,
  strategy: Strategies.Strategy,
  latency: typeof latencies[number]
) =>
  Effect.gen(function*() {
    yield* server.reset
    yield* server.setFaults(latency.faults)
    // Let any window of the previous run age out.
    yield* Effect.sleep(Duration.millis(1100))
    const client = yield* Clients.make(server.baseUrl, token, strategy.pacing)
    yield* server.startRecording
    const start = Servers.now()
    const end = start + seconds * 1000
    const loop = Effect.whileLoop({
      while: () => Servers.now() < end,
      body: () => Effect.either(client.users.me()),
      step: () => undefined
    })
    const running = yield* Effect.forEach(Array.from({ length: fibers }), () => Effect.fork(loop))
    yield* Fiber.joinAll(running)
    const entries = (yield* server.stopRecording).filter((e) => e.at >= start && e.at < end)
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
    } satisfies Run
  })

/** Runs B2; gives the result and the series for `pacing.svg`. */
export const run: Effect.Effect<{ readonly result: Result; readonly runs: ReadonlyArray<Run> }, unknown> = Effect
  .scoped(
    Effect.gen(function*() {
      const bench = BenchFixture.make({ bots: 0, users: 1 })
      const server = yield* Servers.spawnReference({ bots: 0, users: 1 })
      const token = bench.userTokens[0]!
      const runs: Array<Run> = []
      for (const latency of latencies) {
        // Today's rule and the new one side by side, each with fresh permits.
        for (const strategy of [yield* Strategies.todaysRule(), yield* Strategies.client()]) {
          yield* Progress.line(`B2: ${latency.label}, ${strategy.label}, ${seconds} s`)
          runs.push(yield* measure(server, token, strategy, latency))
        }
      }
      for (const strategy of [yield* Strategies.tokenBucket(), yield* Strategies.fixedSpacing()]) {
        yield* Progress.line(`B2: 0 ms, ${strategy.label}, ${seconds} s`)
        runs.push(yield* measure(server, token, strategy, latencies[0]!))
      }
      const figures: Record<string, number | string> = {}
      for (const r of runs) {
        figures[`${r.name}.okPerSecond`] = round(r.okPerSecond, 2)
        figures[`${r.name}.steadyOkPerSecond`] = round(r.steadyOkPerSecond, 2)
        figures[`${r.name}.error5`] = r.error5
        if (r.error5 > 0) {
          figures[`${r.name}.error5AtMs`] = r.error5At.slice(0, 40).join(" ") + (r.error5At.length > 40 ? " …" : "")
        }
      }
      const mine = runs.filter((r) => r.strategy === "client")
      const today = runs.filter((r) => r.strategy === "todaysRule")
      const misses = mine.flatMap((r) => [
        ...(r.okPerSecond < target
          ? [`${r.latency}: ${round(r.okPerSecond, 2)}/s is ${round(target - r.okPerSecond, 2)}/s under the target`]
          : []),
        ...(r.error5 > 0 ? [`${r.latency}: ${r.error5} errors 5`] : [])
      ])
      const perLatency = (of: ReadonlyArray<Run>) => of.map((r) => `${round(r.okPerSecond, 2)}`).join("/")
      const result: Result = {
        id: "B2",
        title: "Pacing at real latency",
        method: `${fibers} fibers of one user call users/me in a loop for ${seconds} s per run, the same client with ` +
          `its pacing service swapped, at ${
            latencies.map((l) => l.label).join(", ")
          } of server latency (before the server counts a request): today's rule (each permit held a window and the ` +
          "margin past its answer) and the rule at real latency (a window, the margin and the spread of the delays " +
          "past its take), side by side; then Effect's RateLimiter and fixed spacing at 0 ms. Ok answers and errors " +
          "5 counted from the server's request log (retries included) inside the 15 s; steady = from the 2nd " +
          "second on; the server in a child process.",
        figures,
        target: `rule at real latency: >= ${target} ok requests per second (98% of the limit) and zero error 5 at ` +
          "every latency",
        met: misses.length === 0,
        headline: `ok/s at ${latencies.map((l) => l.label.replace(" random", "")).join(", ")}: new ${
          perLatency(mine)
        }, today ${perLatency(today)}; errors 5: new ${mine.reduce((n, r) => n + r.error5, 0)}, today ${
          today.reduce((n, r) => n + r.error5, 0)
        }`,
        ...(misses.length > 0 ? { note: misses.join("; ") } : {})
      }
      return { result, runs }
    })
  )
