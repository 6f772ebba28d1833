/**
 * Writes docs/bench.md's "Latest figures" from `results/latest.json` (main.ts does it after every run).
 */
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import * as LatestFigures from "./internal/LatestFigures.js"

const latestFile = fileURLToPath(new URL("../results/latest.json", import.meta.url))
const page = fileURLToPath(new URL("../../docs/bench.md", import.meta.url))

/** Rewrites the page's generated section; says whether it changed. */
export const write = (): boolean => {
  const latest = JSON.parse(fs.readFileSync(latestFile, "utf8")) as LatestFigures.Latest
  const before = fs.readFileSync(page, "utf8")
  const after = LatestFigures.replaceIn(before, latest)
  if (after !== before) fs.writeFileSync(page, after)
  return after !== before
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  process.stdout.write(write() ? "docs/bench.md: latest figures rewritten\n" : "docs/bench.md: up to date\n")
}
