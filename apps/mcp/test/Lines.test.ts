import { describe, expect, it } from "vitest"
import { LineSplitter } from "../src/internal/lines.js"

const bytes = (text: string) => Buffer.from(text, "utf8")

describe("lines held to a bound", () => {
  it("splits lines across chunks, a multibyte character across two chunks included", () => {
    const splitter = new LineSplitter(64)
    const all = bytes("{\"a\":1}\nпри")
    const lines = [
      ...splitter.push(all.subarray(0, 10)),
      ...splitter.push(all.subarray(10)),
      ...splitter.push(bytes("вет\n\n"))
    ]
    expect(lines).toEqual([
      { _tag: "Line", text: "{\"a\":1}" },
      { _tag: "Line", text: "привет" },
      { _tag: "Line", text: "" }
    ])
    expect(splitter.bufferedBytes).toBe(0)
  })

  it("a line over the bound is counted, not held, and the next line is read as usual", () => {
    const splitter = new LineSplitter(10)
    const lines = [...splitter.push(bytes("0123456789")), ...splitter.push(bytes("abc"))]
    expect(lines).toEqual([])
    expect(splitter.bufferedBytes).toBe(0)
    for (let i = 0; i < 100; i++) splitter.push(bytes("x".repeat(1000)))
    expect(splitter.bufferedBytes).toBe(0)
    expect(splitter.push(bytes("yz\nok\n"))).toEqual([
      { _tag: "TooLong", bytes: 10 + 3 + 100_000 + 2 },
      { _tag: "Line", text: "ok" }
    ])
  })

  it("a line of exactly the bound is read", () => {
    const splitter = new LineSplitter(10)
    expect(splitter.push(bytes("0123456789\n"))).toEqual([{ _tag: "Line", text: "0123456789" }])
  })

  it("the end of the input gives a last line without a newline, and nothing when there is none", () => {
    const splitter = new LineSplitter(10)
    splitter.push(bytes("a\nlast"))
    expect(splitter.end()).toEqual([{ _tag: "Line", text: "last" }])
    expect(splitter.end()).toEqual([])
  })
})
