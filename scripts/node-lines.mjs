/**
 * Runs a package's tests on the maintained Node lines that users run (its `test:lines`), or on the
 * machine's own Node (its `test`, with `--machine`):
 *
 *   node ../../scripts/node-lines.mjs [--machine]                      in a package folder
 *
 * Without `--machine`, on the oldest and the newest maintained line, one after another. Each line's
 * binary comes from the npm registry's `node` package, installed once into
 * `node_modules/.cache/node-lines/<major>` at the root (the registry is the one download that works
 * everywhere this project is tested). The line's folder comes first on `PATH`, so the child processes
 * the tests start (`node …`, `process.execPath`) run on the same line.
 *
 * The package's `nodeLines` field (in its `package.json`) says where its costliest suites run, so that
 * each runs once where it proves something and the whole run keeps within CI's budget:
 * - `newestOnly`: suites of real processes or ports on the live clock (Redis, the compiled programs,
 *   sockets) run on the newest line alone, not on the oldest nor on the machine's Node.
 * - `machineOnly`: suites of pure computation on the `TestClock` (fuzzing, thousands of simulated
 *   operations) run on the machine's Node alone: nothing in them touches what differs between Node
 *   lines (sockets, processes, streams), and they are the costliest work of the suite.
 * - `oldestOnly`: the same kind of suite in a package the machine's Node cannot run (the Effect 4 line
 *   needs Node 22.19) runs on the oldest line alone, its one run.
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

/** The package's `nodeLines` field: lists of test files, each list optional. */
const placesOf = (pkg) => {
  const field = pkg.nodeLines ?? {}
  const list = (name) => {
    const value = field[name] ?? []
    if (!Array.isArray(value) || value.some((file) => typeof file !== "string")) {
      throw new Error(`node-lines: ${pkg.name}'s nodeLines.${name} must be a list of test files`)
    }
    return value
  }
  return { newestOnly: list("newestOnly"), oldestOnly: list("oldestOnly"), machineOnly: list("machineOnly") }
}

const parseArgs = (args) => {
  if (args.length === 0) return { machine: false }
  if (args.length === 1 && args[0] === "--machine") return { machine: true }
  throw new Error(`node-lines: unknown arguments ${args.join(" ")} (usage: node-lines.mjs [--machine])`)
}

/** Runs vitest with `node`, without the `excluded` files; exits with its status when it fails. */
const run = (node, vitest, excluded, label) => {
  process.stdout.write(
    `\nnode-lines: the tests on ${label}${excluded.length > 0 ? `, without ${excluded.join(", ")}` : ""}\n`
  )
  const args = [vitest, "run", ...excluded.flatMap((file) => ["--exclude", file])]
  const result = spawnSync(node, args, {
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` }
  })
  if (result.status !== 0) {
    process.stderr.write(`node-lines: the tests failed on ${label}\n`)
    process.exit(result.status ?? 1)
  }
}

const main = () => {
  const { machine } = parseArgs(process.argv.slice(2))
  const packageJson = path.join(process.cwd(), "package.json")
  const { machineOnly, newestOnly, oldestOnly } = placesOf(JSON.parse(fs.readFileSync(packageJson, "utf8")))
  const vitest = path.join(path.dirname(createRequire(packageJson).resolve("vitest/package.json")), "vitest.mjs")
  if (machine) {
    run(process.execPath, vitest, [...newestOnly, ...oldestOnly], `the machine's Node ${process.version}`)
    return
  }
  for (const major of lines) {
    const node = nodeOf(major)
    const newest = major === lines.at(-1)
    const excluded = newest ? [...machineOnly, ...oldestOnly] : [...machineOnly, ...newestOnly]
    const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim()
    run(node, vitest, excluded, `Node ${version}`)
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
