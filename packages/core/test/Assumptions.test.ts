import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import * as Assumptions from "../src/Assumptions.js"
import * as ContractCheck from "../src/ContractCheck.js"
import type * as OpenApiDocument from "../src/OpenApiDocument.js"
import * as Operations from "../src/Operations.js"

const docs = new URL("../../../docs/assumptions/", import.meta.url)
const docFiles = fs.readdirSync(docs).filter((file) => file.endsWith(".md")).sort()
const docText = (file: string) => fs.readFileSync(new URL(file, docs), "utf8")

/** The contract as plain data, with the reference server's answers on the demo data as its examples. */
const document = JSON.parse(
  fs.readFileSync(new URL("../../../lines/effect3/schema/openapi.json", import.meta.url), "utf8")
) as OpenApiDocument.Document
const contracts = ContractCheck.fromDocument(document)

const observe = (operation: string, envelope: ContractCheck.Json): Assumptions.Observation => ({
  operation,
  envelope,
  verdict: ContractCheck.check(contracts.get(operation)!, envelope)
})

/** The demo answer of every reading operation, as the reference server gave it. */
const demoAnswers = Operations.reading.map((op) =>
  observe(
    op.path,
    (document.paths[`/${op.path}`] as any).post.responses["200"].content["application/json"].examples.demo.value
  )
)

const byId = (id: string) => Assumptions.all.find((assumption) => assumption.id === id)!

describe("the assumptions about answers as data", () => {
  it("every id the docs give an assumption has its data, in the docs' order, and no other", () => {
    const tagged = docFiles.flatMap((file) => Assumptions.idsIn(docText(file)))
    expect(tagged).toEqual(Assumptions.all.map((assumption) => assumption.id))
    expect(new Set(tagged).size).toBe(tagged.length)
  })

  it("each one's line starts with its rule IDs, and its evidence names declared operations", () => {
    const lines = docFiles.flatMap((file) => docText(file).split("\n"))
    const paths = Operations.all.map((op) => op.path)
    for (const assumption of Assumptions.all) {
      const line = lines.find((text) => text.endsWith(`{#${assumption.id}}`))
      expect(line, assumption.id).toMatch(new RegExp(`^- \\*\\*${assumption.rules.join(" ")}\\*\\* `))
      expect(assumption.evidence.length, assumption.id).toBeGreaterThan(0)
      for (const evidence of assumption.evidence) expect(paths, assumption.id).toContain(evidence.operation)
    }
  })
})

describe("judging an assumption by the answers", () => {
  it("the demo account's answers confirm every assumption they reach; writes are not reached", () => {
    const judged = Object.fromEntries(
      Assumptions.all.map((assumption) => [assumption.id, Assumptions.judge(assumption, demoAnswers)])
    )
    const { "method-names": names, ...others } = judged
    for (const [id, judgement] of Object.entries(others)) expect(judgement, id).toEqual({ _tag: "Confirmed" })
    // Two of the names are of writes, which a run of reads never calls.
    expect(names).toEqual({
      _tag: "NotReached",
      reason: "bots/removeUser was not called; lists/removeUser was not called"
    })
  })

  it("a changed type refutes it, with the evidence", () => {
    const mailing = (demoAnswers.find((o) => o.operation === "mailings/get")!.envelope as any).response.items[0]
    const drifted = observe("mailings/get", {
      status: "ok",
      response: { items: [{ ...mailing, type: "news" }], total: 1 }
    })
    expect(Assumptions.judge(byId("mailing-type"), [drifted])).toEqual({
      _tag: "Refuted",
      operation: "mailings/get",
      evidence: "response.items[].type: string where the contract says integer"
    })
    const me = observe("users/me", { status: "ok", response: { user_id: 1, auth: 2, client_id: "c" } })
    expect(Assumptions.judge(byId("account-strings"), [me])).toMatchObject({
      _tag: "Refuted",
      evidence: "response.auth: integer where the contract says string"
    })
  })

  it("a missing method refutes its name; an undeclared code refutes the codes of the undocumented", () => {
    const missing = observe("funnels/get", { status: "error", error: "no such method", error_code: 3 })
    expect(Assumptions.weigh({ _tag: "Answers", operation: "funnels/get" }, [missing])).toEqual({
      _tag: "Refuted",
      operation: "funnels/get",
      evidence: "error 3: no such method"
    })
    expect(Assumptions.judge(byId("undocumented-codes"), [...demoAnswers, missing])).toEqual({
      _tag: "Refuted",
      operation: "funnels/get",
      evidence: "error 3, which it is not declared to answer"
    })
  })

  it("an operation never called, or never answered with data, does not reach it, and says why", () => {
    expect(Assumptions.judge(byId("mailing-by-id"), [])).toEqual({
      _tag: "NotReached",
      reason: "mailings/getById was not called"
    })
    const denied = observe("groups/getEmployees", { status: "error", error: "no access", error_code: 8 })
    expect(Assumptions.judge(byId("employees-paged"), [denied])).toEqual({
      _tag: "NotReached",
      reason:
        "no answer of groups/getEmployees held response.items; no answer of groups/getEmployees held response.total"
    })
  })

  it("values are found along a path through objects and lists", () => {
    const answer = { response: { items: [{ steps: [{ id: 1 }, { id: 2 }] }, { steps: [] }], total: 2 } }
    expect(Assumptions.valuesAt(answer, "response.items[].steps[].id")).toEqual([1, 2])
    expect(Assumptions.valuesAt(answer, "response.total")).toEqual([2])
    expect(Assumptions.valuesAt(answer, "response.items[].name")).toEqual([])
  })
})
