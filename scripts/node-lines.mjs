/**
 * Runs a package's tests again on the maintained Node lines that users run, beside the machine's own
 * Node (which `turbo run test` uses): the oldest and the newest maintained line, one after another.
 *
 *   node ../../scripts/node-lines.mjs [--newest-only FILE]… [--oldest-only FILE]… [--machine-only FILE]…
 *                                                                 in a package folder (its `test:lines`)
 *
 * Each line's binary comes from the npm registry's `node` package, installed once into
 * `node_modules/.cache/node-lines/<major>` at the root (the registry is the one download that works
 * everywhere this project is tested). The line's folder comes first on `PATH`, so the child processes
 * the tests start (`node …`, `process.execPath`) run on the same line. Two options keep the run
 * within CI's budget (these lines come on top of the machine's own run of every suite):
 * - `--newest-only FILE`: a suite of real processes or ports on the live clock (Redis, the compiled
 *   programs, sockets) runs on the newest line alone; it already ran on the machine's Node.
 * - `--machine-only FILE`: a suite of pure computation on the `TestClock` (fuzzing, thousands of
 *   simulated operations) runs on the machine's Node alone: nothing in it touches what differs
 *   between Node lines (sockets, processes, streams), and it is the costliest work of the suite.
 * - `--oldest-only FILE`: the same kind of suite in a package the machine's Node cannot run (the
 *   Effect 4 line needs Node 22.19) runs on the oldest line alone, its one run.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The oldest and the newest maintained Node line (the `engines` of the packages say the same). */
export const lines = ["22", "26"]

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const cache = path.join(root, "node_modules", ".cache", "node-lines")

/** The path of the line's `node`, installed from the registry first when missing. */
export const nodeOf = (major) => {
  const dir = path.join(cache, major)
  const binary = path.join(dir, "node_modules", "node", "bin", "node")
  if (fs.existsSync(binary)) return binary
  // Installed beside the final folder and renamed into place, so that an interrupted install never
  // leaves a folder that looks complete.
  const partial = `${dir}.partial-${process.pid}`
  fs.rmSync(partial, { recursive: true, force: true })
  fs.mkdirSync(partial, { recursive: true })
  process.stderr.write(`node-lines: installing Node ${major} from the npm registry's node package\n`)
  execFileSync(
    "npm",
    ["install", "--prefix", partial, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `node@${major}`],
    { stdio: ["ignore", 2, 2] }
  )
  try {
    fs.renameSync(partial, dir)
  } catch (error) {
    // Another run installed it in the meantime.
    fs.rmSync(partial, { recursive: true, force: true })
    if (!fs.existsSync(binary)) throw error
  }
  return binary
}

const parseArgs = (args) => {
  const newestOnly = []
  const oldestOnly = []
  const machineOnly = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--newest-only" && args[i + 1] !== undefined) newestOnly.push(args[++i])
    else if (args[i] === "--oldest-only" && args[i + 1] !== undefined) oldestOnly.push(args[++i])
    else if (args[i] === "--machine-only" && args[i + 1] !== undefined) machineOnly.push(args[++i])
    else {
      throw new Error(
        `node-lines: unknown argument ${
          args[i]
        } (usage: node-lines.mjs [--newest-only FILE]… [--oldest-only FILE]… [--machine-only FILE]…)`
      )
    }
  }
  return { newestOnly, oldestOnly, machineOnly }
}

const main = () => {
  const { machineOnly, newestOnly, oldestOnly } = parseArgs(process.argv.slice(2))
  const vitest = path.join(
    path.dirname(createRequire(path.join(process.cwd(), "package.json")).resolve("vitest/package.json")),
    "vitest.mjs"
  )
  for (const major of lines) {
    const node = nodeOf(major)
    const newest = major === lines.at(-1)
    const excluded = newest ? [...machineOnly, ...oldestOnly] : [...machineOnly, ...newestOnly]
    const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim()
    process.stdout.write(
      `\nnode-lines: the tests on Node ${version}${excluded.length > 0 ? `, without ${excluded.join(", ")}` : ""}\n`
    )
    const args = [vitest, "run", ...excluded.flatMap((file) => ["--exclude", file])]
    const result = spawnSync(node, args, {
      stdio: "inherit",
      env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` }
    })
    if (result.status !== 0) {
      process.stderr.write(`node-lines: the tests failed on Node ${version}\n`)
      process.exit(result.status ?? 1)
    }
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
