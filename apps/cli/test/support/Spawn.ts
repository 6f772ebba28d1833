/**
 * The command run as a child process, as a user runs it: the `bin` of package.json, which runs the
 * compiled program (`build/`, made by turbo's `bundle` task or the global setup). Each run starts
 * Node and the program from scratch: under half a second on an idle machine and many times that on a
 * busy one, so only a few tests spawn (see `docs/testing.md`); the rest run the same program in
 * process (`InProcess.ts`).
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as ChildSupport from "../../../../lines/effect3/server/test/childSupport.js"
import type { Result, RunOptions } from "./Outcome.js"

/** The executable as installed. */
export const bin = fileURLToPath(new URL("../../bin/community-api.js", import.meta.url))

/**
 * The time bound of a test that spawns: sized for a machine whose cores are busy with other work,
 * where one start of the executable has been seen to take ten times its idle time.
 */
export const timeout = 120_000

/** Runs the command with `args` and collects what it prints and its exit code. */
export const run = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Result> => {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env }
  // The test's own COMMUNITY_API_* (a developer's base URL, token or Redis) never reaches the command.
  for (const name of ["COMMUNITY_API_BASE_URL", "COMMUNITY_API_TOKEN", "COMMUNITY_API_REDIS_URL"]) {
    if (options.env?.[name] === undefined) delete env[name]
  }
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: "pipe" })
  const result = ChildSupport.toEnd(child)
  child.stdin.end(options.stdin ?? "")
  return result
}
