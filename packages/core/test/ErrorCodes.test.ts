import { describe, expect, it } from "vitest"
import * as ErrorCodes from "../src/ErrorCodes.js"

describe("the error-code table", () => {
  it("X1 classifies every documented code, and only those", () => {
    expect(Object.keys(ErrorCodes.classification).map(Number).sort((a, b) => a - b)).toEqual([
      ...ErrorCodes.errorCodes
    ])
    for (const code of ErrorCodes.errorCodes) {
      expect(ErrorCodes.classification[code].meaning.length, String(code)).toBeGreaterThan(10)
    }
  })

  it("X1 A6 the codes by kind: 9 alone transient, 5 alone a limit, 101 alone ambiguous", () => {
    const byKind: Record<string, Array<number>> = {}
    for (const code of ErrorCodes.errorCodes) (byKind[ErrorCodes.kindOf({ code })] ??= []).push(code)
    expect(byKind).toEqual({ final: [1, 3, 4, 6, 7, 8], limit: [5], transient: [9], ambiguous: [101] })
  })

  it("an undocumented code is not an error code, and its kind is final", () => {
    for (const code of [0, 2, 10, 100, 102, -1, 4.5]) {
      expect(ErrorCodes.isErrorCode(code), String(code)).toBe(false)
      expect(ErrorCodes.kindOf({ code })).toBe("final")
    }
    expect(ErrorCodes.isErrorCode(101)).toBe(true)
  })

  it("L1 L2 the meaning of 5 names the limits' numbers", () => {
    expect(ErrorCodes.classification[5].meaning).toMatch(/30 per second.*20 per minute.*200 per day/)
  })

  it("the common codes are documented codes: token, rate, key check, internal", () => {
    expect(ErrorCodes.commonErrorCodes).toEqual([4, 5, 9, 101])
    for (const code of ErrorCodes.commonErrorCodes) expect(ErrorCodes.isErrorCode(code)).toBe(true)
  })
})
