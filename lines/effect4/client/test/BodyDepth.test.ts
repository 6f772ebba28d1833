/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * The depth check on a body's text (C5) jumps over strings with a native search: it must count
 * exactly what a character-by-character reading counts, escaped quotes and backslash runs included.
 * The check is the core's (`JsonBody.nestsDeeperThan`), which this line's body reading calls.
 */
import * as JsonBody from "@community-api/core/JsonBody"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"

/** The plain reading: every character, a backslash inside a string skipping the next one. */
const reference = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === "\\") i++
      else if (c === "\"") inString = false
    } else if (c === "\"") {
      inString = true
    } else if (c === "{" || c === "[") {
      if (++depth > max) return true
    } else if (c === "}" || c === "]") {
      depth--
    }
  }
  return false
}

describe("the depth of a body", () => {
  it.prop(
    "C5 counts what a reading character by character counts, whatever the quotes and backslashes",
    [
      Schema.Array(Schema.Literals(["[", "]", "{", "}", "\"", "\\", "a", ","])).check(Schema.isMaxLength(300)),
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 12 }))
    ],
    ([chars, max]) => {
      const text = chars.join("")
      expect(JsonBody.nestsDeeperThan(text, max)).toBe(reference(text, max))
    },
    { arbitrary: { runs: 5_000, seed: 20261123 } }
  )

  it("C5 brackets in strings after escaped quotes and backslash runs are not depth", () => {
    const deep = "[".repeat(300)
    expect(JsonBody.nestsDeeperThan(`["\\"${deep}"]`, 256)).toBe(false)
    expect(JsonBody.nestsDeeperThan(`["\\\\\\"${deep}"]`, 256)).toBe(false)
    expect(JsonBody.nestsDeeperThan(`["\\\\"${deep}`, 256)).toBe(true)
    expect(JsonBody.nestsDeeperThan(`{"a":"${"\\".repeat(10_000)}", "b":${deep}`, 256)).toBe(true)
  })
})
