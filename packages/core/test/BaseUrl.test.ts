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

  it("a URL with no path, the service's address alone, is refused with the same URL and the API's path", () => {
    for (const input of ["http://127.0.0.1:35323", "http://127.0.0.1:35323/", "https://example.org//"]) {
      const read = BaseUrl.read(input)
      expect(read._tag, input).toBe("Refused")
    }
    expect(BaseUrl.problem("http://127.0.0.1:35323")).toBe(
      "it has no path: the API's base URL ends with /external-api/v2 (http://127.0.0.1:35323/external-api/v2)"
    )
    // Any other path is taken as given: a gateway's, or a test server's.
    for (const input of ["http://127.0.0.1:9/v2", "https://gateway.example/community/api"]) {
      expect(BaseUrl.read(input)._tag, input).toBe("Valid")
    }
  })
})
