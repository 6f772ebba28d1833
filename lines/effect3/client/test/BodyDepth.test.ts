/**
 * The depth check on a body's text (C5) jumps over strings with a native search: it must count
 * exactly what a character-by-character reading counts, escaped quotes and backslash runs included.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Body from "../src/internal/body.js"

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
      fc.array(fc.constantFrom("[", "]", "{", "}", "\"", "\\", "a", ","), { maxLength: 300 }),
      fc.integer({ min: 0, max: 12 })
    ],
    ([chars, max]) => {
      const text = chars.join("")
      expect(Body.nestsDeeperThan(text, max)).toBe(reference(text, max))
    },
    { fastCheck: { numRuns: 5_000, seed: 20261123 } }
  )

  it("C5 brackets in strings after escaped quotes and backslash runs are not depth", () => {
    const deep = "[".repeat(300)
    expect(Body.nestsDeeperThan(`["\\"${deep}"]`, 256)).toBe(false)
    expect(Body.nestsDeeperThan(`["\\\\\\"${deep}"]`, 256)).toBe(false)
    expect(Body.nestsDeeperThan(`["\\\\"${deep}`, 256)).toBe(true)
    expect(Body.nestsDeeperThan(`{"a":"${"\\".repeat(10_000)}", "b":${deep}`, 256)).toBe(true)
  })
})
