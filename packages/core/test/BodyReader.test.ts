/**
 * The body read within the client's bound (`BodyReader`), sans I/O: bytes in, when to stop and the
 * text out, with the words of each failure.
 */
import { describe, expect, it } from "vitest"
import * as BodyReader from "../src/BodyReader.js"
import * as JsonBody from "../src/JsonBody.js"

const bytes = (text: string) => new TextEncoder().encode(text)

describe("BodyReader", () => {
  it("a plain body of a declared length within the bound is read whole by the transport", () => {
    expect(BodyReader.make({ "content-length": "10" }, 100).whole).toBe(true)
    expect(BodyReader.make({ "content-length": "10", "content-encoding": "gzip" }, 100).whole).toBe(false)
    expect(BodyReader.make({}, 100).whole).toBe(false)
    const reader = BodyReader.make({ "content-length": "10" }, 100)
    expect(reader.brokeOff(new Error("reset"))).toBe("the answer broke off before its declared 10 bytes: reset")
  })

  it("a streamed body is counted as it arrives, decoded across chunks, and stopped past the bound", () => {
    const reader = BodyReader.make({}, 8)
    const euro = bytes("€")
    expect(reader.push(bytes("ab"))).toBe(true)
    expect(reader.push(euro.slice(0, 1))).toBe(true)
    expect(reader.push(euro.slice(1))).toBe(true)
    expect(reader.text()).toBe("ab€")
    expect(reader.push(bytes("xyzw"))).toBe(false)
    expect(reader.tooLarge).toBe(JsonBody.tooLarge(8))
    expect(reader.limitBytes).toBe(8)
  })

  it("a body declared past the bound stops at its first bytes", () => {
    const reader = BodyReader.make({ "content-length": "100", "transfer-encoding": "chunked" }, 8)
    expect(reader.push(bytes("a"))).toBe(false)
  })

  it("X1 a body that breaks off says how much came", () => {
    const reader = BodyReader.make({}, 100)
    reader.push(bytes("abc"))
    expect(reader.brokeOff(new Error("socket hang up"))).toBe("the answer broke off after 3 bytes: socket hang up")
    expect(reader.brokeOff(undefined)).toBe("the answer broke off after 3 bytes")
  })
})
