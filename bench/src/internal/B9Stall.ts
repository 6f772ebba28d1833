/**
 * B9's stall part: two processes of one user (the workers of B6, `B6Worker.ts`), each with its
 * limiters on one real `redis-server` and 8 fibers calling `users/me` in a loop against the reference
 * server, the user saturated; after a warm-up the redis-server is stopped (SIGSTOP) for 2 s and
 * continued (SIGCONT). Its connections stay open: the calls sent meanwhile run when it continues,
 * and those not answered within the store's timeout (1 s) have failed in the processes. Ok answers
 * and errors 5 come from the server's request log, per second after the stall.
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { redisCommand } from "../../../scripts/redis-cli.mjs"
import { startRedisServer } from "../../../scripts/redis.mjs"
import type { Job, Message } from "../B6Worker.js"
import * as BenchFixture from "./BenchFixture.js"
import * as Progress from "./Progress.js"
import * as Servers from "./Servers.js"
import { round } from "./Stats.js"

const processes = 2
const fibersPerProcess = 8
/** Before the stall: the processes started and the user saturated, its windows steady. */
const warmUpMillis = 5000
const stallMillis = 2000
/** The seconds after the stall reported one by one. */
const secondsAfter = 10
/** Ok answers in the second after the stall; the user's limit is 30. */
const goalFirstSecond = 28

/** What the stall part measured, as B9 reports it. */
export interface Measured {
  readonly figures: Readonly<Record<string, number | string>>
  readonly misses: ReadonlyArray<string>
  readonly method: string
  readonly target: string
  readonly headline: string
}

type Report = Extract<Message, { _tag: "report" }>

/** Starts a worker for the scope; resolves with how to start it once its limiters are built. */
const worker = (job: Job): Effect.Effect<{ go: () => void; report: Promise<Report> }, Error, Scope.Scope> =>
  Effect.flatMap(
    Effect.acquireRelease(
      Effect.sync(() =>
        fork(fileURLToPath(new URL("../B6Worker.ts", import.meta.url)), [], {
          execArgv: ["--import", import.meta.resolve("tsx")],
          stdio: ["ignore", "inherit", "inherit", "ipc"]
        })
      ),
      (child) => Effect.sync(() => child.kill())
    ),
    (child: ChildProcess) =>
      Effect.async((resume) => {
        let reported: (message: Report) => void = () => {}
        const report = new Promise<Report>((resolve) => (reported = resolve))
        child.on("message", (message: Message) => {
          if (message._tag === "ready") resume(Effect.succeed({ go: () => child.send("go"), report }))
          else reported(message)
        })
        child.once("exit", (code) => resume(Effect.fail(new Error(`a B9 stall worker exited with ${code}`))))
        child.send(job)
      })
  )

/** The process id of the redis-server on `port`, from its own `INFO`. */
const pidOf = (port: number) =>
  Effect.map(Effect.promise(() => redisCommand(port, "INFO", "server")), (lines) => {
    const pid = Number(lines.find((line) => line.startsWith("process_id:"))?.split(":")[1])
    if (!(pid > 0)) throw new Error("redis-server gave no process_id")
    return pid
  })

/** Runs the stall part. */
export const measure: Effect.Effect<Measured, unknown> = Effect.scoped(Effect.gen(function*() {
  const bench = BenchFixture.make({ bots: 0, users: 1 })
  const server = yield* Servers.spawnReference({ bots: 0, users: 1 })
  const redis = yield* Effect.acquireRelease(
    Effect.promise(() => startRedisServer()),
    (redis) => Effect.promise(() => redis.stop())
  )
  const pid = yield* pidOf(redis.port)
  // Continued whatever happens, so that the server can be stopped.
  const resume = Effect.sync(() => process.kill(pid, "SIGCONT"))
  yield* Effect.addFinalizer(() => resume)
  // Two seconds past the last one reported: no second counted is one where the workers stop.
  const millis = warmUpMillis + stallMillis + (secondsAfter + 2) * 1000
  const job: Job = {
    baseUrl: server.baseUrl,
    token: bench.userTokens[0]!,
    redis: { url: redis.url, prefix: `b9-stall-${Date.now()}:` },
    fibers: fibersPerProcess,
    millis
  }
  yield* Progress.line(`B9: stall, ${processes} processes of one user on Redis, stopped for ${stallMillis / 1000} s`)
  const workers = yield* Effect.all(Array.from({ length: processes }, () => worker(job)), {
    concurrency: "unbounded"
  })
  yield* server.startRecording
  for (const w of workers) w.go()
  yield* Effect.sleep(warmUpMillis)
  const stoppedAt = Servers.now()
  process.kill(pid, "SIGSTOP")
  yield* Effect.sleep(stallMillis)
  yield* resume
  const continuedAt = Servers.now()
  const reports = yield* Effect.promise(() => Promise.all(workers.map((w) => w.report)))
  const entries = yield* server.stopRecording

  const ok = entries.filter((e) => e.outcome === "ok").map((e) => e.at)
  const inSecond = (from: number) => ok.filter((at) => at >= from && at < from + 1000).length
  const after = Array.from({ length: secondsAfter }, (_, s) => inSecond(continuedAt + s * 1000))
  const before = (ok.filter((at) => at >= stoppedAt - 3000 && at < stoppedAt).length) / 3
  const during = ok.filter((at) => at >= stoppedAt && at < continuedAt).length
  const error5 = entries.filter((e) => e.outcome === 5).length
  const failures: Record<string, number> = {}
  for (const report of reports) {
    for (const [tag, count] of Object.entries(report.failures)) failures[tag] = (failures[tag] ?? 0) + count
  }
  const failedCalls = Object.entries(failures).map(([tag, count]) => `${count} ${tag}`).join(", ") || "none"
  const firstSecond = after[0]!
  const misses = [
    ...(firstSecond < goalFirstSecond
      ? [`stall: ${firstSecond} ok in the second after it, ${goalFirstSecond - firstSecond} under ${goalFirstSecond}`]
      : []),
    ...(error5 > 0 ? [`stall: ${error5} errors 5`] : [])
  ]
  return {
    figures: {
      "stall.processes": processes,
      "stall.stallMs": stallMillis,
      "stall.okPerSecondBefore": round(before, 2),
      "stall.okDuring": during,
      "stall.okPerSecondAfter": after.join(" "),
      "stall.okFirstSecondAfter": firstSecond,
      "stall.goalFirstSecondAfter": goalFirstSecond,
      "stall.okPerSecondAfterMean": round(after.reduce((a, b) => a + b, 0) / secondsAfter, 2),
      "stall.error5": error5,
      "stall.failedCalls": failedCalls
    },
    misses,
    method: `Stall: ${processes} processes of one user (B6's worker), ${fibersPerProcess} fibers each calling ` +
      `users/me in a loop, their limiters on one redis-server; after ${warmUpMillis / 1000} s the redis-server ` +
      `is stopped (SIGSTOP) for ${stallMillis / 1000} s and continued (SIGCONT), its connections open; ok ` +
      `answers in each of the ${secondsAfter} s after it and errors 5 over the run, from the server's request log.`,
    target: `after a ${stallMillis / 1000} s stall of Redis: >= ${goalFirstSecond} ok in the second after it, zero ` +
      "error 5",
    headline: `after a ${stallMillis / 1000} s Redis stall ${after.slice(0, 3).join("/")}… ok/s, ${error5}×5`
  }
}))
