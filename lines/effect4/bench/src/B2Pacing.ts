/**
 * B2 pacing on the Effect 4 line, at 0 and 100 ms of server latency: the Effect 3 line's runs
 * (`@community-api/bench/B2Workload`), with 16 fibers of this line's client, its default pacing (the
 * core's rule at real latency), calling `users/me` against the same reference server in a child process.
 */
import * as Workload from "@community-api/bench/B2Workload"
import * as BenchFixture from "@community-api/bench/BenchFixture"
import * as ReferenceChild from "@community-api/bench/ReferenceChild"
import type { Result } from "@community-api/bench/Result"
import { Pacing } from "@community-api/effect4-client"
import { Effect, Fiber } from "effect"
import * as Clients from "./internal/Clients.js"

const strategy = { name: "client", label: "client: the rule at real latency" }

/** Runs B2 at the latencies of the lines comparison under the entry `id` and `title`. */
export const run = (options: { readonly id: string; readonly title: string }): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const bench = BenchFixture.make({ bots: 0, users: 1 })
    const server = yield* Effect.acquireRelease(
      Effect.promise(() => ReferenceChild.spawn({ bots: 0, users: 1 })),
      (server) => Effect.sync(server.close)
    )
    const runs: Array<Workload.Run> = []
    for (const latency of Workload.linesLatencies) {
      // Fresh permits for each run, as on the Effect 3 line.
      const client = yield* Clients.make(server.baseUrl, bench.userTokens[0]!, Pacing.makeUnsafe())
      process.stderr.write(`[bench] ${options.id}: ${latency.label}, ${strategy.label}, ${Workload.seconds} s\n`)
      runs.push(
        yield* Effect.promise(() =>
          Workload.measure(server, latency, strategy, (end) =>
            Effect.runPromise(Effect.gen(function*() {
              const loop = Effect.whileLoop({
                while: () => ReferenceChild.now() < end,
                body: () => Effect.result(client.users.me()),
                step: () => undefined
              })
              const running = yield* Effect.forEach(
                Array.from({ length: Workload.fibers }),
                () => Effect.forkChild(loop)
              )
              yield* Fiber.joinAll(running)
            })))
        )
      )
    }
    return Workload.linesReport(runs, options)
  }).pipe(Effect.scoped)
