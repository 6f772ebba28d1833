/**
 * B6 limits shared by several processes: 1, 2 and 4 processes of one user call `users/me` in a loop
 * against the server's strict window (the 31st request in any 1000 ms gets error 5), first each with
 * its own limiters (the memory store, the default), then all on one Redis store, side by side in one
 * run. The counts come from the server's request log, so resends after error 5 are counted too.
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { startRedisServer } from "../../scripts/redis.mjs"
import type { Job, Message } from "./B6Worker.js"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { round } from "./internal/Stats.js"

const processCounts = [1, 2, 4] as const
const stores = ["memory", "redis"] as const
const fibersPerProcess = 8
const seconds = 20
const target = 28.5

type Store = typeof stores[number]

/** What one run did. */
interface Run {
  readonly store: Store
  readonly processes: number
  readonly okPerSecond: number
  readonly error5: number
  /** Calls that failed in the processes, by error tag (`RateLimitError` after the resends). */
  readonly failures: Readonly<Record<string, number>>
}

/** A worker started with its job and ready: how to start it, and its report. */
interface Worker {
  readonly go: () => void
  readonly report: Promise<Extract<Message, { _tag: "report" }>>
}

/** Starts a worker process for the scope; resolves once its limiters and client are built. */
const worker = (job: Job): Effect.Effect<Worker, Error, Scope.Scope> =>
  Effect.flatMap(
    Effect.acquireRelease(
      Effect.sync(() =>
        fork(fileURLToPath(new URL("./B6Worker.ts", import.meta.url)), [], {
          execArgv: ["--import", import.meta.resolve("tsx")],
          stdio: ["ignore", "inherit", "inherit", "ipc"]
        })
      ),
      (child) => Effect.sync(() => child.kill())
    ),
    (child: ChildProcess) =>
      Effect.async<Worker, Error>((resume) => {
        let reported: (message: Extract<Message, { _tag: "report" }>) => void = () => {}
        const report = new Promise<Extract<Message, { _tag: "report" }>>((resolve) => (reported = resolve))
        child.on("message", (message: Message) => {
          if (message._tag === "ready") resume(Effect.succeed({ go: () => child.send("go"), report }))
          else reported(message)
        })
        child.once("exit", (code) => resume(Effect.fail(new Error(`a B6 worker exited with ${code}`))))
        child.send(job)
      })
  )

const measure = (
  server: Servers.Reference,
  token: string,
  redisUrl: string,
  store: Store,
  processes: number
): Effect.Effect<Run, Error> =>
  Effect.scoped(Effect.gen(function*() {
    yield* server.reset
    // Let any window of the previous run age out.
    yield* Effect.sleep("1100 millis")
    const job: Job = {
      baseUrl: server.baseUrl,
      token,
      // A prefix of its own: no run sees the permits of another.
      redis: store === "redis" ? { url: redisUrl, prefix: `b6-${processes}-${Date.now()}:` } : undefined,
      fibers: fibersPerProcess,
      // A second more than is measured: the window starts at the first answer, once they all run.
      millis: (seconds + 1) * 1000
    }
    const workers = yield* Effect.all(Array.from({ length: processes }, () => worker(job)), {
      concurrency: "unbounded"
    })
    yield* server.startRecording
    for (const w of workers) w.go()
    const reports = yield* Effect.promise(() => Promise.all(workers.map((w) => w.report)))
    const entries = yield* server.stopRecording
    const from = Math.min(...entries.map((e) => e.at))
    const inWindow = entries.filter((e) => e.at >= from && e.at < from + seconds * 1000)
    const failures: Record<string, number> = {}
    for (const report of reports) {
      for (const [tag, count] of Object.entries(report.failures)) failures[tag] = (failures[tag] ?? 0) + count
    }
    return {
      store,
      processes,
      okPerSecond: inWindow.filter((e) => e.outcome === "ok").length / seconds,
      error5: inWindow.filter((e) => e.outcome === 5).length,
      failures
    }
  }))

const describeFailures = (failures: Readonly<Record<string, number>>) =>
  Object.entries(failures).map(([tag, count]) => `${count} ${tag}`).join(", ")

/** Runs B6. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(
  Effect.gen(function*() {
    const bench = BenchFixture.make({ bots: 0, users: 1 })
    const server = yield* Servers.spawnReference({ bots: 0, users: 1 })
    const redis = yield* Effect.acquireRelease(
      Effect.promise(() => startRedisServer()),
      (redis) => Effect.promise(() => redis.stop())
    )
    const token = bench.userTokens[0]!
    const runs: Array<Run> = []
    for (const processes of processCounts) {
      for (const store of stores) {
        yield* Progress.line(`B6: ${processes} process${processes === 1 ? "" : "es"}, ${store} store, ${seconds} s`)
        runs.push(yield* measure(server, token, redis.url, store, processes))
      }
    }
    const figures: Record<string, number | string> = {}
    for (const r of runs) {
      const key = `${r.store}.${r.processes}p`
      figures[`${key}.okPerSecond`] = round(r.okPerSecond, 2)
      figures[`${key}.error5`] = r.error5
      figures[`${key}.failedCalls`] = describeFailures(r.failures)
    }
    const shared = runs.filter((r) => r.store === "redis" && r.processes > 1)
    const misses = shared.flatMap((r) => [
      ...(r.okPerSecond < target
        ? [
          `Redis, ${r.processes} processes: ${round(r.okPerSecond, 2)}/s is ${round(target - r.okPerSecond, 2)}/s under`
        ]
        : []),
      ...(r.error5 > 0 ? [`Redis, ${r.processes} processes: ${r.error5} errors 5`] : [])
    ])
    const cell = (r: Run) => `${round(r.okPerSecond, 1)}/s, ${r.error5}×5`
    return {
      id: "B6",
      title: "Limits shared by several processes",
      method: `1, 2 and 4 processes of one user, ${fibersPerProcess} fibers each, call users/me in a loop for ` +
        `${seconds} s, first with the limiters of each process (memory), then all on one Redis store; ok answers ` +
        "and errors 5 counted from the server's request log (resends included) from the first answer on; the " +
        "server and redis-server in child processes.",
      figures,
      target: `Redis store: >= ${target} ok requests per second and zero error 5 for 2 and 4 processes`,
      met: misses.length === 0,
      headline: processCounts.map((n) => {
        const of = (store: Store) => runs.find((r) => r.store === store && r.processes === n)!
        return `${n}p: memory ${cell(of("memory"))}, Redis ${cell(of("redis"))}`
      }).join("; "),
      ...(misses.length > 0 ? { note: misses.join("; ") } : {})
    } satisfies Result
  })
)
