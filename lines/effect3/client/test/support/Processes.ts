/**
 * Real child processes of one user for the tests of shared limits: `limitsChild.ts` bundled once with
 * esbuild into plain JavaScript (a start through TypeScript's loader takes seconds on a busy machine),
 * then started with `node` as often as a test needs, each with its job.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Job, Report } from "./limitsChild.js"

export type { Job, Report }

const source = fileURLToPath(new URL("./limitsChild.ts", import.meta.url))

/** The bundle of the child program, and how to remove it. */
export interface Bundle {
  readonly file: string
  readonly remove: () => Promise<void>
}

/** Bundles the child program (this line's, or another line's child of the same words) into a scratch folder. */
export const bundle = async (entry: string = source): Promise<Bundle> => {
  const esbuild = await import("esbuild")
  const dir = await mkdtemp(path.join(os.tmpdir(), "community-api-limits-"))
  const file = path.join(dir, "limitsChild.mjs")
  await esbuild.build({
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
  return { file, remove: () => rm(dir, { recursive: true, force: true }) }
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

/** Starts the bundled child with `job`. */
export const start = (bundled: Bundle, job: Job): Child => {
  const child = spawn(process.execPath, [bundled.file, JSON.stringify(job)], { stdio: ["pipe", "pipe", "pipe"] })
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
      child.kill("SIGKILL")
      return exited.then(() => undefined)
    },
    process: child
  }
}
