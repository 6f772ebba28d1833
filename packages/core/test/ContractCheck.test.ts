import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import * as ContractCheck from "../src/ContractCheck.js"
import type * as OpenApiDocument from "../src/OpenApiDocument.js"
import * as Operations from "../src/Operations.js"

/**
 * The contract as plain data: the OpenAPI document the lines build from their schemas and the core's
 * declarations, with the reference server's answers on the demo data as its examples.
 */
const document = JSON.parse(
  fs.readFileSync(new URL("../../../lines/effect3/schema/openapi.json", import.meta.url), "utf8")
) as OpenApiDocument.Document

const contracts = ContractCheck.fromDocument(document)

const contract = (path: string) => {
  const found = contracts.get(path)
  if (found === undefined) throw new Error(`no contract of ${path}`)
  return found
}

const differences = (path: string, envelope: ContractCheck.Json) => {
  const verdict = ContractCheck.check(contract(path), envelope)
  return verdict._tag === "Conforms" ? [] : verdict.differences
}

const bot = {
  id: "b00000000000000000000001",
  name: "Bot",
  group_id: 218340001,
  channel: "VK",
  active: 1,
  archived: 0,
  activity_type: "message",
  create_at: 1707526800
}

describe("the contract's answers as plain data", () => {
  it("every operation of the core has its contract, with the codes it declares and the common 7", () => {
    expect([...contracts.keys()]).toEqual(Operations.all.map((op) => op.path))
    for (const op of Operations.all) {
      expect(contract(op.path).errorCodes, op.path).toEqual([...new Set([...op.errorCodes, 7])].sort((a, b) => a - b))
    }
    expect(contract("vars/clear").response).toBeUndefined()
    expect(contract("bots/getById").response).toEqual({ $ref: "#/components/schemas/BotDetails" })
  })

  it("the reference server's answers on the demo data conform, every operation's", () => {
    let seen = 0
    for (const op of Operations.all) {
      const example = (document.paths[`/${op.path}`] as any).post.responses["200"].content["application/json"]
        .examples?.demo?.value as ContractCheck.Json | undefined
      if (example === undefined) continue
      seen++
      expect(ContractCheck.check(contract(op.path), example), op.path).toEqual({ _tag: "Conforms" })
    }
    expect(seen).toBe(Operations.all.length)
  })
})

describe("an answer that differs from its declaration", () => {
  it("a field the contract does not know: its path, JSON type and shape, never its value", () => {
    const found = differences("users/me", {
      status: "ok",
      response: {
        user_id: 1001,
        auth: "personal_token",
        client_id: "c1",
        phone: "+79001234567",
        settings: { locale: "ru", tags: ["a"], limits: [] }
      }
    })
    expect(found).toEqual([
      { _tag: "UnknownField", path: "response.phone", type: "string", shape: "string" },
      {
        _tag: "UnknownField",
        path: "response.settings",
        type: "object",
        shape: "{ locale: string, tags: Array<string>, limits: [] }"
      }
    ])
    expect(JSON.stringify(found)).not.toContain("7900")
  })

  it("a required field missing, a type changed and a value outside its set, in list items, each once", () => {
    const found = differences("bots/get", {
      status: "ok",
      response: {
        items: [
          { ...bot, name: undefined, active: 2 },
          { ...bot, id: "b00000000000000000000002", name: undefined, archived: "0" },
          { ...bot, id: "b00000000000000000000003", active: 2 }
        ].map((item) => JSON.parse(JSON.stringify(item)) as ContractCheck.Json),
        total: 3
      }
    })
    expect(found).toEqual([
      { _tag: "MissingField", path: "response.items[].name" },
      { _tag: "OutsideSet", path: "response.items[].active", allowed: [0, 1], found: 2 },
      {
        _tag: "TypeMismatch",
        path: "response.items[].archived",
        expected: ["integer"],
        found: "string",
        shape: "string"
      }
    ])
  })

  it("nested objects inside list items: a subscriber's bots and their steps", () => {
    const found = differences("contacts/getBots", {
      status: "ok",
      response: {
        items: [{
          id: "b00000000000000000000006",
          name: "Bot",
          steps: [{
            id: "5f0000000000000000000061",
            step_entered_at: 1721347200,
            bot_entered_at: "yesterday",
            done: true
          }]
        }],
        total: 1
      }
    })
    expect(found).toEqual([
      { _tag: "MissingField", path: "response.items[].steps[].title" },
      {
        _tag: "TypeMismatch",
        path: "response.items[].steps[].bot_entered_at",
        expected: ["integer"],
        found: "string",
        shape: "string"
      },
      { _tag: "UnknownField", path: "response.items[].steps[].done", type: "boolean", shape: "boolean" }
    ])
  })

  it("a mailing's status outside the declared statuses; a whole answer of another type", () => {
    const mailing = {
      id: "a10000000000000000000015",
      title: "t",
      type: 1,
      status: 5,
      status_name: "s",
      archived: false,
      date_send: 0,
      count: 1,
      delivered: 1,
      no_delivered: 0,
      create_at: 0
    }
    expect(differences("mailings/get", { status: "ok", response: { items: [mailing], total: 1 } })).toEqual([
      { _tag: "OutsideSet", path: "response.items[].status", allowed: [0, 1, 2, 3, 4, 6, 7], found: 5 }
    ])
    expect(differences("mailings/get", { status: "ok", response: [mailing] })).toEqual([
      { _tag: "TypeMismatch", path: "response", expected: ["object"], found: "array", shape: expect.any(String) }
    ])
  })

  it("an error code the operation is not declared to answer; a declared one conforms", () => {
    expect(differences("users/me", { status: "error", error: "no access", error_code: 8 })).toEqual([
      { _tag: "UndeclaredErrorCode", code: 8, declared: [4, 5, 7, 9, 101] }
    ])
    expect(differences("users/me", { status: "error", error: "slow down", error_code: 9 })).toEqual([])
    expect(differences("funnels/get", { status: "error", error: "no method", error_code: 6 })).toEqual([])
    expect(differences("groups/get", { status: "error", error: "no method", error_code: 6 })).toEqual([
      { _tag: "UndeclaredErrorCode", code: 6, declared: [4, 5, 7, 9, 101] }
    ])
  })

  it("a response where none is declared, none where one is, and fields beside it in the envelope", () => {
    expect(differences("vars/clear", { status: "ok", response: { done: 1 } })).toEqual([
      { _tag: "UnknownField", path: "response", type: "object", shape: "{ done: integer }" }
    ])
    expect(differences("bots/getById", { status: "ok", took_ms: 3 })).toEqual([
      { _tag: "UnknownField", path: "took_ms", type: "integer", shape: "integer" },
      { _tag: "MissingField", path: "response" }
    ])
  })

  it("no envelope at all", () => {
    for (const answer of [[], "ok", null, { status: "maybe" }, { status: "error", error: "x" }] as const) {
      expect(differences("users/me", answer as ContractCheck.Json), JSON.stringify(answer)).toEqual([
        { _tag: "NotAnEnvelope", shape: ContractCheck.shapeOf(answer as ContractCheck.Json) }
      ])
    }
  })

  it("an answer the contract knows nothing of conforms, whatever it holds (discovery is for those)", () => {
    expect(differences("funnels/get", { status: "ok", response: { items: [{ a: 1 }], total: 1 } })).toEqual([])
  })

  it("fields declared open are the contract's: an employee's fields beside its roles", () => {
    expect(differences("groups/getEmployees", {
      status: "ok",
      response: { items: [{ roles: [{ key: "crm", title: "CRM" }], user_id: 5, name: "N" }], total: 1 }
    })).toEqual([])
    expect(differences("groups/getEmployees", {
      status: "ok",
      response: { items: [{ roles: [{ key: "crm" }], user_id: 5 }], total: 1 }
    })).toEqual([{ _tag: "MissingField", path: "response.items[].roles[].title" }])
  })
})

describe("the comparison on hand-made schemas", () => {
  const definitions = { Id: { type: "string" }, Kind: { type: "integer", enum: [1, 2] } }

  it("a union takes the branch closest to the value, and a value one branch takes conforms", () => {
    const schema = {
      oneOf: [
        { type: "object", required: ["id"], properties: { id: { $ref: "#/components/schemas/Id" } } },
        { type: "null" }
      ]
    }
    expect(ContractCheck.differences(schema, null, definitions, "x")).toEqual([])
    expect(ContractCheck.differences(schema, { id: 1 }, definitions, "x")).toEqual([
      { _tag: "TypeMismatch", path: "x.id", expected: ["string"], found: "integer", shape: "integer" }
    ])
  })

  it("a number where an integer is declared; an integer where a number is; a record's values", () => {
    expect(ContractCheck.differences({ type: "integer" }, 1.5, {}, "n")).toEqual([
      { _tag: "TypeMismatch", path: "n", expected: ["integer"], found: "number", shape: "number" }
    ])
    expect(ContractCheck.differences({ type: "number" }, 2, {}, "n")).toEqual([])
    const record = { type: "object", additionalProperties: { $ref: "#/components/schemas/Kind" } }
    expect(ContractCheck.differences(record, { a: 1, b: 3 }, definitions, "r")).toEqual([
      { _tag: "OutsideSet", path: "r.b", allowed: [1, 2], found: 3 }
    ])
  })

  it("a `const` of another value is outside its set; of another type, a type mismatch", () => {
    expect(ContractCheck.differences({ const: "ok" }, "fine", {}, "s")).toEqual([
      { _tag: "OutsideSet", path: "s", allowed: ["ok"], found: "fine" }
    ])
    expect(ContractCheck.differences({ const: "ok" }, 1, {}, "s")).toEqual([
      { _tag: "TypeMismatch", path: "s", expected: ["string"], found: "integer", shape: "integer" }
    ])
  })

  it("a reference the contract does not define is the contract's bug, not the answer's", () => {
    expect(() => ContractCheck.differences({ $ref: "#/components/schemas/Nope" }, 1, {}, "x")).toThrow("Nope")
  })
})
