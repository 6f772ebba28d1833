/**
 * The depth check on a body's text (C5, `JsonBody.nestsDeeperThan`, which both lines' body reading
 * calls) jumps over strings with a native search: it must count exactly what a character-by-character
 * reading counts, escaped quotes and backslash runs included.
 */
import { describe, expect, it } from "vitest"
import * as JsonBody from "../src/JsonBody.js"
import * as SeededRandom from "../src/SeededRandom.js"

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

const characters = ["[", "]", "{", "}", "\"", "\\", "a", ","]

describe("the depth of a body", () => {
  it("C5 counts what a reading character by character counts, whatever the quotes and backslashes", () => {
    const random = SeededRandom.make(20261123)
    const below = (n: number) => Math.floor(random() * n)
    for (let run = 0; run < 5_000; run++) {
      const text = Array.from({ length: below(301) }, () => characters[below(characters.length)]).join("")
      const max = below(13)
      expect(JsonBody.nestsDeeperThan(text, max), JSON.stringify({ text, max })).toBe(reference(text, max))
    }
  })

  it("C5 brackets in strings after escaped quotes and backslash runs are not depth", () => {
    const deep = "[".repeat(300)
    expect(JsonBody.nestsDeeperThan(`["\\"${deep}"]`, 256)).toBe(false)
    expect(JsonBody.nestsDeeperThan(`["\\\\\\"${deep}"]`, 256)).toBe(false)
    expect(JsonBody.nestsDeeperThan(`["\\\\"${deep}`, 256)).toBe(true)
    expect(JsonBody.nestsDeeperThan(`{"a":"${"\\".repeat(10_000)}", "b":${deep}`, 256)).toBe(true)
  })
})
