import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import * as ContractCheck from "../src/ContractCheck.js"
import * as Drift from "../src/Drift.js"
import type * as OpenApiDocument from "../src/OpenApiDocument.js"

const document = JSON.parse(
  fs.readFileSync(new URL("../../../lines/effect3/schema/openapi.json", import.meta.url), "utf8")
) as OpenApiDocument.Document

const contracts = ContractCheck.fromDocument(document)

const page = {
  status: "ok",
  response: {
    items: [{ id: "0123456789abcdef01234567", name: "Welcome", create_at: 1704103200 }],
    total: 1
  }
}

describe("Drift", () => {
  it("renames, removes, adds and sets fields at a path, every item of a list", () => {
    const drift: Drift.Drift = [
      { _tag: "Rename", operation: "lists/get", at: "response.items[].name", to: "title" },
      { _tag: "Add", operation: "lists/get", at: "response.items[].color", value: "red" },
      { _tag: "Set", operation: "lists/get", at: "response.total", value: "1" },
      { _tag: "Remove", operation: "lists/get", at: "response.items[].create_at" }
    ]
    expect(Drift.apply(drift, "lists/get", page)).toEqual({
      status: "ok",
      response: { items: [{ id: "0123456789abcdef01234567", title: "Welcome", color: "red" }], total: "1" }
    })
  })

  it("leaves other operations and errors as they are, and answers a declared error code", () => {
    const drift: Drift.Drift = [{ _tag: "ErrorCode", operation: "landings/get", code: 3 }]
    expect(Drift.apply(drift, "lists/get", page)).toBe(page)
    expect(Drift.apply([{ _tag: "Remove", operation: "lists/get", at: "response" }], "lists/get", {
      status: "error",
      error_code: 7
    })).toEqual({ status: "error", error_code: 7 })
    expect(Drift.apply(drift, "landings/get", page)).toMatchObject({ status: "error", error_code: 3 })
    expect(Drift.operations(drift)).toEqual(["landings/get"])
  })

  it("each kind of change is the difference ContractCheck reports of it", () => {
    const contract = contracts.get("lists/get")!
    expect(ContractCheck.check(contract, page)).toEqual({ _tag: "Conforms" })
    const drifted = Drift.apply(
      [
        { _tag: "Rename", operation: "lists/get", at: "response.items[].name", to: "title" },
        { _tag: "Set", operation: "lists/get", at: "response.total", value: "1" }
      ],
      "lists/get",
      page
    )
    const verdict = ContractCheck.check(contract, drifted)
    const found = verdict._tag === "Differs"
      ? verdict.differences.map((d) => `${d._tag} ${"path" in d ? d.path : ""}`)
      : []
    expect(found.sort()).toEqual([
      "MissingField response.items[].name",
      "TypeMismatch response.total",
      "UnknownField response.items[].title"
    ])
  })
})
