/**
 * What the contract says of each operation in words, for the surfaces that describe operations (the
 * command line's help, the MCP tools), and the typed list and accessors they walk the operations with.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema, SchemaAST } from "effect"
import { Limits, Operation, Operations } from "../src/index.js"

/** A rule ID of the spec, as `docs/rules.md` numbers them: C1, E17, A9, L2. */
const ruleId = /\b[CRSEALVX][0-9]{1,2}\b/

describe("the typed list of operations", () => {
  it("C1 every operation once, section by section in the spec's order, each as its section declares it", () => {
    expect(Operations.sectionNames).toEqual(Object.keys(Operations.sections))
    for (const name of Operations.sectionNames) {
      expect(Operations.inSection(name)).toEqual(Object.values(Operations.sections[name]))
      for (const op of Operations.inSection(name)) expect(op.section).toBe(name)
    }
    expect(Operations.all).toEqual(Operations.sectionNames.flatMap((name) => Object.values(Operations.sections[name])))
    expect(new Set(Operations.all).size).toBe(Operations.all.length)
    expect(Operations.all).toContain(Operations.bots.enable)
  })
})

describe("payloadOf and successOf", () => {
  it("every payload is an object once decoded and once encoded, as payloadOf says", () => {
    for (const op of Operations.all) {
      expect(SchemaAST.isTypeLiteral(op.payload.ast), op.path).toBe(true)
      expect(SchemaAST.isTypeLiteral(SchemaAST.encodedAST(op.payload.ast)), op.path).toBe(true)
      expect(Operation.payloadOf(op)).toBe(op.payload)
      expect(Operation.successOf(op)).toBe(op.success)
    }
  })

  it("C7 the payload decodes and encodes parameters as the operation's own schema does", () => {
    const payload = Operation.payloadOf(Operations.vars.create)
    const decoded = Schema.decodeUnknownSync(payload)({ group_id: "7", channel: "vk", title: "Город", name: "city" })
    expect(decoded).toEqual({ group_id: 7, channel: "VK", title: "Город", name: "city" })
    expect(Schema.encodeSync(payload)(decoded)).toEqual({ group_id: 7, channel: "VK", title: "Город", name: "city" })
    expect(() => Schema.decodeUnknownSync(payload)({ group_id: 7, channel: "XX", title: "a", name: "b" })).toThrow()
  })
})

describe("describe", () => {
  it("A9 who may call each operation, in the words of whoMay for its role group", () => {
    for (const op of Operations.all) {
      const description = Operation.describe(op)
      expect(description.summary, op.path).toBe(op.summary)
      expect(description.whoMay, op.path).toBe(Operation.whoMay[op.roleGroup])
    }
    expect(Operation.describe(Operations.groups.getEmployees).whoMay).toBe("the owner and admins only")
    expect(Operation.describe(Operations.users.me).whoMay).toBe("any valid token")
  })

  it("L1 L2 every call counts against the requests a second; only creations against the creation limit", () => {
    expect(Operation.requestLimit).toBe(`${Limits.requestsPerWindow} requests a second`)
    expect(Operation.creationLimit).toEqual([
      `${Limits.creationsPerMinute} a minute`,
      `${Limits.creationsPerDay} a day`
    ])
    for (const op of Operations.all) {
      const description = Operation.describe(op)
      expect(description.requests, op.path).toBe("30 requests a second")
      expect(description.creations, op.path).toEqual(op.creation ? ["20 a minute", "200 a day"] : undefined)
    }
    const creations = Operations.all.filter((op) => Operation.describe(op).creations !== undefined).map((op) => op.path)
    expect(creations).toEqual(expect.arrayContaining(["lists/create", "vars/create", "globalVars/create"]))
  })

  it("an operation not safe to repeat says what becomes of it after an ambiguous failure; the others do not", () => {
    for (const op of Operations.all) {
      expect(Operation.describe(op).notRepeated, op.path).toBe(op.safeToRepeat ? undefined : Operation.notRepeated)
    }
    expect(Operation.describe(Operations.vars.create).notRepeated).toContain("reported as unknown")
    expect(Operation.describe(Operations.bots.get).notRepeated).toBeUndefined()
  })

  it("the pieces are plain words: no rule ID of the spec", () => {
    for (const op of Operations.all) {
      const { creations, notRepeated, requests, summary, whoMay } = Operation.describe(op)
      for (const text of [summary, whoMay, requests, ...(creations ?? []), notRepeated ?? ""]) {
        expect(text, op.path).not.toMatch(ruleId)
      }
    }
  })
})
