/**
 * B2 pacing: 20 seconds of `users/me` from 16 concurrent fibers of one user against the server's strict
 * window (the 31st request in any 1000 ms gets error 5), with the client's own pacing, with Effect's
 * `RateLimiter` (token bucket) and with naive fixed spacing, one after the other in the same run; and a
 * candidate fix of the client's pacing, to tell whether a miss is the strategy's. The counts come from
 * the server's own request log, so retries after error 5 are counted too.
 */
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
const seconds = 20
const bucketMillis = 100
const target = 28.5

/** What one strategy did, for the chart. */
export interface Run extends Series {
  readonly okPerSecond: number
  readonly steadyOkPerSecond: number
  readonly error5: number
  readonly error5At: ReadonlyArray<number>
}

const measure = (server: Servers.Reference, token: string, strategy: Strategies.Strategy) =>
  Effect.gen(function*() {
    yield* server.reset
    // Let any window of the previous strategy age out.
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
      name: strategy.name,
      label: strategy.label,
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
      const strategies = [
        yield* Strategies.client(),
        yield* Strategies.tokenBucket(),
        yield* Strategies.fixedSpacing()
      ]
      const runs: Array<Run> = []
      for (const strategy of strategies) {
        yield* Progress.line(`B2: ${strategy.label}, ${seconds} s`)
        runs.push(yield* measure(server, token, strategy))
      }
      const figures: Record<string, number | string> = {}
      for (const r of runs) {
        figures[`${r.name}.okPerSecond`] = round(r.okPerSecond, 2)
        figures[`${r.name}.steadyOkPerSecond`] = round(r.steadyOkPerSecond, 2)
        figures[`${r.name}.error5`] = r.error5
        figures[`${r.name}.error5AtMs`] = r.error5At.slice(0, 40).join(" ") + (r.error5At.length > 40 ? " …" : "")
      }
      const mine = runs[0]!
      const met = mine.okPerSecond >= target && mine.error5 === 0
      const misses = [
        ...(mine.okPerSecond < target
          ? [`${round(mine.okPerSecond, 2)}/s is ${round(target - mine.okPerSecond, 2)}/s under the target`]
          : []),
        ...(mine.error5 > 0 ? [`${mine.error5} errors 5`] : [])
      ]
      const result: Result = {
        id: "B2",
        title: "Pacing efficiency",
        method: `${fibers} fibers of one user call users/me in a loop for ${seconds} s per strategy, the same client ` +
          "with its pacing service swapped; ok answers and errors 5 counted from the server's request log (retries " +
          "included); steady = from the 2nd second on (after the initial burst); the server in a child process.",
        figures,
        target: `client: >= ${target} ok requests per second and zero error 5`,
        met,
        headline: runs.map((r) => `${r.name} ${round(r.okPerSecond, 1)}/s, ${r.error5}×5`).join("; "),
        ...(misses.length > 0 ? { note: misses.join("; ") } : {})
      }
      return { result, runs }
    })
  )
