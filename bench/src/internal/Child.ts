/**
 * Commands run as child processes from scratch, as a user types them: wall time and, where
 * `/usr/bin/time` is present, the maximum resident set size the kernel measured for the command.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"

/** GNU time, which reports a child's peak RSS (`%M`, in KiB) after it exits. */
const gnuTime = "/usr/bin/time"

/** Whether peak RSS can be measured here. */
export const measuresRss: boolean = fs.existsSync(gnuTime)

/** One run of a command. */
export interface Sample {
  /** From spawn to exit, in milliseconds. */
  readonly wallMs: number
  /** Peak RSS in MiB, or `undefined` without `/usr/bin/time`. */
  readonly maxRssMiB: number | undefined
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * The environment of a command a user types in a shell: without the variables of the pnpm script that
 * runs the benchmark (a nested pnpm would otherwise take them as its own configuration) and without the
 * command line's own variables, then with `extra`.
 */
export const userEnv = (extra: Readonly<Record<string, string>> = {}): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] =>
      entry[1] !== undefined &&
      !/^(npm_|pnpm_|PNPM_|COMMUNITY_API_|PORT$|NODE_OPTIONS$|TSX_)/.test(entry[0])
    )
  ),
  ...extra
})

/** Runs `command args` in `cwd` to its end and measures it. */
export const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: Record<string, string> }
): Promise<Sample> =>
  new Promise((resolve, reject) => {
    const rssFile = path.join(os.tmpdir(), `bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`)
    const [file, argv] = measuresRss
      ? [gnuTime, ["-f", "%M", "-o", rssFile, command, ...args]]
      : [command, [...args]]
    let stdout = ""
    let stderr = ""
    const started = performance.now()
    const child = spawn(file, argv, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => {
      const wallMs = performance.now() - started
      let maxRssMiB: number | undefined
      if (measuresRss) {
        // GNU time writes "Command exited with non-zero status N" before the figure on a failure.
        const lines = fs.readFileSync(rssFile, "utf8").trim().split("\n")
        fs.rmSync(rssFile, { force: true })
        maxRssMiB = Number(lines[lines.length - 1]) / 1024
      }
      resolve({ wallMs, maxRssMiB, code, stdout, stderr })
    })
  })
