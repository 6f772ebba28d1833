/**
 * The JSON Schema of the wire, derived once for the OpenAPI document (references to its components,
 * other properties allowed) and for a tool's input (standing alone, other properties refused): what
 * the contract encodes is valid against it, what the contract refuses is not.
 */
import { describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Arbitrary, FastCheck, Schema, SchemaAST } from "effect"
import { JsonSchema, Operation, Operations, Page } from "../src/index.js"

/** Every object of a JSON value, depth first. */
const objects = (json: unknown): Array<Record<string, unknown>> =>
  Array.isArray(json)
    ? json.flatMap(objects)
    : typeof json === "object" && json !== null
    ? [json as Record<string, unknown>, ...Object.values(json).flatMap(objects)]
    : []

const fieldsOf = (op: Operation.Any) => {
  const ast = op.payload.ast
  return SchemaAST.isTypeLiteral(ast) ? ast.propertySignatures : []
}

/** Valid parameters of an operation, as the wire carries them. */
const encodedSamples = (op: Operation.Any): ReadonlyArray<unknown> => {
  const payload = Operation.payloadOf(op)
  return FastCheck.sample(Arbitrary.make(payload), { numRuns: 20, seed: 2026 }).map((params) =>
    Schema.encodeSync(payload)(params)
  )
}

describe("the input schema standing alone (a tool's)", () => {
  it("C13 every parameter with its bounds, its required ones, no other property, no reference", () => {
    for (const op of Operations.documented) {
      const input = JsonSchema.input(op)
      const fields = fieldsOf(op)
      expect(input.type, op.path).toBe("object")
      expect(Object.keys(input.properties as object), op.path).toEqual(fields.map((field) => String(field.name)))
      expect(input.required ?? [], op.path).toEqual(fields.filter((f) => !f.isOptional).map((f) => String(f.name)))
      expect(input.additionalProperties, op.path).toBe(false)
      for (const object of objects(input)) {
        for (const key of ["$ref", "$id", "$defs", "$schema"]) expect(Object.keys(object), op.path).not.toContain(key)
      }
    }
    const count = (JsonSchema.input(Operations.bots.get).properties as any).count
    expect(count).toMatchObject({ type: "integer", minimum: 1, maximum: Page.maxCount, default: Page.defaultCount })
    expect(JsonSchema.input(Operations.users.me)).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false
    })
  })

  it("C7 what the contract encodes is valid, a misspelt name or a value the contract refuses is not", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true })
    for (const op of Operations.documented) {
      const validate = ajv.compile(JsonSchema.input(op))
      for (const params of encodedSamples(op)) {
        expect(validate(params), `${op.path} ${JSON.stringify(params)}`).toBe(true)
      }
      expect(validate({ ...encodedSamples(op)[0] as object, misspelt: 1 }), op.path).toBe(false)
    }
    const create = ajv.compile(JsonSchema.input(Operations.vars.create))
    const valid = { group_id: 1, channel: "vk", title: "Город", name: "city" }
    expect(create(valid)).toBe(true)
    expect(create({ ...valid, channel: "XX" })).toBe(false)
    expect(create({ ...valid, name: "x".repeat(121) })).toBe(false)
  })
})

describe("the input schema with references (the OpenAPI document's)", () => {
  it("named schemas are references into the definitions, other properties are allowed", () => {
    const references: JsonSchema.References = { definitions: {}, path: "#/components/schemas/" }
    const input = JsonSchema.input(Operations.bots.enable, { references, otherProperties: true })
    expect(input).toMatchObject({
      type: "object",
      required: ["bot_id"],
      properties: { bot_id: { $ref: "#/components/schemas/BotId" } },
      additionalProperties: true
    })
    const definitions = JsonSchema.definitionsOf(references)
    expect(definitions.BotId).toMatchObject({ type: "string", pattern: "^[0-9a-f]{24}$" })
    for (const object of objects(definitions)) expect(Object.keys(object)).not.toContain("$id")
  })

  it("the same parameters as standing alone, and the same values valid", () => {
    const references: JsonSchema.References = { definitions: {}, path: "#/$defs/" }
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    for (const op of Operations.documented) {
      const referenced = JsonSchema.input(op, { references, otherProperties: true })
      const alone = JsonSchema.input(op)
      expect(Object.keys(referenced.properties as object), op.path).toEqual(Object.keys(alone.properties as object))
      expect(referenced.required, op.path).toEqual(alone.required)
      const validate = ajv.compile({ ...referenced, $defs: JsonSchema.definitionsOf(references) })
      for (const params of encodedSamples(op)) expect(validate(params), op.path).toBe(true)
      expect(validate({ ...encodedSamples(op)[0] as object, other: 1 }), op.path).toBe(true)
    }
  })

  it("the payload of an operation listed without its parameters is a reference to one free-form object", () => {
    const references: JsonSchema.References = { definitions: {}, path: "#/components/schemas/" }
    const free = Operations.undocumented.find((op) => op.payload === Operation.UnknownPayload)!
    expect(JsonSchema.input(free, { references })).toEqual({ $ref: "#/components/schemas/UnknownPayload" })
    expect(JsonSchema.definitionsOf(references).UnknownPayload).toMatchObject({ type: "object" })
  })
})
