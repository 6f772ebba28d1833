/**
 * Runs the benchmarks against the reference server on a loopback port, prints a table, writes
 * `results/latest.json` and draws `results/pacing.svg`.
 *
 * `pnpm bench` runs all of them; `pnpm bench B2 B5` runs only those (their results replace the same
 * benchmarks in `latest.json`, the others stay as they were). A benchmark with a name is chosen by its
 * name too: `pnpm bench startup` is `pnpm bench B8`.
 *
 * `pnpm bench lines` is the lines comparison (see `internal/Lines.ts`): B1, B2 at 0 and 100 ms and B3 of
 * the Effect 3 and the Effect 4 line, each in a process of its own on Node 22, written as `B1/effect3`,
 * `B1/effect4`…, the Effect 4 entries with their ratios to the Effect 3 line's.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as B10 from "./B10StalledBodies.js"
import * as B1 from "./B1ClientOverhead.js"
import * as B2 from "./B2Pacing.js"
import * as B3 from "./B3Pagination.js"
import * as B4 from "./B4ServerThroughput.js"
import * as B5 from "./B5Decoding.js"
import * as B6 from "./B6SharedLimits.js"
import * as B7 from "./B7Bridge.js"
import * as B8 from "./B8Startup.js"
import * as B9 from "./B9Scale.js"
import * as Docs from "./docs.js"
import * as Lines from "./internal/Lines.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import * as Svg from "./internal/Svg.js"
import * as Table from "./internal/Table.js"

const resultsDir = fileURLToPath(new URL("../results/", import.meta.url))
const latestFile = `${resultsDir}latest.json`
const pacingFile = `${resultsDir}pacing.svg`

/** A stored result: the benchmark's result and when it was measured. */
type Stored = Result & { readonly measuredAt: string }

/**
 * The lines comparison: each benchmark of the Effect 3 line and of the Effect 4 line, on Node 22;
 * where the Effect 4 line misses, both run again under `--cpu-prof` (after the measure, so that the
 * profiler weighs on no figure) and the note says where their time went.
 */
const compareLines = async () => {
  const node = await Lines.node()
  const results: Array<Result> = []
  for (const [i, benchmark] of Lines.benchmarks.entries()) {
    // Neither line always first: a spell of load then falls on each in turn.
    const order: ReadonlyArray<Lines.Line> = i % 2 === 0 ? ["effect3", "effect4"] : ["effect4", "effect3"]
    const measured = new Map<Lines.Line, Result>()
    for (const line of order) measured.set(line, await Lines.run(node, line, benchmark))
    const effect3 = measured.get("effect3")!
    const effect4 = measured.get("effect4")!
    const versus = Lines.versus(benchmark, effect3, effect4)
    let note = versus.note
    if (!versus.met) {
      const profiles = fs.mkdtempSync(path.join(os.tmpdir(), "bench-profile-"))
      const where: Array<string> = []
      for (const line of ["effect4", "effect3"] as const) {
        const dir = path.join(profiles, line)
        process.stderr.write(`[bench] ${benchmark}/${line}: again under --cpu-prof\n`)
        await Lines.run(node, line, benchmark, dir)
        const file = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(dir, f))[0]
        if (file !== undefined) where.push(`profile of the ${line} runner: ${Lines.profileSummary(file)}`)
      }
      fs.rmSync(profiles, { recursive: true, force: true })
      note = [note, ...where].join(". ")
    }
    results.push(effect3, { ...effect4, versusEffect3: { ...versus, ...(note === undefined ? {} : { note }) } })
  }
  return results
}

const benchmarks: ReadonlyArray<{
  readonly id: string
  readonly name?: string
  readonly run: Effect.Effect<Result | ReadonlyArray<Result>, unknown>
}> = [
  { id: "B1", run: B1.run },
  {
    id: "B2",
    run: Effect.map(B2.run, ({ result, runs }) => {
      fs.writeFileSync(pacingFile, Svg.pacingChart(runs))
      return result
    })
  },
  { id: "B3", run: B3.run },
  { id: "B4", run: B4.run },
  { id: "B5", run: B5.run },
  { id: "B6", run: B6.run },
  { id: "B7", run: B7.run },
  { id: "B8", name: "STARTUP", run: B8.run },
  { id: "B9", name: "SCALE", run: B9.run },
  { id: "B10", name: "STALLED", run: B10.run },
  { id: "LINES", run: Effect.promise(compareLines) }
]

const chosenBy = (name: string) => (b: typeof benchmarks[number]) => b.id === name || b.name === name

const caveats = [
  "Figures are ratios or counts measured side by side in one run; absolute numbers depend on the machine.",
  "The machine is shared: other work (tests, type checks of other packages) may run at the same time and " +
  "adds noise, mostly to the absolute numbers and to timing jitter (B2).",
  "Everything runs on loopback (127.0.0.1); B1–B3 run the reference server in a child process, B4 runs the " +
  "servers in this process and the load generator in a child process, B5 runs in this process only, B7 runs " +
  "the in-process bridge here and the compiled sandbox, Prism and the load generator each in a child process, " +
  "B8 starts every command it times as a fresh child process, B9 runs the reference server and the client " +
  "process (started with --expose-gc) each in a child process, B10 runs the sandbox in a child process and its " +
  "senders in this process.",
  "The lines comparison (B1/effect3, B1/effect4…) runs each benchmark of each Effect line in a process of its " +
  "own on Node 22, the lines one after the other, benchmark by benchmark, each against its own reference server " +
  "(the Effect 3 sandbox) in a child process; the Effect 4 entries carry their ratios to the Effect 3 line's."
]

const readStored = (): ReadonlyArray<Stored> => {
  try {
    const parsed = JSON.parse(fs.readFileSync(latestFile, "utf8")) as { benchmarks?: ReadonlyArray<Stored> }
    return parsed.benchmarks ?? []
  } catch {
    return []
  }
}

const program = Effect.gen(function*() {
  const asked = process.argv.slice(2).map((name) => name.toUpperCase())
  const unknown = asked.filter((name) => !benchmarks.some(chosenBy(name)))
  if (unknown.length > 0) {
    const known = benchmarks.map((b) => b.name === undefined ? b.id : `${b.id} (${b.name.toLowerCase()})`)
    return yield* Effect.dieMessage(`unknown benchmark ${unknown.join(", ")}; known: ${known.join(" ")}`)
  }
  const chosen = asked.length === 0 ? benchmarks : benchmarks.filter((b) => asked.some((name) => chosenBy(name)(b)))
  fs.mkdirSync(resultsDir, { recursive: true })
  const started = Date.now()
  const loadAtStart = os.loadavg()
  const fresh: Array<Stored> = []
  for (const benchmark of chosen) {
    yield* Progress.line(`${benchmark.id} …`)
    const t = Date.now()
    const results = yield* benchmark.run
    for (const result of Array.isArray(results) ? results : [results]) {
      fresh.push({ ...result, measuredAt: new Date().toISOString() })
    }
    yield* Progress.line(`${benchmark.id} done in ${((Date.now() - t) / 1000).toFixed(1)} s`)
  }
  const merged = [...readStored().filter((s) => !fresh.some((f) => f.id === s.id)), ...fresh]
    .sort((a, b) => a.id.localeCompare(b.id))
  const document = {
    generatedAt: new Date().toISOString(),
    command: asked.length === 0 ? "npx -y pnpm@10 bench" : `npx -y pnpm@10 bench ${process.argv.slice(2).join(" ")}`,
    totalSeconds: Math.round((Date.now() - started) / 100) / 10,
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      loadAverageAtStart: loadAtStart.map((x) => Math.round(x * 100) / 100),
      loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 100) / 100)
    },
    caveats,
    benchmarks: merged
  }
  fs.writeFileSync(latestFile, `${JSON.stringify(document, null, 2)}\n`)
  process.stdout.write(Table.render(merged))
  Docs.write()
  process.stdout.write(
    `\nWrote ${latestFile}${
      chosen.some((b) => b.id === "B2") ? `, ${pacingFile}` : ""
    } and docs/bench.md's latest figures\n`
  )
})

NodeRuntime.runMain(program)
