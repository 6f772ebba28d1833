/**
 * B2 pacing: 15 seconds of `users/me` from 16 concurrent fibers of one user against the server's strict
 * window (the 31st request in any 1000 ms gets error 5), at 0, 50 and 100 ms of server latency and at
 * 25–75 ms of random latency, each time with today's rule (permits held a window past the answer) and
 * with the client's rule at real latency, one after the other in the same run; then, at 0 ms, Effect's
 * `RateLimiter` (token bucket) and naive fixed spacing for comparison. The server's latency comes before
 * it counts a request, so the whole delay is on the way there: the case where pacing has to hold most.
 * The counts come from the server's own request log, so retries after error 5 are counted too.
 */
import { Effect, Fiber } from "effect"
import * as Workload from "./internal/B2Workload.js"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Clients from "./internal/Clients.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { round } from "./internal/Stats.js"
import * as Strategies from "./internal/Strategies.js"

/** What one strategy did at one latency, for the chart. */
export type Run = Workload.Run

/** One run of `strategy` at `latency`: {@link fibers} fibers of one client calling `users/me` in a loop. */
export const measure = (
  server: Servers.Spawned,
  token: string,
  strategy: Strategies.Strategy,
  latency: Workload.Latency
): Effect.Effect<Run> =>
  Effect.flatMap(
    Clients.make(server.baseUrl, token, strategy.pacing),
    (client) =>
      Effect.promise(() =>
        Workload.measure(server.controls, latency, strategy, (end) =>
          Effect.runPromise(Effect.gen(function*() {
            const loop = Effect.whileLoop({
              while: () => Servers.now() < end,
              body: () => Effect.either(client.users.me()),
              step: () => undefined
            })
            const running = yield* Effect.forEach(Array.from({ length: Workload.fibers }), () => Effect.fork(loop))
            yield* Fiber.joinAll(running)
          })))
      )
  )

/** The lines comparison's B2: the client's own pacing at the latencies of the comparison. */
export const runLines = (options: { readonly id: string; readonly title: string }): Effect.Effect<Result, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    const bench = BenchFixture.make({ bots: 0, users: 1 })
    const server = yield* Servers.spawnReference({ bots: 0, users: 1 })
    const runs: Array<Run> = []
    for (const latency of Workload.linesLatencies) {
      const strategy = yield* Strategies.client()
      yield* Progress.line(`${options.id}: ${latency.label}, ${strategy.label}, ${Workload.seconds} s`)
      runs.push(yield* measure(server, bench.userTokens[0]!, strategy, latency))
    }
    return Workload.linesReport(runs, options)
  }))

/** Runs B2; gives the result and the series for `pacing.svg`. */
export const run: Effect.Effect<{ readonly result: Result; readonly runs: ReadonlyArray<Run> }, unknown> = Effect
  .scoped(
    Effect.gen(function*() {
      const bench = BenchFixture.make({ bots: 0, users: 1 })
      const server = yield* Servers.spawnReference({ bots: 0, users: 1 })
      const token = bench.userTokens[0]!
      const runs: Array<Run> = []
      for (const latency of Workload.latencies) {
        // Today's rule and the new one side by side, each with fresh permits.
        for (const strategy of [yield* Strategies.todaysRule(), yield* Strategies.client()]) {
          yield* Progress.line(`B2: ${latency.label}, ${strategy.label}, ${Workload.seconds} s`)
          runs.push(yield* measure(server, token, strategy, latency))
        }
      }
      for (const strategy of [yield* Strategies.tokenBucket(), yield* Strategies.fixedSpacing()]) {
        yield* Progress.line(`B2: 0 ms, ${strategy.label}, ${Workload.seconds} s`)
        runs.push(yield* measure(server, token, strategy, Workload.latencies[0]!))
      }
      const mine = runs.filter((r) => r.strategy === "client")
      const today = runs.filter((r) => r.strategy === "todaysRule")
      const misses = Workload.misses(mine)
      const perLatency = (of: ReadonlyArray<Run>) => of.map((r) => `${round(r.okPerSecond, 2)}`).join("/")
      const result: Result = {
        id: "B2",
        title: "Pacing at real latency",
        method:
          `${Workload.fibers} fibers of one user call users/me in a loop for ${Workload.seconds} s per run, the same ` +
          `client with its pacing service swapped, at ${
            Workload.latencies.map((l) => l.label).join(", ")
          } of server latency (before the server counts a request): today's rule (each permit held a window and the ` +
          "margin past its answer) and the rule at real latency (a window, the margin and the spread of the delays " +
          "past its take), side by side; then Effect's RateLimiter and fixed spacing at 0 ms. Ok answers and errors " +
          "5 counted from the server's request log (retries included) inside the 15 s; steady = from the 2nd " +
          "second on; the server in a child process.",
        figures: Workload.figuresOf(runs),
        target: Workload.targetText,
        met: misses.length === 0,
        headline: `ok/s at ${Workload.latencies.map((l) => l.label.replace(" random", "")).join(", ")}: new ${
          perLatency(mine)
        }, today ${perLatency(today)}; errors 5: new ${mine.reduce((n, r) => n + r.error5, 0)}, today ${
          today.reduce((n, r) => n + r.error5, 0)
        }`,
        ...(misses.length > 0 ? { note: misses.join("; ") } : {})
      }
      return { result, runs }
    })
  )
