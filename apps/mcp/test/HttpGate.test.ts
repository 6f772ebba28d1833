import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as HttpGate from "../src/HttpGate.js"

const loopback: HttpGate.Listening = { host: "127.0.0.1", port: 8765, allowedOrigins: [] }

describe("the HTTP gate", () => {
  it("takes the secret only as a bearer header with exactly that value", () => {
    expect(HttpGate.authorized("Bearer s3cret-value", "s3cret-value")).toBe(true)
    expect(HttpGate.authorized("bearer s3cret-value", "s3cret-value")).toBe(true)
    expect(HttpGate.authorized("Bearer s3cret-valuE", "s3cret-value")).toBe(false)
    expect(HttpGate.authorized("Bearer s3cret", "s3cret-value")).toBe(false)
    expect(HttpGate.authorized("Basic s3cret-value", "s3cret-value")).toBe(false)
    expect(HttpGate.authorized(undefined, "s3cret-value")).toBe(false)
    expect(HttpGate.authorized("Bearer ", "")).toBe(false)
  })

  it("an Origin passes when absent, the server's own or allowed; a foreign one does not", () => {
    expect(HttpGate.originAllowed(undefined, loopback)).toBe(true)
    expect(HttpGate.originAllowed("http://localhost:8765", loopback)).toBe(true)
    expect(HttpGate.originAllowed("http://127.0.0.1:8765", loopback)).toBe(true)
    expect(HttpGate.originAllowed("http://evil.example", loopback)).toBe(false)
    expect(HttpGate.originAllowed("http://localhost:9999", loopback)).toBe(false)
    expect(HttpGate.originAllowed("https://app.example", { ...loopback, allowedOrigins: ["https://app.example"] }))
      .toBe(true)
  })

  it("on loopback the Host must be a loopback name with the port (DNS rebinding)", () => {
    expect(HttpGate.hostAllowed("127.0.0.1:8765", loopback)).toBe(true)
    expect(HttpGate.hostAllowed("localhost:8765", loopback)).toBe(true)
    expect(HttpGate.hostAllowed("evil.example:8765", loopback)).toBe(false)
    expect(HttpGate.hostAllowed(undefined, loopback)).toBe(false)
    expect(HttpGate.hostAllowed("mcp.internal:8765", { ...loopback, host: "0.0.0.0" })).toBe(true)
  })

  it("knows loopback hosts", () => {
    expect(["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"].every(HttpGate.isLoopback)).toBe(true)
    expect(["0.0.0.0", "192.168.1.2", "example.com", "::"].some(HttpGate.isLoopback)).toBe(false)
  })

  it("on loopback the server's own names include [::1], and an IPv6 host is written in brackets", () => {
    expect(HttpGate.urlHost("::1")).toBe("[::1]")
    expect(HttpGate.urlHost("[::1]")).toBe("[::1]")
    expect(HttpGate.urlHost("127.0.0.1")).toBe("127.0.0.1")
    const ipv6: HttpGate.Listening = { host: "::1", port: 8765, allowedOrigins: [] }
    expect(HttpGate.hostAllowed("[::1]:8765", ipv6)).toBe(true)
    expect(HttpGate.hostAllowed("::1:8765", ipv6)).toBe(false)
    expect(HttpGate.originAllowed("http://[::1]:8765", ipv6)).toBe(true)
    expect(HttpGate.hostsOf(loopback)).toEqual(["127.0.0.1:8765", "localhost:8765", "[::1]:8765"])
  })

  it("the origins taken are the server's own addresses and the allowed ones, as the SDK gets them too", () => {
    const listening = { ...loopback, allowedOrigins: ["https://app.example"] }
    expect(HttpGate.originsOf(listening)).toEqual([
      "http://127.0.0.1:8765",
      "http://localhost:8765",
      "http://[::1]:8765",
      "https://app.example"
    ])
    const wide: HttpGate.Listening = { host: "0.0.0.0", port: 80, allowedOrigins: [] }
    expect(HttpGate.originsOf(wide)).toEqual(["http://0.0.0.0:80"])
    expect(HttpGate.originAllowed("http://localhost:80", wide)).toBe(false)
  })

  it("allowed origins are read from the environment, separated by commas", () => {
    expect(HttpGate.allowedOriginsOf({})).toEqual([])
    expect(HttpGate.allowedOriginsOf({ [HttpGate.allowedOriginsVariable]: " https://a.example , ,https://b.example" }))
      .toEqual(["https://a.example", "https://b.example"])
  })
})

describe("the secret of the environment", () => {
  const folder = mkdtempSync(join(tmpdir(), "mcp-secret-"))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  const file = (name: string, content: string) => {
    const path = join(folder, name)
    writeFileSync(path, content)
    return path
  }
  const invalid = (secret: HttpGate.Secret) => (secret._tag === "Invalid" ? secret.message : undefined)

  it("none when neither variable is set, or the variable is empty", () => {
    expect(HttpGate.secretOf({})).toEqual({ _tag: "None" })
    expect(HttpGate.secretOf({ [HttpGate.secretVariable]: "" })).toEqual({ _tag: "None" })
  })

  it("the variable's value as it is", () => {
    expect(HttpGate.secretOf({ [HttpGate.secretVariable]: "s3cret-value" })).toEqual({
      _tag: "Secret",
      value: "s3cret-value"
    })
  })

  it("a file's content without its trailing newline", () => {
    for (const [name, content] of [["lf", "s3cret-value\n"], ["crlf", "s3cret-value\r\n"], ["bare", "s3cret-value"]]) {
      expect(HttpGate.secretOf({ [HttpGate.secretFileVariable]: file(name!, content!) })).toEqual({
        _tag: "Secret",
        value: "s3cret-value"
      })
    }
  })

  it("a file that cannot be read, or holds nothing: one line naming the variable and the cause", () => {
    const missing = invalid(HttpGate.secretOf({ [HttpGate.secretFileVariable]: join(folder, "missing") }))
    expect(missing).toContain(HttpGate.secretFileVariable)
    expect(missing).toContain("ENOENT")
    expect(missing).not.toContain("\n")
    const empty = invalid(HttpGate.secretOf({ [HttpGate.secretFileVariable]: file("empty", "\n") }))
    expect(empty).toContain("holds no secret")
  })

  it("both variables, or a secret that cannot travel in a header: refused without showing the secret", () => {
    const both = invalid(
      HttpGate.secretOf({ [HttpGate.secretVariable]: "s3cret-value", [HttpGate.secretFileVariable]: file("b", "x") })
    )
    expect(both).toContain("not both")
    expect(both).not.toContain("s3cret-value")
    for (const secret of ["two words", "tab\tinside", "ünïcode", "line\nbreak"]) {
      const message = invalid(HttpGate.secretOf({ [HttpGate.secretVariable]: secret }))
      expect(message).toContain("printable ASCII")
      expect(message).not.toContain(secret)
    }
  })
})
