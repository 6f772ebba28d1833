/**
 * Runs the benchmarks against the reference server on a loopback port, prints a table, writes
 * `results/latest.json` and draws `results/pacing.svg`.
 *
 * `pnpm bench` runs all of them; `pnpm bench B2 B5` runs only those (their results replace the same
 * benchmarks in `latest.json`, the others stay as they were). A benchmark with a name is chosen by its
 * name too: `pnpm bench startup` is `pnpm bench B8`.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import { fileURLToPath } from "node:url"
import * as B1 from "./B1ClientOverhead.js"
import * as B2 from "./B2Pacing.js"
import * as B3 from "./B3Pagination.js"
import * as B4 from "./B4ServerThroughput.js"
import * as B5 from "./B5Decoding.js"
import * as B6 from "./B6SharedLimits.js"
import * as B7 from "./B7Bridge.js"
import * as B8 from "./B8Startup.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import * as Svg from "./internal/Svg.js"
import * as Table from "./internal/Table.js"

const resultsDir = fileURLToPath(new URL("../results/", import.meta.url))
const latestFile = `${resultsDir}latest.json`
const pacingFile = `${resultsDir}pacing.svg`

/** A stored result: the benchmark's result and when it was measured. */
type Stored = Result & { readonly measuredAt: string }

const benchmarks: ReadonlyArray<{
  readonly id: string
  readonly name?: string
  readonly run: Effect.Effect<Result, unknown>
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
  { id: "B8", name: "STARTUP", run: B8.run }
]

const chosenBy = (name: string) => (b: typeof benchmarks[number]) => b.id === name || b.name === name

const caveats = [
  "Figures are ratios or counts measured side by side in one run; absolute numbers depend on the machine.",
  "The machine is shared: other work (tests, type checks of other packages) may run at the same time and " +
  "adds noise, mostly to the absolute numbers and to timing jitter (B2).",
  "Everything runs on loopback (127.0.0.1); B1–B3 run the reference server in a child process, B4 runs the " +
  "servers in this process and the load generator in a child process, B5 runs in this process only, B7 runs " +
  "the in-process bridge here and the compiled sandbox, Prism and the load generator each in a child process, " +
  "B8 starts every command it times as a fresh child process."
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
    const result = yield* benchmark.run
    fresh.push({ ...result, measuredAt: new Date().toISOString() })
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
  process.stdout.write(`\nWrote ${latestFile}${chosen.some((b) => b.id === "B2") ? ` and ${pacingFile}` : ""}\n`)
})

NodeRuntime.runMain(program)
