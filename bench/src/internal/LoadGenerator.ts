/**
 * A keep-alive HTTP load generator in a child process (its own event loop and heap, the second core),
 * the same for every server it is pointed at.
 */
import { Effect } from "effect"
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { Job, Report } from "./loadWorker.js"

export type { Job, Report }

/** Runs `job` in a fresh child process and gives its report. */
export const run = (job: Job): Effect.Effect<Report> =>
  Effect.async<Report>((resume) => {
    // The child is TypeScript too: load it through `tsx`'s loader.
    const child = fork(fileURLToPath(new URL("./loadWorker.ts", import.meta.url)), [], {
      execArgv: ["--import", import.meta.resolve("tsx")],
      stdio: ["ignore", "inherit", "inherit", "ipc"]
    })
    child.once("message", (report) => resume(Effect.succeed(report as Report)))
    child.once("error", (error) => resume(Effect.die(error)))
    child.send(job)
    return Effect.sync(() => child.kill())
  })
