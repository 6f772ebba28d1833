import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import * as Sandbox from "../src/Sandbox.js"

const readme = readFileSync(fileURLToPath(new URL("../../../../README.md", import.meta.url)), "utf8")

describe("README.md", () => {
  it("A2 A4 A7 the table of demo tokens lists every demo token once, as the sandbox prints them", () => {
    const table = /<!-- demo-tokens:start[^>]*-->\n([\s\S]*?)\n<!-- demo-tokens:end -->/.exec(readme)?.[1] ?? ""
    const listed = [...table.matchAll(/^\|[^|]+\| `([^`]+)` \|$/gm)].map((match) => match[1])
    expect([...listed].sort()).toEqual(Object.values(DemoFixture.tokens).sort())
  })

  it("E1 the curl example uses the owner's demo token", () => {
    expect(readme).toContain(`Authorization: Bearer ${DemoFixture.tokens.owner}`)
  })

  it("X1 the control token is listed beside the demo tokens, with the flag and the variable that change it", () => {
    const after = readme.slice(readme.indexOf("<!-- demo-tokens:end -->"))
    const line = /^\| sandbox control[^|]*\| `([^`]+)` \|$/m.exec(after.slice(0, 400))
    expect(line?.[1]).toBe(ReferenceServer.demoControlToken)
    expect(after).toContain("--control-token")
    expect(after).toContain(Sandbox.controlTokenVariable)
    expect(after).toContain(`Authorization: Bearer ${ReferenceServer.demoControlToken}`)
  })
})
