/**
 * The "Latest figures" section of docs/bench.md, written from `results/latest.json` so that the page
 * cannot say other figures than the file holds: every bench run rewrites it, `pnpm --filter
 * @community-api/bench docs` rewrites it by hand, and a test of the workspace fails when the page and
 * the file disagree. Plain functions over the file's JSON: no Effect, so the test reads it as it is.
 */
import type { Result } from "./Result.js"

/** `results/latest.json` as main.ts writes it. */
export interface Latest {
  readonly generatedAt: string
  readonly command: string
  readonly machine: {
    readonly node: string
    readonly cpus: number
    readonly cpuModel: string
    readonly loadAverageAtStart: ReadonlyArray<number>
  }
  readonly benchmarks: ReadonlyArray<Result & { readonly measuredAt: string }>
}

/** The lines that open and close the generated section in docs/bench.md. */
export const begin = "<!-- latest figures: generated from bench/results/latest.json; do not edit by hand -->"
export const end = "<!-- end of latest figures -->"

/** A table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim()

/** `2026-11-27T03:36:02.362Z` as `2026-11-27 03:36 UTC`. */
const minute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

const status = (result: Result): string => {
  const own = result.met === null ? "no target" : result.met ? "met" : `missed${result.note ? `: ${result.note}` : ""}`
  const versus = result.versusEffect3
  if (versus === undefined) return own
  return `${own}; against the Effect 3 line: ${versus.met ? "within its target" : "missed (see the entry's note)"}`
}

/** A long note (a profile, for instance) cut to what a table's cell can hold; the file has the rest. */
const shortened = (text: string, max = 240) => text.length > max ? `${text.slice(0, max - 1)}…` : text

/** B1, B1/effect3, B1/effect4, B2 … B9, B10: by number, then by line. */
const byNumber = (a: Result, b: Result) => {
  const number = (id: string) => Number(/^B(\d+)/.exec(id)?.[1] ?? Number.MAX_SAFE_INTEGER)
  return number(a.id) - number(b.id) || a.id.localeCompare(b.id)
}

/** The section's body, between {@link begin} and {@link end}. */
export const render = (latest: Latest): string => {
  const rows = [...latest.benchmarks].sort(byNumber).map((result) =>
    `| ${result.id} | ${cell(result.title)} | ${cell(result.headline)} | ${cell(result.target)} | ${
      cell(shortened(status(result)))
    } | ${minute(result.measuredAt)} |`
  )
  const { cpuModel, cpus, loadAverageAtStart, node } = latest.machine
  return [
    "Every benchmark's latest result in `bench/results/latest.json`, each from the run of its last column (a run " +
    `of some benchmarks replaces only theirs). The last run was \`${latest.command}\` at ${
      minute(latest.generatedAt)
    } on Node ${node.replace(/^v/, "")}, ${cpus} vCPUs (${cpuModel}), load average ${
      loadAverageAtStart[0] ?? "?"
    } at its start; the sections below give each run's conditions and what changed. Each entry's method, all its ` +
    "figures and its whole note are in the file.",
    "",
    "| | Benchmark | Headline | Target | Status | Measured |",
    "|---|---|---|---|---|---|",
    ...rows
  ].join("\n")
}

/** `page` with its generated section replaced by the one of `latest`; fails when the markers are missing. */
export const replaceIn = (page: string, latest: Latest): string => {
  const from = page.indexOf(begin)
  const to = page.indexOf(end)
  if (from < 0 || to < from) throw new Error(`docs/bench.md has no section between "${begin}" and "${end}"`)
  return `${page.slice(0, from + begin.length)}\n${render(latest)}\n${page.slice(to)}`
}
