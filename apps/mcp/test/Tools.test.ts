/**
 * The tools as the contract derives them, checked in process: names, descriptions, hints and input
 * schemas against each operation's declaration, and `call` against the operations whose parameters
 * the API does not document.
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import { Operation, Operations } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { ConfigProvider, Effect, Redacted, SchemaAST } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Action from "../src/Action.js"
import * as Credentials from "../src/Credentials.js"
import * as Tools from "../src/Tools.js"

const operationTools = Tools.all.filter((tool): tool is Tools.OperationTool => tool._tag === "Operation")

const fieldsOf = (op: Operation.Any) => {
  const ast = op.payload.ast
  return SchemaAST.isTypeLiteral(ast) ? ast.propertySignatures : []
}

describe("tools", () => {
  it("one tool per documented operation, named after its path, then call; no tool of its own for E17", () => {
    expect(Tools.all.map((tool) => tool.definition.name)).toEqual([
      ...Operations.documented.map((op) => op.path.replace("/", "_")),
      Tools.callName
    ])
    const names = Tools.all.map((tool) => tool.definition.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) expect(name).toMatch(Tools.namePattern)
    for (const op of Operations.undocumented) expect(names).not.toContain(Tools.nameOf(op))
  })

  it("every method of the contract starts with a verb the server knows, reads being safe and no creation", () => {
    for (const op of Operations.all) {
      expect(Action.isKnown(op), op.path).toBe(true)
      if (Action.of(op) === "read") {
        expect(op.safeToRepeat, op.path).toBe(true)
        expect(op.creation, op.path).toBe(false)
      }
      if (op.creation) expect(Action.of(op), op.path).toBe("add")
    }
    // Lists only read (C12).
    for (const op of Operations.all.filter(Operation.isPageable)) expect(Action.of(op), op.path).toBe("read")
  })

  it("hints: read-only for reads, destructive for changes and removals, idempotent from safe-to-repeat", () => {
    for (const { definition, op } of operationTools) {
      const action = Action.of(op)
      expect(definition.annotations).toMatchObject({
        readOnlyHint: action === "read",
        destructiveHint: action === "change" || action === "remove",
        idempotentHint: op.safeToRepeat
      })
    }
    const byName = (name: string) => operationTools.find((tool) => tool.definition.name === name)!
    expect(Action.of(byName("vars_clear").op)).toBe("remove")
    expect(Action.of(byName("bots_disable").op)).toBe("change")
    expect(Action.of(byName("lists_addUser").op)).toBe("add")
  })

  it("A9 L2 descriptions: the summary, who may call it, the limits, paging for lists", () => {
    for (const { definition, op } of operationTools) {
      const description = definition.description ?? ""
      expect(description.startsWith(op.summary)).toBe(true)
      expect(description).toContain(Tools.describeAccess(op))
      expect(description).toContain("30 requests a second, which this server paces")
      expect(description.includes("creation limit of 20 a minute and 200 a day;")).toBe(op.creation)
      expect(description.includes(Tools.describePaging)).toBe(Operation.isPageable(op))
      // In words: the spec's rule IDs are not for the assistant's user.
      expect(description).not.toMatch(/\b[CRSEALVX][0-9]{1,2}\b/)
    }
  })

  it("C13 input schemas: the payload's parameters, its required ones, all for lists, nothing else", () => {
    const ajv = new Ajv2020({ strict: true })
    for (const { definition, op } of operationTools) {
      const schema = definition.inputSchema as unknown as {
        properties: Record<string, unknown>
        required?: Array<string>
        additionalProperties: boolean
      }
      expect(ajv.validateSchema(schema), op.path).toBe(true)
      const fields = fieldsOf(op)
      expect(Object.keys(schema.properties)).toEqual([
        ...fields.map((field) => String(field.name)),
        ...(Operation.isPageable(op) ? ["all"] : [])
      ])
      expect(schema.required ?? []).toEqual(fields.filter((field) => !field.isOptional).map((f) => String(f.name)))
      expect(schema.additionalProperties).toBe(false)
      expect(JSON.stringify(schema)).not.toContain("$ref")
    }
    const count = (operationTools.find((tool) => tool.definition.name === "bots_get")!.definition.inputSchema as {
      properties: Record<string, unknown>
    }).properties.count
    expect(count).toMatchObject({ type: "integer", minimum: 1, maximum: 500, default: 100 })
  })

  it("C7 C10 E11 input schemas keep the contract's bounds, allowed values and patterns", () => {
    const ajv = new Ajv2020({ strict: true })
    const validate = (name: string) =>
      ajv.compile(operationTools.find((tool) => tool.definition.name === name)!.definition.inputSchema as object)
    const create = validate("vars_create")
    const valid = { group_id: 1, channel: "vk", title: "Город", name: "city" }
    expect(create(valid)).toBe(true)
    expect(create({ ...valid, channel: "XX" })).toBe(false)
    expect(create({ ...valid, name: "a.b" })).toBe(false)
    expect(create({ ...valid, name: "x".repeat(121) })).toBe(false)
    expect(create({ ...valid, extra: 1 })).toBe(false)
    const enable = validate("bots_enable")
    expect(enable({ bot_id: "0123456789abcdef01234567" })).toBe(true)
    expect(enable({ bot_id: "0123456789ABCDEF01234567" })).toBe(false)
    const mailings = validate("mailings_get")
    expect(mailings({ group_id: 1, channel: "VK", status: 5 })).toBe(false)
    expect(mailings({ group_id: 1, channel: "VK", status: 4, all: true })).toBe(true)
  })

  it("E17 call reaches exactly the operations of E17 and says their parameters are not documented", () => {
    const schema = Tools.callTool.definition.inputSchema as unknown as { properties: { path: { enum: Array<string> } } }
    expect(schema.properties.path.enum).toEqual(Operations.undocumented.map((op) => op.path))
    expect(Tools.callTool.definition.description).toContain("their parameters are not documented")
    expect(Tools.callTool.definition.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    expect(new Ajv2020({ strict: true }).validateSchema(schema)).toBe(true)
  })
})

describe("docs", () => {
  it("docs/mcp.md lists the tools exactly as the code derives them", () => {
    const docs = readFileSync(fileURLToPath(new URL("../../../docs/mcp.md", import.meta.url)), "utf8")
    const table = /<!-- tools:start[^>]*-->\n([\s\S]*?)\n<!-- tools:end -->/.exec(docs)
    expect(table?.[1]).toBe(Tools.markdown())
  })
})

describe("credentials", () => {
  const env = (map: Record<string, string>) =>
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(map))))

  it.effect("the server reads the same variables as the client's configFromEnv", () =>
    Effect.gen(function*() {
      const values = {
        [Credentials.baseUrlVariable]: "http://127.0.0.1:1/external-api/v2/",
        [Credentials.tokenVariable]: "t"
      }
      const config = yield* env(values)(CommunityApiClient.configFromEnv)
      const target = yield* env(values)(Credentials.resolve)
      expect(target).toMatchObject({ _tag: "Remote", baseUrl: "http://127.0.0.1:1/external-api/v2" })
      expect(String(config.baseUrl)).toBe(values[Credentials.baseUrlVariable])
      expect(target._tag === "Remote" && Redacted.value(target.token)).toBe(Redacted.value(config.token))
    }))

  it.effect("no base URL is the embedded sandbox; a base URL without a token is refused", () =>
    Effect.gen(function*() {
      expect(yield* env({})(Credentials.resolve)).toMatchObject({ _tag: "Embedded" })
      const refused = yield* Effect.flip(env({ [Credentials.baseUrlVariable]: "http://x/v2" })(Credentials.resolve))
      expect(refused.message).toContain(Credentials.tokenVariable)
    }))
})
