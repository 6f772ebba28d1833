/**
 * Every suite of scenarios runs on both lines: each line's client has a test file of the suite's name
 * that registers that suite, and nothing else registers it.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const scenarios = join(root, "tests", "client-behaviour", "scenarios")
const lines = [join(root, "lines", "effect3", "client", "test"), join(root, "lines", "effect4", "client", "test")]

const suites = readdirSync(scenarios).filter((f) => f.endsWith(".ts")).map((f) => f.replace(/\.ts$/, "")).sort()

/** The suite a test file registers, if it registers one. */
const registered = (source: string): string | undefined =>
  /import suite from "(?:\.\.\/)+tests\/client-behaviour\/scenarios\/(\w+)\.js"/.exec(source)?.[1]

describe("The scenarios' runners", () => {
  it("C1 each suite of scenarios is run by a test file of its name in both lines' clients", () => {
    expect(suites.length).toBeGreaterThan(0)
    for (const dir of lines) {
      const runners = readdirSync(dir).filter((f) => f.endsWith(".test.ts")).flatMap((file) => {
        const suite = registered(readFileSync(join(dir, file), "utf8"))
        return suite === undefined ? [] : [{ file, suite }]
      })
      expect(runners.map((r) => r.suite).sort(), dir).toStrictEqual(suites)
      for (const runner of runners) expect(runner.file, dir).toBe(`${runner.suite}.test.ts`)
    }
  })

  it("a runner is read by what it imports", () => {
    expect(registered(`import suite from "../../../tests/client-behaviour/scenarios/Pacing.js"`)).toBe("Pacing")
    expect(registered(`import suite from "./Pacing.js"`)).toBeUndefined()
  })
})
