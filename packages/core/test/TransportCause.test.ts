/**
 * The cause of a failed connection (`TransportCause`), read from real errors of real failed
 * connections: a closed loopback port over fetch and over node:http, a name that does not exist, a
 * TLS server with a self-signed certificate, a port fetch refuses.
 */
import type * as net from "node:net"
import * as tls from "node:tls"
import { describe, expect, it } from "vitest"
import * as TransportCause from "../src/TransportCause.js"
import { selfSigned } from "./support/Certificate.js"
import { closedPort, fetchError, httpError } from "./support/Connections.js"

describe("TransportCause", () => {
  it("a closed port over fetch: ECONNREFUSED, the address and port, and never the query", async () => {
    const port = await closedPort()
    const error = await fetchError(`http://127.0.0.1:${port}/external-api/v2/bots/get?api_key=secret`)
    expect(error).toBeInstanceOf(TypeError)
    expect(TransportCause.read(error, `http://127.0.0.1:${port}/external-api/v2/bots/get?api_key=secret`)).toEqual({
      reason: `connection refused by 127.0.0.1:${port} (ECONNREFUSED)`,
      code: "ECONNREFUSED",
      host: "127.0.0.1",
      port
    })
  })

  it("a closed port over node:http reads the same, with no URL to help", async () => {
    const port = await closedPort()
    expect(TransportCause.read(await httpError(`http://127.0.0.1:${port}/x`))).toEqual({
      reason: `connection refused by 127.0.0.1:${port} (ECONNREFUSED)`,
      code: "ECONNREFUSED",
      host: "127.0.0.1",
      port
    })
  })

  it("a name that does not exist is named, its port the URL's scheme's", async () => {
    for (const error of [await fetchError("http://nothing.invalid/x"), await httpError("http://nothing.invalid/x")]) {
      const cause = TransportCause.read(error, "http://nothing.invalid/x")
      // A resolver that cannot answer at all says EAI_AGAIN; either names the host.
      expect(["ENOTFOUND", "EAI_AGAIN"]).toContain(cause.code)
      expect(cause).toMatchObject({ host: "nothing.invalid", port: 80 })
      expect(cause.reason).toMatch(/^host nothing\.invalid (not found|could not be resolved)/)
    }
  })

  it("a self-signed certificate is a TLS failure of the URL's host and port", async () => {
    const server = tls.createServer(selfSigned(), (socket) => socket.end())
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as net.AddressInfo
    try {
      const url = `https://127.0.0.1:${port}/external-api/v2/users/me`
      expect(TransportCause.read(await fetchError(url), url)).toEqual({
        reason: `the TLS certificate of 127.0.0.1:${port} is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)`,
        code: "DEPTH_ZERO_SELF_SIGNED_CERT",
        host: "127.0.0.1",
        port
      })
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("a port fetch refuses before connecting (port 1) is named, though the chain has no code", async () => {
    const cause = TransportCause.read(await fetchError("http://127.0.0.1:1/x?q=1"), "http://127.0.0.1:1/x?q=1")
    expect(cause).toEqual({
      reason: "fetch refuses to connect to port 1 of 127.0.0.1 (a port browsers block)",
      code: undefined,
      host: "127.0.0.1",
      port: 1
    })
  })

  it("several attempts (an AggregateError) read as their first code and address", async () => {
    const port = await closedPort()
    const refused = await httpError(`http://127.0.0.1:${port}/x`)
    const cause = TransportCause.read(new TypeError("fetch failed", { cause: new AggregateError([refused, refused]) }))
    expect(cause).toMatchObject({ code: "ECONNREFUSED", host: "127.0.0.1", port })
  })

  it("a chain without code names the innermost words; a cycle ends", () => {
    const looping: Error & { cause?: unknown } = new Error("outer")
    looping.cause = new Error("other side closed", { cause: looping })
    expect(TransportCause.read(looping, "https://[::1]/x").reason)
      .toBe("connection to [::1]:443 failed: other side closed")
    expect(TransportCause.read("not an error").reason).toBe("connection to the server failed: no cause given")
  })
})
