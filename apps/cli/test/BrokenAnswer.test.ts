/**
 * An answer that breaks off mid-body is a transport failure: the command line, once its retries are
 * spent, exits 6 (transient, try again), as for a dropped connection, never 1 (internal error).
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"

/** A server on 127.0.0.1 that sends the headers and a part of every body, then cuts the socket. */
const breakingServer = async () => {
  let hits = 0
  const server = http.createServer((request, response) => {
    hits++
    request.resume()
    const body = JSON.stringify({ status: "ok", response: { user_id: 7, auth: "token", client_id: "x".repeat(4_000) } })
    response.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) })
    response.write(body.slice(0, 1_000), () => response.socket?.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/external-api/v2`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

describe("an answer that breaks off", () => {
  it("X1 users me exits 6 (transient) and says the answer broke off, without the token", async () => {
    const server = await breakingServer()
    try {
      const result = await InProcess.run(["users", "me", "--retries", "0"], {
        env: { COMMUNITY_API_BASE_URL: server.baseUrl, COMMUNITY_API_TOKEN: DemoFixture.tokens.owner }
      })
      expect(result.code).toBe(ExitCode.kinds.transient.code)
      expect(result.stderr).toContain("TransportError")
      expect(result.stderr).toContain("broke off")
      expect(result.stderr).not.toContain(DemoFixture.tokens.owner)
      expect(server.hits()).toBe(1)
    } finally {
      await server.close()
    }
  })
})
