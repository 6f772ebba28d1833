import { describe, expect, it } from "@effect/vitest"
import { ApiError, Operations } from "../src/index.js"
import * as Reference from "./support/Reference.js"

const specCodes = Reference.tableRows(Reference.section("Errors")).map((row) => Number(row[0]))

describe("error codes", () => {
  it("X1 the documented codes are exactly the spec's error table", () => {
    expect([...ApiError.errorCodes]).toStrictEqual(specCodes)
    expect(Object.keys(ApiError.byCode).map(Number).sort((a, b) => a - b)).toStrictEqual(specCodes)
    expect(Object.keys(ApiError.classification).map(Number).sort((a, b) => a - b)).toStrictEqual(specCodes)
  })

  for (const code of ApiError.errorCodes) {
    it(`X1 code ${code} decodes to its tagged error with code, text and operation`, () => {
      const error = ApiError.fromWire({ error_code: code, error: "Ошибка" }, "vars/create")
      expect(error).toBeInstanceOf(ApiError.byCode[code])
      expect(error._tag).toBe(ApiError.byCode[code].name)
      expect({ code: error.code, text: error.text, operation: error.operation }).toStrictEqual({
        code,
        text: "Ошибка",
        operation: "vars/create"
      })
      expect(error.message).toBe(`vars/create failed with error ${code}: Ошибка`)
      expect(ApiError.make(code, "Ошибка", "vars/create")).toStrictEqual(error)
    })
  }

  it("X1 every tagged error has its own tag", () => {
    const tags = ApiError.errorCodes.map((code) => ApiError.byCode[code].name)
    expect(new Set(tags).size).toBe(tags.length)
  })

  it("X1 a code outside the operation's errorCodes gives UnexpectedApiError", () => {
    for (const op of Operations.all) {
      for (const code of ApiError.errorCodes.filter((c) => !(op.errorCodes as ReadonlyArray<number>).includes(c))) {
        const error = ApiError.fromWire({ error_code: code, error: "x" }, op.path, op.errorCodes)
        expect(error).toBeInstanceOf(ApiError.UnexpectedApiError)
        expect(error.code).toBe(code)
      }
    }
  })

  it("X1 an unknown code (42) gives UnexpectedApiError keeping code, text and operation", () => {
    const error = ApiError.fromWire({ error_code: 42, error: "что-то" }, "users/me")
    expect(error).toBeInstanceOf(ApiError.UnexpectedApiError)
    expect({ tag: error._tag, code: error.code, text: error.text, operation: error.operation }).toStrictEqual({
      tag: "UnexpectedApiError",
      code: 42,
      text: "что-то",
      operation: "users/me"
    })
    expect(ApiError.isErrorCode(42)).toBe(false)
    expect(ApiError.kindOf(error)).toBe("final")
  })

  it("X1 A6 L1 classification: 9 transient, 5 limit, 101 ambiguous, every other code final", () => {
    const kinds = Object.fromEntries(ApiError.errorCodes.map((code) => [code, ApiError.kindOf({ code })]))
    expect(kinds).toStrictEqual({
      1: "final",
      3: "final",
      4: "final",
      5: "limit",
      6: "final",
      7: "final",
      8: "final",
      9: "transient",
      101: "ambiguous"
    })
  })

  it("X1 the meaning of each code is the spec's", () => {
    for (const row of Reference.tableRows(Reference.section("Errors"))) {
      const meaning = ApiError.classification[Number(row[0]) as ApiError.ErrorCode].meaning
      const firstWords = meaning.split(/[ ;(]/).slice(0, 2).join(" ")
      expect(row[1]!.toLowerCase()).toContain(firstWords.toLowerCase())
    }
  })

  it("X1 C5 every operation can produce the common codes 4, 5, 9 and 101, and E17 operations never 1 or 3", () => {
    for (const op of Operations.all) {
      expect(op.errorCodes).toEqual(expect.arrayContaining([4, 5, 9, 101]))
      expect(op.errorCodes).not.toContain(1)
      expect(op.errorCodes).not.toContain(3)
    }
  })
})
