import { describe, expect, it } from "vitest"
import * as ParameterWords from "../src/ParameterWords.js"
import * as Wire from "../src/Wire.js"
import * as WireJsonSchema from "../src/WireJsonSchema.js"

describe("ParameterWords", () => {
  it("C7 a channel takes its six values in any letter case, said as such", () => {
    const words = ParameterWords.of("channel", WireJsonSchema.channel)
    expect(words.expected).toBe("one of VK, TG, OK, MAX, CHAT or AVITO, any case")
    expect(words.allowed).toEqual({ values: [...Wire.channels], anyCase: true })
    expect(ParameterWords.refused(words, "vkontakte")).toBe(
      "\"vkontakte\" is not one of VK, TG, OK, MAX, CHAT or AVITO, any case"
    )
  })

  it("C13 a page's count: its range, its default, and a larger value replaced rather than refused", () => {
    const words = ParameterWords.of("count", WireJsonSchema.count)
    expect(words.text).toBe("integer 1..500, default 100, a larger value is replaced by 500")
    expect(ParameterWords.refused(words, "ten")).toBe("\"ten\" is not an integer 1..500")
    expect(ParameterWords.refused(words, 0, ["count is at least 1"])).toBe("0 is refused: count is at least 1")
  })

  it("C10 an object id in words, not as its pattern", () => {
    const words = ParameterWords.of("bot_id", { type: "string", pattern: Wire.objectIdPattern.source })
    expect(words.expected).toBe("24 characters of 0-9 and a-f")
    expect(ParameterWords.missing(words)).toBe("is missing: give 24 characters of 0-9 and a-f")
  })

  it("a few integer literals, a bounded text with characters it refuses, an integer without bounds", () => {
    expect(ParameterWords.of("active", WireJsonSchema.intLiteral([0, 1])).expected).toBe("0 or 1")
    expect(ParameterWords.of("status", WireJsonSchema.intLiteral([0, 1, 2])).expected).toBe("one of 0, 1 or 2")
    const name = ParameterWords.of("name", {
      type: "string",
      description: "a string at most 120 character(s) long",
      minLength: 1,
      maxLength: 120,
      pattern: "^[^.{}]*$"
    })
    expect(name.text).toBe("text of 1 to 120 characters, none of . { }")
    expect(ParameterWords.of("group_id", WireJsonSchema.int).expected).toBe("an integer")
  })

  it("every parameter of a payload's schema, by name; a name that is none is told the names there are", () => {
    const words = ParameterWords.ofPayload({
      type: "object",
      properties: { group_id: WireJsonSchema.int, channel: WireJsonSchema.channel }
    })
    expect([...words.keys()]).toEqual(["group_id", "channel"])
    expect(ParameterWords.notAParameter(["group_id", "channel"])).toBe(
      "is not a parameter; the parameters are group_id and channel"
    )
    expect(ParameterWords.quote("x".repeat(50))).toBe(JSON.stringify(`${"x".repeat(40)}…`))
  })

  it("C7 a refused payload in words, or in the schema library's own when its JSON Schema cannot be had", () => {
    const schema = { type: "object", properties: { channel: WireJsonSchema.channel }, required: ["channel"] }
    const failures = [{ path: ["channel"], message: "Expected a channel" }]
    const read = { schema: () => schema, failures: () => failures, otherwise: () => "the library's words" }
    expect(ParameterWords.encodeReason({ channel: "vkontakte" }, read)).toBe(
      "channel: \"vkontakte\" is not one of VK, TG, OK, MAX, CHAT or AVITO, any case"
    )
    const undescribed = () => {
      throw new Error("no JSON Schema for a declaration")
    }
    expect(ParameterWords.encodeReason({}, { ...read, schema: undescribed })).toBe("the library's words")
  })
})
