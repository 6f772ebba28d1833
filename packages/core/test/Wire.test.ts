/**
 * The wire's primitives as plain rules, which both Effect lines' schemas read: request dates in
 * Moscow time, unix seconds, the channels in any letter case, the forbidden parts of a name.
 */
import { describe, expect, it } from "vitest"
import * as Wire from "../src/Wire.js"

describe("Wire", () => {
  it("C11 a request date is dd.mm.yyyy hh:ii in Moscow time (UTC+3), and back", () => {
    const parsed = Wire.parseRequestDate("04.06.2025 12:30")
    expect(parsed).toEqual({ _tag: "Date", millis: Date.UTC(2025, 5, 4, 9, 30) })
    expect(Wire.formatRequestDate(Date.UTC(2025, 5, 4, 9, 30, 59))).toBe("04.06.2025 12:30")
    expect(Wire.formatRequestDate(Date.UTC(2025, 11, 31, 21, 0))).toBe("01.01.2026 00:00")
  })

  it("C11 a request date that is no date is refused in words", () => {
    expect(Wire.parseRequestDate("2025-06-04 12:30")).toEqual({
      _tag: "Refused",
      message: "a date is written dd.mm.yyyy hh:ii, got \"2025-06-04 12:30\""
    })
    for (const text of ["31.02.2025 10:00", "01.01.2025 24:00", "01.01.2025 10:60", "00.01.2025 10:00"]) {
      expect(Wire.parseRequestDate(text)).toEqual({ _tag: "Refused", message: `no such date: "${text}"` })
    }
  })

  it("C11 unix seconds beyond the range of dates are refused", () => {
    expect(Wire.unixSecondsRefusal(1_700_000_000)).toBeUndefined()
    expect(Wire.unixSecondsRefusal(-8.64e12)).toBeUndefined()
    expect(Wire.unixSecondsRefusal(8.64e12 + 1)).toBe(`${8.64e12 + 1} is not a unix time`)
  })

  it("C7 a channel in any letter case, and its pattern for JSON Schema readers says the same", () => {
    const pattern = new RegExp(Wire.channelPattern)
    for (const channel of Wire.channels) {
      for (const form of [channel, channel.toLowerCase(), channel[0] + channel.slice(1).toLowerCase()]) {
        expect(Wire.isChannel(form)).toBe(true)
        expect(pattern.test(form)).toBe(true)
      }
    }
    for (const other of ["ICQ", "V K", "", "VKK"]) {
      expect(Wire.isChannel(other)).toBe(false)
      expect(pattern.test(other)).toBe(false)
    }
  })

  it("E11 a name holds none of the forbidden characters and not the forbidden sequence", () => {
    expect(Wire.forbiddenInName("coffee_points")).toBeUndefined()
    for (const char of Wire.forbiddenNameCharacters) expect(Wire.forbiddenInName(`a${char}b`)).toBe(char)
    expect(Wire.forbiddenInName("MY_NAME")).toBe(Wire.forbiddenNameSequence)
    const pattern = new RegExp(Wire.nameJsonSchema.pattern)
    expect(pattern.test("coffee_points")).toBe(true)
    for (const char of Wire.forbiddenNameCharacters) expect(pattern.test(`a${char}b`)).toBe(false)
  })

  it("C9 C13 the integers of the wire: 1 to 16 digits with an optional minus sign", () => {
    for (const text of ["0", "-1", "1234567890123456"]) expect(Wire.intDigits.test(text)).toBe(true)
    for (const text of ["", "1.5", "12345678901234567", "+1", " 1"]) expect(Wire.intDigits.test(text)).toBe(false)
  })
})
