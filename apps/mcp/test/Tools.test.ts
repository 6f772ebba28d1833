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
import * as Output from "../src/Output.js"
import * as Tools from "../src/Tools.js"

const operationTools = Tools.all.filter((tool): tool is Tools.OperationTool => tool._tag === "Operation")

const fieldsOf = (op: Operation.Any) => {
  const ast = op.payload.ast
  return SchemaAST.isTypeLiteral(ast) ? ast.propertySignatures : []
}

describe("tools", () => {
  it("one tool per documented operation, named after its path, then call and limits_get; no tool of its own for E17", () => {
    expect(Tools.all.map((tool) => tool.definition.name)).toEqual([
      ...Operations.documented.map((op) => op.path.replace("/", "_")),
      Tools.callName,
      "limits_get"
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
      expect(definition.annotations, op.path).toMatchObject({
        readOnlyHint: op.reads,
        destructiveHint: action === "change" || action === "remove",
        idempotentHint: op.safeToRepeat
      })
    }
    const byName = (name: string) => operationTools.find((tool) => tool.definition.name === name)!
    expect(Action.of(byName("vars_clear").op)).toBe("remove")
    expect(Action.of(byName("bots_disable").op)).toBe("change")
    expect(Action.of(byName("lists_addUser").op)).toBe("add")
  })

  it("read-only follows the declaration's reads, never the method's name", () => {
    for (const { definition, op } of operationTools) {
      expect(definition.annotations?.readOnlyHint, op.path).toBe(op.reads)
    }
    expect(Operations.all.filter((op) => Action.of(op) === "read")).toEqual(Operations.all.filter((op) => op.reads))
    // A method named as a read that a declaration says writes is a change; a write's name declared a read reads.
    const misnamed = { ...Operations.vars.get, reads: false }
    expect(Action.of(misnamed)).toBe("change")
    expect(Action.hints(misnamed)).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    expect(Action.of({ ...Operations.lists.rename, reads: true })).toBe("read")
    expect(Tools.callHints([{ ...Operations.funnels.get, reads: false }]).readOnlyHint).toBe(false)
    expect(Tools.operationTool({ ...Operations.vars.get, reads: false }).definition.annotations?.readOnlyHint)
      .toBe(false)
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
    expect(count).toMatchObject({ type: "integer", minimum: 1, default: 100 })
  })

  it("C13 count has no maximum a larger value would break: one above 500 is described as replaced, and answered", () => {
    for (const tool of operationTools.filter((tool) => Operation.isPageable(tool.op))) {
      const count = (tool.definition.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties
        .count!
      expect(count, tool.definition.name).not.toHaveProperty("maximum")
      expect(String(count.description), tool.definition.name).toContain("replaced by 500")
    }
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

describe("output schemas", () => {
  /** Every object of a JSON value, depth first. */
  const objects = (json: unknown): Array<Record<string, unknown>> =>
    Array.isArray(json)
      ? json.flatMap(objects)
      : typeof json === "object" && json !== null
      ? [json as Record<string, unknown>, ...Object.values(json).flatMap(objects)]
      : []

  const outputOf = (definition: Tools.Tool["definition"]) =>
    definition.outputSchema as unknown as {
      readonly type: string
      readonly properties: { readonly result: Record<string, unknown>; readonly error: Record<string, unknown> }
      readonly additionalProperties: boolean
      readonly minProperties: number
      readonly maxProperties: number
    }

  it("every tool: an object with exactly one of result and error, standing alone", () => {
    for (const tool of Tools.all) {
      const schema = outputOf(tool.definition)
      expect(schema, tool.definition.name).toMatchObject({
        type: "object",
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1
      })
      expect(Object.keys(schema.properties), tool.definition.name).toEqual(["result", "error"])
      expect(schema.properties.error).toBe(Output.errorSchema)
      for (const object of objects(schema)) {
        for (const key of ["$ref", "$id", "$defs", "$schema"]) {
          expect(Object.keys(object), tool.definition.name).not.toContain(key)
        }
      }
    }
  })

  it("C12 C5 E17 the result: a page for a list, the success for a single answer, null without data, anything for call", () => {
    for (const { definition, op } of operationTools) {
      const result = outputOf(definition).properties.result
      if (Operation.isPageable(op)) {
        expect(result, op.path).toMatchObject({
          type: "object",
          required: ["items", "total"],
          additionalProperties: false
        })
        expect(Object.keys(result.properties as object), op.path).toEqual(["items", "total", "next_offset"])
      } else if (op.hasResponse) {
        expect(result.type, op.path).toBe("object")
        // Fields the contract does not name yet still validate.
        expect(result.additionalProperties, op.path).not.toBe(false)
      } else {
        expect(result, op.path).toEqual({ type: "null" })
      }
    }
    expect(outputOf(Tools.callTool.definition).properties.result).toMatchObject({
      anyOf: ["string", "number", "boolean", "object", "array", "null"].map((type) => ({ type }))
    })
  })

  it("the error: type, operation and advice always; code, text, message, issues and the wait when they apply", () => {
    const error = Output.errorSchema as { required: Array<string>; properties: Record<string, unknown> }
    expect(error.required).toEqual(["type", "operation", "advice"])
    expect(Object.keys(error.properties)).toEqual([
      "type",
      "operation",
      "code",
      "text",
      "message",
      "advice",
      "issues",
      "window",
      "resets_at",
      "retry_after_ms"
    ])
  })
})

describe("call over some operations", () => {
  const reads = Operations.undocumented.filter((op) => op.reads)
  const changes = Operations.undocumented.filter((op) => !op.reads)

  it("E17 its path reaches exactly the operations given, and its description names only those", () => {
    const tool = Tools.callToolOf(reads)
    const schema = tool.definition.inputSchema as unknown as { properties: { path: { enum: Array<string> } } }
    expect(schema.properties.path.enum).toEqual(reads.map((op) => op.path))
    for (const op of changes) expect(tool.definition.description).not.toContain(`${op.path}:`)
    for (const op of reads) expect(tool.definition.description).toContain(`${op.path}: ${op.summary}`)
    expect(tool.definition.description).not.toContain("Creations (")
  })

  it("over reads alone it is read-only and idempotent; with any other operation it promises nothing", () => {
    expect(Tools.callToolOf(reads).definition.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true
    })
    expect(Tools.callToolOf([...reads, changes[0]!]).definition.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false
    })
  })

  it("what a tool is about: its section, path, summary, access and limits; call's over its operations", () => {
    const enable = operationTools.find((tool) => tool.definition.name === "bots_enable")!
    expect(Tools.about(enable)).toMatchObject({
      sections: ["bots"],
      paths: ["bots/enable"],
      summary: enable.op.summary,
      limits: Tools.describeLimits(enable.op)
    })
    expect(Tools.about(enable).words).toContain("bots_enable")
    const call = Tools.about(Tools.callToolOf(reads))
    expect(call.paths).toEqual(reads.map((op) => op.path))
    expect(new Set(call.sections)).toEqual(new Set(reads.map((op) => op.section)))
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
