/**
 * docs/bench.md's "Latest figures" say what `bench/results/latest.json` holds: the section is written
 * from the file by every bench run (and by `npx -y pnpm@10 --filter @community-api/bench docs`), and
 * this test fails when someone edits one without the other.
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as LatestFigures from "../../../bench/src/internal/LatestFigures.js"

const root = path.resolve(import.meta.dirname, "../../..")
const read = (file: string) => readFileSync(path.join(root, file), "utf8")

describe("docs/bench.md", () => {
  it("its latest figures are the ones bench/results/latest.json holds", () => {
    const page = read("docs/bench.md")
    const latest = JSON.parse(read("bench/results/latest.json")) as LatestFigures.Latest
    expect(
      LatestFigures.replaceIn(page, latest),
      "run `npx -y pnpm@10 --filter @community-api/bench docs` to write the section anew"
    ).toBe(page)
  })

  it("its table has a row for every benchmark in the file, with the file's headline", () => {
    const page = read("docs/bench.md")
    const latest = JSON.parse(read("bench/results/latest.json")) as LatestFigures.Latest
    const section = page.slice(page.indexOf(LatestFigures.begin), page.indexOf(LatestFigures.end))
    for (const result of latest.benchmarks) {
      const row = section.split("\n").find((line) => line.startsWith(`| ${result.id} |`))
      expect(row, result.id).toBeDefined()
      expect(row).toContain(result.headline.replace(/\|/g, "\\|"))
    }
  })
})
