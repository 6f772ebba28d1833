import { describe, expect, it } from "vitest"
import * as Discovery from "../src/Discovery.js"

const id = (n: number) => n.toString(16).padStart(24, "0")

describe("Discovery.infer", () => {
  it("E17: the JSON type of each value, integers apart from other numbers, both seen a number", () => {
    expect(Discovery.infer(["a", "b"])).toEqual({ type: "string" })
    expect(Discovery.infer([1, 2])).toEqual({ type: "integer" })
    expect(Discovery.infer([1, 2.5])).toEqual({ type: "number" })
    expect(Discovery.infer([true, false])).toEqual({ type: "boolean" })
    expect(Discovery.infer(["a", 2])).toEqual({ type: ["string", "integer"] })
    expect(Discovery.infer([])).toEqual({})
  })

  it("E17: null beside the other types, and alone", () => {
    expect(Discovery.infer(["a", null, "b"])).toEqual({ type: ["string", "null"] })
    expect(Discovery.infer([null])).toEqual({ type: "null" })
  })

  it("E17: a field present in every object is required, one absent from some is not", () => {
    const schema = Discovery.infer([{ id: 1, note: "x" }, { id: 2 }, { id: 3, note: null }])
    expect(schema).toEqual({
      type: "object",
      properties: { id: { type: "integer" }, note: { type: ["string", "null"] } },
      required: ["id"]
    })
  })

  it("E17: a small set of repeated values is an enum; all-different values, too many values or object ids are not", () => {
    expect(Discovery.infer(["text", "delay", "text"])).toEqual({ type: "string", enum: ["delay", "text"] })
    expect(Discovery.infer([1, 0, 1, null])).toEqual({ type: ["integer", "null"], enum: [0, 1, null] })
    // Every value differs: a name or an id, not a set.
    expect(Discovery.infer(["Alice", "Bob"])).toEqual({ type: "string" })
    // One value seen once: too few to call it a set.
    expect(Discovery.infer(["text"])).toEqual({ type: "string" })
    // More than five distinct values.
    expect(Discovery.infer(["a", "b", "c", "d", "e", "f", "a"])).toEqual({ type: "string" })
    expect(Discovery.enumRule).toEqual({ maxValues: 5, minSamples: 2 })
    // Object ids are named by their pattern, never a set.
    expect(Discovery.infer([id(1), id(1), id(2)])).toEqual({ type: "string", pattern: "^[0-9a-f]{24}$" })
    // Strings and numbers mixed make no set.
    expect(Discovery.infer(["a", 1, "a", 1])).toEqual({ type: ["string", "integer"] })
  })

  it("E17: the items of every list seen merged into one schema, nested objects inferred alike", () => {
    const schema = Discovery.infer([
      { items: [{ id: id(1), kind: "a", next: { at: 1 } }, { id: id(2), kind: "a" }], total: 2 },
      { items: [], total: 0 },
      { items: [{ id: id(3), kind: "b", next: { at: 2, why: "x" } }], total: 1 }
    ])
    expect(schema).toEqual({
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "string", pattern: "^[0-9a-f]{24}$" },
              kind: { type: "string", enum: ["a", "b"] },
              next: {
                type: "object",
                properties: { at: { type: "integer" }, why: { type: "string" } },
                required: ["at"]
              }
            },
            required: ["id", "kind"]
          }
        },
        // Three counts, all different: no set.
        total: { type: "integer" }
      },
      required: ["items", "total"]
    })
  })

  it("E17: a list only ever empty has items of no known shape", () => {
    expect(Discovery.infer([[], []])).toEqual({ type: "array", items: {} })
  })

  it("E17: the parameters: digits are the wire's integers, required when every call gave them, no set", () => {
    expect(Discovery.inferParameters([{ bot_id: id(1), group_id: "1" }, { bot_id: id(1), group_id: 1, x: "a" }]))
      .toEqual({
        type: "object",
        properties: {
          bot_id: { type: "string", pattern: "^[0-9a-f]{24}$" },
          group_id: { type: "integer" },
          x: { type: "string" }
        },
        required: ["bot_id", "group_id"]
      })
  })
})

describe("Discovery.effectSchema", () => {
  it("E17: the Effect Schema source of each kind of JSON Schema", () => {
    expect(Discovery.effectSchema({})).toBe("Schema.Unknown")
    expect(Discovery.effectSchema({ type: "integer" })).toBe("Schema.Int")
    expect(Discovery.effectSchema({ type: "integer" }, "parameter")).toBe("WireInt")
    expect(Discovery.effectSchema({ type: ["string", "null"] })).toBe("Schema.NullOr(Schema.String)")
    expect(Discovery.effectSchema({ type: ["string", "integer"] })).toBe("Schema.Union(Schema.String, Schema.Int)")
    expect(Discovery.effectSchema({ type: ["integer", "null"], enum: [0, 1, null] }))
      .toBe("Schema.NullOr(Schema.Literal(0, 1))")
    expect(Discovery.effectSchema({ type: "array", items: { type: "string", pattern: "^[0-9a-f]{24}$" } }))
      .toBe("Schema.Array(ObjectId)")
    expect(Discovery.effectSchema({ type: "object", properties: {} }))
      .toBe("Schema.Record({ key: Schema.String, value: Schema.Unknown })")
    expect(Discovery.effectSchema({
      type: "object",
      properties: {
        a: { type: "boolean" },
        "b-c": { type: "object", properties: { d: { type: "null" } }, required: ["d"] }
      },
      required: ["a"]
    })).toBe(
      [
        "Schema.Struct({",
        "  a: Schema.Boolean,",
        "  \"b-c\": Schema.optional(Schema.Struct({",
        "    d: Schema.Null",
        "  }))",
        "})"
      ].join("\n")
    )
  })
})

describe("Discovery.draft", () => {
  it("E17: a draft of the declaration: the schemas inferred, its place, the imports it needs, the entry", () => {
    const draft = Discovery.draft("bots/getSteps", [
      { params: { bot_id: id(1) }, response: [{ id: id(7), type: "text" }, { id: id(8), type: "text" }] },
      { params: { bot_id: id(2) }, response: [] }
    ])
    expect(draft.answers).toBe(2)
    expect(draft.response).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "string", pattern: "^[0-9a-f]{24}$" }, type: { type: "string", enum: ["text"] } },
        required: ["id", "type"]
      }
    })
    expect(draft.declaration).toBe([
      "// A draft of the declaration of bots/getSteps, inferred from 2 answers (community-api verify --discover).",
      "// Review it before use: a field no answer held is missing, a set of values or a type may be wider.",
      "// In lines/effect3/schema/src/operations/bots.ts it takes the place of `getSteps: {}`, with:",
      "//   import { Schema } from \"effect\"",
      "//   import { ObjectId } from \"../Ids.js\"",
      "getSteps: {",
      "  assumed: {",
      "    payload: Schema.Struct({",
      "      bot_id: ObjectId",
      "    }),",
      "    success: Schema.Array(Schema.Struct({",
      "      id: ObjectId,",
      "      type: Schema.Literal(\"text\")",
      "    })),",
      "    reason: \"Seen in 2 answers of bots/getSteps: say on which account and when.\"",
      "  }",
      "}"
    ].join("\n"))
  })

  it("E17: the same answer to other parameters is inferred from once: its values are not repeated values", () => {
    const response = [{ title: "Hello" }, { title: "Bye" }]
    const draft = Discovery.draft("bots/getSteps", [{ params: { n: 1 }, response }, { params: { n: 2 }, response }])
    expect([draft.answers, draft.distinct]).toEqual([2, 1])
    expect(draft.response).toEqual({
      type: "array",
      items: { type: "object", properties: { title: { type: "string" } }, required: ["title"] }
    })
    expect(draft.declaration).toContain("inferred from 2 answers (1 distinct)")
  })

  it("E17: answers with no response draft a void success and parameters of none", () => {
    const draft = Discovery.draft("stats/getAdsSubscribes", [{ params: {}, response: undefined }])
    expect(draft.response).toBeUndefined()
    expect(draft.declaration).toContain("    payload: Schema.Struct({}),\n    success: Schema.Void,")
    expect(draft.declaration).not.toContain("ObjectId")
  })
})
