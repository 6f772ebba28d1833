/**
 * Real processes of one user, for the scenarios of limits shared through Redis (`SharedLimits`,
 * `RedisCluster`) and the Effect 4 line's mixed fleet: each line's child program
 * (`test/support/limitsChild.ts`, bundled with esbuild into plain JavaScript: a start through
 * TypeScript's loader takes seconds on a busy machine) started with `node` as often as a test needs,
 * each with its job, against the line's reference server on a loopback port, whose request log is
 * what a test counts. Plain Node: the line gives only its child program and its sandbox
 * (`Line.limitsChild`).
 *
 * A child builds its client with the limiters of its job (Redis, or its own memory), writes `ready`,
 * waits for `go` on standard input (so that the processes of a test start together), does its job and
 * writes one line of JSON, its {@link Report}.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import type { ChildProgram, Line } from "./Driver.js"

/**
 * What a child is asked to do (its last argument, as JSON):
 * - `rate`: `fibers` fibers call `users/me` in a loop for `seconds`;
 * - `create`: `creations` calls of `lists/create` at once, with `onCreationLimit`;
 * - `hold`: takes every permit of `userKey` for a request that never ends, writes `holding`, and
 *   stays so until it is killed.
 */
export interface Job {
  readonly kind: "rate" | "create" | "hold"
  readonly baseUrl: string
  readonly token: string
  /** The Redis store, or absent for this process's own limiters. */
  readonly redisUrl?: string | undefined
  readonly prefix?: string | undefined
  readonly leaseMillis?: number | undefined
  readonly userKey?: string | undefined
  readonly fibers?: number | undefined
  readonly seconds?: number | undefined
  readonly creations?: number | undefined
  readonly onCreationLimit?: "wait" | "fail" | undefined
  /** Where this child creates lists, and the names' prefix. */
  readonly community?: { readonly group_id: number; readonly channel: "VK" } | undefined
  readonly name?: string | undefined
  /** How long a fiber of a `rate` job waits after a failed call before its next (none by default). */
  readonly pauseAfterFailureMillis?: number | undefined
}

/** What a child reports. */
export interface Report {
  /** Calls that succeeded, with when each ended (epoch milliseconds). */
  readonly ok: number
  readonly okAt: ReadonlyArray<number>
  /** Failed calls by error tag, and the first message of each. */
  readonly failures: Readonly<Record<string, number>>
  readonly messages: Readonly<Record<string, string>>
  /** When each call failed (epoch milliseconds), and with what tag. */
  readonly failedAt: ReadonlyArray<{ readonly at: number; readonly tag: string }>
}

/** What the bundling needs of esbuild's `build` (each line has esbuild; this package has not). */
export interface BundleOptions {
  readonly entryPoints: Array<string>
  readonly outfile: string
  readonly bundle: true
  readonly platform: "node"
  readonly format: "esm"
  readonly target: string
  readonly banner: { readonly js: string }
  readonly logLevel: "warning"
}

/** Bundles the child program at `entry` with `build` (esbuild's) into a scratch folder. */
export const bundle = async (
  build: (options: BundleOptions) => Promise<unknown>,
  entry: string
): Promise<ChildProgram> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "community-api-limits-"))
  const file = path.join(dir, "limitsChild.mjs")
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // `ioredis` is CommonJS and `require`s Node's modules: an ES module has no `require`.
    banner: {
      js: "import { createRequire as __createRequire } from \"node:module\";\n" +
        "const require = __createRequire(import.meta.url);"
    },
    logLevel: "warning"
  })
  return { command: [process.execPath, file], remove: () => rm(dir, { recursive: true, force: true }) }
}

/** A child under way. */
export interface Child {
  /** Its limiters and client are built; it waits for {@link go}. */
  readonly ready: Promise<void>
  /** A `hold` job holds every permit. */
  readonly holding: Promise<void>
  /** Its report, once its job is done. */
  readonly report: Promise<Report>
  readonly go: () => void
  /** Kills it with SIGKILL, as a crash would end it; resolves when it is gone. */
  readonly kill: () => Promise<void>
  readonly process: ChildProcess
}

/** Starts the child program with `job`. */
export const start = (program: ChildProgram, job: Job): Child => {
  const [command, ...args] = program.command
  const child = spawn(command!, [...args, JSON.stringify(job)], { stdio: ["pipe", "pipe", "pipe"] })
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const failed = (what: string) =>
    exited.then((code) => Promise.reject(new Error(`the child exited with ${code} before ${what}:\n${stderr}`)))
  const line = (match: (line: string) => boolean): Promise<string> =>
    Promise.race([
      new Promise<string>((resolve) => {
        let buffer = ""
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          buffer += chunk
          const lines = buffer.split("\n")
          buffer = lines.pop() ?? ""
          const found = lines.find(match)
          if (found !== undefined) resolve(found)
        })
      }),
      failed("it said what was expected")
    ])
  const ready = line((l) => l === "ready").then(() => undefined)
  const holding = line((l) => l === "holding").then(() => undefined)
  const report = line((l) => l.startsWith("{")).then((l) => JSON.parse(l) as Report)
  // Only the promises a test awaits may reject it.
  for (const promise of [ready, holding, report]) promise.catch(() => undefined)
  return {
    ready,
    holding,
    report,
    go: () => child.stdin.write("go\n"),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      return exited.then(() => undefined)
    },
    process: child
  }
}

/**
 * Starts `count` children with `job`, waits until every one is ready, runs `beforeGo`, and tells them
 * all to go: the children, and when they were told.
 */
export const startTogether = async (
  program: ChildProgram,
  count: number,
  job: (i: number) => Job,
  beforeGo: () => Promise<void> = async () => {}
): Promise<{ readonly children: ReadonlyArray<Child>; readonly goAt: number }> => {
  const children = Array.from({ length: count }, (_, i) => start(program, job(i)))
  try {
    await Promise.all(children.map((child) => child.ready))
    await beforeGo()
  } catch (error) {
    await Promise.all(children.map((child) => child.kill()))
    throw error
  }
  const goAt = Date.now()
  for (const child of children) child.go()
  return { children, goAt }
}

/** One request as the sandbox logged it, stamped with when it arrived (epoch milliseconds). */
export interface Logged {
  readonly at: number
  readonly path: string
  readonly outcome: number | "ok" | "dropped"
}

/** The line's sandbox on a loopback port, with its request log. */
export interface Sandbox {
  readonly baseUrl: string
  readonly log: ReadonlyArray<Logged>
  readonly close: () => Promise<void>
}

/** A sandbox of `line` on a loopback port, logging every request with when it arrived. */
export const sandbox = async (line: Line): Promise<Sandbox> => {
  const log: Array<Logged> = []
  const served = await line.limitsChild.sandbox((answer) =>
    log.push({ at: Date.now() - answer.millis, path: answer.path, outcome: answer.outcome })
  )
  return { baseUrl: served.baseUrl, log, close: served.close }
}

/** Kills `children` and closes `server`. */
export const stop = async (children: ReadonlyArray<Child>, server: { readonly close: () => Promise<void> }) => {
  await Promise.all(children.map((child) => child.kill()))
  await server.close()
}

/** The requests of `log` to `section/method`. */
export const requestsOf = <A extends { readonly path: string }>(log: ReadonlyArray<A>, operation: string) =>
  log.filter((entry) => entry.path.endsWith(`/${operation}`))

/** How many `users/me` requests of `log` were answered ok in `[from, to)`. */
export const okBetween = (log: ReadonlyArray<Logged>, from: number, to: number): number =>
  requestsOf(log, "users/me").filter((entry) => entry.outcome === "ok" && entry.at >= from && entry.at < to).length

/** The sum of `count` over every report. */
export const total = (reports: ReadonlyArray<Report>, count: (report: Report) => number): number =>
  reports.reduce((sum, report) => sum + count(report), 0)

/** Runs `run` with the line's child program, built for it and removed after. */
export const withProgram = async <A>(line: Line, run: (program: ChildProgram) => Promise<A>): Promise<A> => {
  const program = await line.limitsChild.program()
  try {
    return await run(program)
  } finally {
    await program.remove()
  }
}
