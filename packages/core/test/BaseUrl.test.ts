/**
 * The base URL rule both lines' clients apply: absolute, no credentials, no query string, trailing
 * slashes dropped; a refusal never repeats the input.
 */
import { describe, expect, it } from "vitest"
import * as BaseUrl from "../src/BaseUrl.js"

describe("BaseUrl", () => {
  it("an absolute URL is the base URL without its trailing slashes", () => {
    expect(BaseUrl.read("https://host/external-api/v2//")).toEqual({
      _tag: "Valid",
      url: "https://host/external-api/v2"
    })
    expect(BaseUrl.read(new URL("http://127.0.0.1:8080/external-api/v2"))).toEqual({
      _tag: "Valid",
      url: "http://127.0.0.1:8080/external-api/v2"
    })
    expect(BaseUrl.problem("https://host/external-api/v2")).toBeUndefined()
  })

  it("no URL, credentials or a query string are refused, and the reason never holds the input", () => {
    const cases = [
      ["not a url", "not an absolute URL"],
      ["/external-api/v2", "not an absolute URL"],
      ["https://user:secret@host/external-api/v2", "carries credentials"],
      ["https://user@host/external-api/v2", "carries credentials"],
      ["https://host/external-api/v2?api_key=secret", "carries a query string"]
    ] as const
    for (const [input, why] of cases) {
      const read = BaseUrl.read(input)
      expect(read._tag, input).toBe("Refused")
      const reason = BaseUrl.problem(input)
      expect(reason, input).toContain(why)
      expect(reason, input).not.toContain("secret")
      expect(reason, input).not.toContain("user")
    }
  })
})
