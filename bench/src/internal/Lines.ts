/**
 * The lines comparison: B1, B2 (0 and 100 ms) and B3 of the Effect 3 and the Effect 4 line, both on
 * Node 22, in one run. Plain TypeScript, no Effect: each line's runner is a process of its own (the
 * two lines do not share a process), started here on the Node 22 binary of `scripts/node-lines.mjs`,
 * one benchmark of one line at a time, alternating the lines, so that a busy spell of the shared
 * machine does not fall on one line only (which goes first alternates from one benchmark to the next). A runner is started as `ENTRY --lines-out FILE ID` and
 * writes its result there as JSON.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Result, Versus } from "./Result.js"
import { round } from "./Stats.js"

/** An Effect line. */
export type Line = "effect3" | "effect4"

/** The benchmarks compared. */
export const benchmarks = ["B1", "B2", "B3"] as const

/** A benchmark compared. */
export type Benchmark = typeof benchmarks[number]

/** The Node line both lines run on (the oldest that runs Effect 4). */
export const nodeMajor = "22"

/** How far an Effect 4 figure may fall behind the Effect 3 line's. */
export const tolerance = 0.1

/**
 * The figures the target holds to, and which way is better: B1's latency over raw `fetch` and the
 * client's own microseconds a call (the one figure where only the client differs), B2's rate, B3's
 * wall time and requests.
 */
export const compared: Readonly<
  Record<Benchmark, ReadonlyArray<{ readonly figure: string; readonly better: "lower" | "higher" }>>
> = {
  B1: [
    { figure: "usersMe.ratio", better: "lower" },
    { figure: "botsGet500.ratio", better: "lower" },
    { figure: "usersMe.isolatedClientMicrosPerCall", better: "lower" },
    { figure: "botsGet500.isolatedClientMicrosPerCall", better: "lower" }
  ],
  B2: [
    { figure: "0ms.client.okPerSecond", better: "higher" },
    { figure: "100ms.client.okPerSecond", better: "higher" }
  ],
  B3: [{ figure: "wallMs", better: "lower" }, { figure: "requests", better: "lower" }]
}

/**
 * What the profiles showed where a compared figure missed (profiles of 2026-11-26, `--cpu-prof` on
 * Node 22), added to the note when it misses again; the note carries the new profiles' summary too.
 */
const causes: Readonly<Record<string, string>> = {
  "botsGet500.isolatedClientMicrosPerCall": "on a 500-item page the client's own work is mostly decoding: the " +
    "Effect 3 line decodes a valid answer through a decoder compiled once from the schema's AST " +
    "(lines/effect3/schema/src/internal/fastDecode.ts), the Effect 4 line through Effect 4's own Schema parser " +
    "(SchemaAST, the interpreter's parseChecks, record.assignProperty, DateTime.makeUtc in its profile); on " +
    "users/me, where little is decoded, the Effect 4 line's runtime does the same work in about half the time"
}

const titles: Record<Benchmark, string> = {
  B1: "Client overhead",
  B2: "Pacing at 0 and 100 ms",
  B3: "Pagination at scale"
}

/** The id and title of a line's entry, e.g. `B1/effect4`. */
export const entryOf = (benchmark: Benchmark, line: Line): { readonly id: string; readonly title: string } => ({
  id: `${benchmark}/${line}`,
  title: `${titles[benchmark]}, ${line === "effect3" ? "Effect 3" : "Effect 4"} line (Node ${nodeMajor})`
})

/** The flag of a runner's output file. */
export const outFlag = "--lines-out"

/** A runner's arguments: where to write, and the benchmark; `undefined` when not run as a runner. */
export const runnerArgs = (
  argv: ReadonlyArray<string>
): { readonly out: string; readonly benchmark: Benchmark } | undefined => {
  const at = argv.indexOf(outFlag)
  if (at < 0) return undefined
  const out = argv[at + 1]
  const benchmark = argv.find((arg, i) => i !== at + 1 && (benchmarks as ReadonlyArray<string>).includes(arg))
  if (out === undefined || benchmark === undefined) {
    throw new Error(`usage: ENTRY ${outFlag} FILE ${benchmarks.join("|")}`)
  }
  return { out, benchmark: benchmark as Benchmark }
}

/** Writes a runner's result, stamped with its line and Node. */
export const writeResult = (out: string, line: Line, result: Result): void =>
  fs.writeFileSync(out, JSON.stringify({ ...result, line: { effect: line, node: process.version } }))

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** The binary of a Node line (`scripts/node-lines.mjs`), installed from the npm registry's `node` package when missing. */
const nodeLine = async (major?: string): Promise<string> => {
  const lines = (await import(path.join(root, "scripts", "node-lines.mjs"))) as {
    readonly nodeOf: (major: string) => string
    readonly lines: ReadonlyArray<string>
  }
  return lines.nodeOf(major ?? lines.lines.at(-1)!)
}

/** The Node 22 binary, installed from the npm registry's `node` package when missing. */
export const node = (): Promise<string> => nodeLine(nodeMajor)

/** The binary of the newest maintained Node line (the active LTS users run), installed when missing. */
export const newestNode = (): Promise<string> => nodeLine()

/** The runner of each line: its package folder and entry. */
export const runners: Record<Line, { readonly cwd: string; readonly entry: string }> = {
  effect3: { cwd: path.join(root, "bench"), entry: "src/linesRunner.ts" },
  effect4: { cwd: path.join(root, "lines", "effect4", "bench"), entry: "src/main.ts" }
}

/**
 * Runs `benchmark` of `line` in a process of its own on `nodeBinary`; with `profileDir`, under
 * `--cpu-prof` into that folder.
 */
export const run = (
  nodeBinary: string,
  line: Line,
  benchmark: Benchmark,
  profileDir?: string
): Promise<Result> => {
  const out = path.join(os.tmpdir(), `bench-lines-${process.pid}-${line}-${benchmark}.json`)
  const { cwd, entry } = runners[line]
  const args = [
    ...(profileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", profileDir]),
    "--import",
    import.meta.resolve("tsx"),
    entry,
    outFlag,
    out,
    benchmark
  ]
  return new Promise((resolve, reject) => {
    // The runner's output goes to stderr: stdout carries only the table.
    const child = spawn(nodeBinary, args, { cwd, stdio: ["ignore", process.stderr, "inherit"] })
    child.on("error", reject)
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${line} ${benchmark} exited with ${code}`))
      const result = JSON.parse(fs.readFileSync(out, "utf8")) as Result
      fs.rmSync(out, { force: true })
      resolve(result)
    })
  })
}

/** The Effect 4 entry against the Effect 3 entry: a ratio per numeric figure, and the target. */
export const versus = (benchmark: Benchmark, effect3: Result, effect4: Result): Versus => {
  const ratios: Record<string, number> = {}
  for (const [name, value] of Object.entries(effect4.figures)) {
    const base = effect3.figures[name]
    // A ratio of counts or times; a difference near zero (a growth of memory, say) has none.
    if (typeof value === "number" && typeof base === "number" && value > 0 && base > 0) {
      ratios[name] = round(value / base, 3)
    }
  }
  const misses = compared[benchmark].flatMap(({ better, figure }) => {
    const ratio = ratios[figure]
    const ok = ratio !== undefined && (better === "lower" ? ratio <= 1 + tolerance : ratio >= 1 - tolerance)
    return ok ? [] : [
      `${figure}: ${effect4.figures[figure]} against ${effect3.figures[figure]} (${ratio ?? "no ratio"}×, ${
        better === "lower" ? "more" : "less"
      } than ${tolerance * 100}% ${better === "lower" ? "over" : "under"})` +
      (causes[figure] === undefined ? "" : `: ${causes[figure]}`)
    ]
  })
  return {
    ratios,
    target: `within ${tolerance * 100}% of the Effect 3 line on ${
      compared[benchmark].map(({ better, figure }) => `${figure} (${better} is better)`).join(", ")
    }`,
    met: misses.length === 0,
    ...(misses.length > 0 ? { note: misses.join("; ") } : {})
  }
}

/**
 * Where a CPU profile's time went: the functions of most self time (idle left out), each as a share of
 * the busy samples, and the shares by package.
 */
export const profileSummary = (file: string, top = 12): string => {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as {
    readonly nodes: ReadonlyArray<{
      readonly id: number
      readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
    }>
    readonly samples: ReadonlyArray<number>
    readonly timeDeltas: ReadonlyArray<number>
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
  const self = new Map<string, number>()
  const packages = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!
    if (frame.functionName === "(idle)") return
    const micros = profile.timeDeltas[i] ?? 0
    busy += micros
    const where = placeOf(frame.url)
    const key = `${frame.functionName || "(anonymous)"}${frame.url ? ` ${where}:${frame.lineNumber + 1}` : ""}`
    self.set(key, (self.get(key) ?? 0) + micros)
    const pkg = frame.url === "" ? frame.functionName : packageOf(where)
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros)
  })
  const share = (micros: number) => `${round((micros / busy) * 100, 1)}%`
  const sorted = (map: Map<string, number>, n: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${share(v)} ${k}`)
  return `busy ${round(busy / 1e6, 1)} s; by package: ${sorted(packages, 8).join(", ")}; top self time: ${
    sorted(self, top).join(", ")
  }`
}

/** A frame's file, from the package on (`effect/dist/…`), or from the project's root. */
const placeOf = (url: string): string => {
  const file = url.startsWith("file://") ? fileURLToPath(url) : url
  const modules = file.lastIndexOf("node_modules/")
  if (modules >= 0) return file.slice(modules + "node_modules/".length).replace(/^\.pnpm\/[^/]+\/node_modules\//, "")
  return file.startsWith(root) ? file.slice(root.length) : file
}

const packageOf = (place: string): string => {
  if (place.startsWith("node:") || place === "") return "node"
  const parts = place.split("/")
  return place.startsWith("@") || /^(packages|effect4|apps)\//.test(place) ? `${parts[0]}/${parts[1]}` : parts[0]!
}
