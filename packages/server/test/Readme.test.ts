import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as DemoFixture from "../src/DemoFixture.js"

const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8")

describe("README.md", () => {
  it("A2 A4 A7 the table of demo tokens lists every demo token once, as the sandbox prints them", () => {
    const table = /<!-- demo-tokens:start[^>]*-->\n([\s\S]*?)\n<!-- demo-tokens:end -->/.exec(readme)?.[1] ?? ""
    const listed = [...table.matchAll(/^\|[^|]+\| `([^`]+)` \|$/gm)].map((match) => match[1])
    expect([...listed].sort()).toEqual(Object.values(DemoFixture.tokens).sort())
  })

  it("E1 the curl example uses the owner's demo token", () => {
    expect(readme).toContain(`Authorization: Bearer ${DemoFixture.tokens.owner}`)
  })
})
