import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Conformance from "../../../../scripts/conformance.js"

const fixture: Conformance.Input = {
  rules: [
    { id: "C1", text: "Every operation is a POST | with a pipe.", group: "C: conventions" },
    { id: "C2", text: "Form bodies.", group: "C: conventions" },
    { id: "L2", text: "Creations.", group: "L: limits" }
  ],
  tests: [
    { pkg: "schema", file: "A.test.ts", title: "C1 L2 does it", ids: ["C1", "L2"] },
    { pkg: "server", file: "B.test.ts", title: "C1 serves it", ids: ["C1"] }
  ],
  assumptions: [{ pkg: "client", ids: ["L2"], text: "assumed quota" }]
}

describe("conformance generator", () => {
  it("leading rule IDs are read from a title, sub-IDs count as their rule", () => {
    expect(Conformance.leadingIds("L2 L5 creation limit")).toStrictEqual(["L2", "L5"])
    expect(Conformance.leadingIds("L2.3 resets at the minute")).toStrictEqual(["L2"])
    expect(Conformance.leadingIds("E11: name")).toStrictEqual(["E11"])
    expect(Conformance.leadingIds("Envelope decodes")).toStrictEqual([])
    expect(Conformance.leadingIds("C1 X2Y")).toStrictEqual(["C1"])
  })

  it("titles of it, it.effect, it.prop, test and describe calls are collected, others not", () => {
    const source = [
      `describe("X1 errors", () => {`,
      `  it.effect("X1 A6 retries 9", () => Effect.void)`,
      `  it.prop('C9 uid', [Schema.Int], () => true)`,
      "  it.scoped(`C5 ${op.path} body`, () => Effect.void)",
      `  test("C2 form \\"body\\"", () => {})`,
      `  it("no rule here", () => {})`,
      `  submit("C3 not a test", () => {})`,
      `})`
    ].join("\n")
    expect(Conformance.parseTestTitles("server", "X.test.ts", source).map((t) => [t.title, t.ids])).toStrictEqual([
      ["X1 errors", ["X1"]],
      ["X1 A6 retries 9", ["X1", "A6"]],
      ["C9 uid", ["C9"]],
      ["C5 ${op.path} body", ["C5"]],
      ["C2 form \"body\"", ["C2"]]
    ])
  })

  it("assumption bullets with one or several IDs are read, other lines not", () => {
    const text = "# Title\n\n- **E17** one\n- **L2 L3** two\n- plain bullet\n  - **C1** nested also counts\n"
    expect(Conformance.parseAssumptions("server", text)).toStrictEqual([
      { pkg: "server", ids: ["E17"], text: "one" },
      { pkg: "server", ids: ["L2", "L3"], text: "two" },
      { pkg: "server", ids: ["C1"], text: "nested also counts" }
    ])
  })

  it("the document has a table per rule group with tests per package and notes", () => {
    const text = Conformance.render(fixture)
    expect(text).toContain("## C: conventions")
    expect(text).toContain("## L: limits")
    expect(text).toContain("| ID | Rule | schema | server | client | cli | Assumptions and notes |")
    expect(text).toContain(
      "| C1 | Every operation is a POST \\| with a pipe. | A.test.ts › C1 L2 does it | B.test.ts › C1 serves it |  |  |  |"
    )
    expect(text).toContain("| L2 | Creations. | A.test.ts › C1 L2 does it |  |  |  | client: assumed quota |")
    expect(text).toContain("### client\n\n- **L2** assumed quota")
    expect(text).toContain("with neither: 1 (C2)")
    expect(Conformance.render(fixture)).toBe(text)
  })

  it("a rule with neither a test nor a note is reported", () => {
    expect(Conformance.uncovered(fixture).map((r) => r.id)).toStrictEqual(["C2"])
  })

  it("every rule of docs/rules.md has a row in docs/conformance.md", () => {
    // Tolerant on purpose: other packages add tests all the time, and the lead regenerates the file
    // before each commit; an exact comparison is `pnpm conformance --check`.
    const input = Conformance.collect(Conformance.repoRoot)
    const doc = readFileSync(Conformance.outputPath(Conformance.repoRoot), "utf8")
    expect(input.rules.length).toBeGreaterThan(60)
    for (const rule of input.rules) expect(doc, rule.id).toContain(`| ${rule.id} | `)
  })

  it("the Effect 4 line's tests have columns of their own, named with their folder", () => {
    const input = Conformance.collect(Conformance.repoRoot)
    const labels = new Set(input.tests.map((t) => t.pkg))
    for (const pkg of ["effect4/client", "effect4/schema", "client", "schema"]) expect(labels.has(pkg), pkg).toBe(true)
    expect(readFileSync(Conformance.outputPath(Conformance.repoRoot), "utf8")).toContain("| effect4/client |")
  })
})
