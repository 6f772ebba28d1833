/**
 * The server under any line a peer may write: each gets the answer JSON-RPC asks for, or none where
 * it asks for none, and the server goes on. Standard output carries JSON-RPC only, and the end of
 * standard input ends the server, calls in flight or not.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as LineTransport from "../src/LineTransport.js"
import { timeout } from "./support/Mcp.js"
import * as Raw from "./support/Raw.js"

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" })

describe("one server under raw lines", () => {
  let server: ReturnType<typeof Raw.start>
  beforeAll(async () => {
    server = Raw.start()
    await server.initialize()
  }, timeout)
  afterAll(() => {
    server.kill()
  })

  it("a line that is not JSON gets a parse error with no id, and the next request is answered", async () => {
    const after = server.messages.length
    await server.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\n")
    const refused = await server.answer(null, after)
    expect(refused.error?.code).toBe(-32700)
    expect(await server.request(2, "ping")).toMatchObject({ id: 2, result: {} })
  }, timeout)

  it("JSON that is not a message gets an invalid request, with the request's id when it has one", async () => {
    for (const line of ["[]", "42", "{\"foo\":1}", "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}]"]) {
      const after = server.messages.length
      await server.write(`${line}\n`)
      expect((await server.answer(null, after)).error?.code, line).toBe(-32600)
    }
    const after = server.messages.length
    await server.write("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":5}\n")
    expect((await server.answer(7, after)).error?.code).toBe(-32600)
  }, timeout)

  it("an unknown method gets method-not-found with the request's id; as a notification, nothing", async () => {
    const unknown = await server.request(3000, "frobnicate/now")
    expect(unknown.error?.code).toBe(-32601)
    const after = server.messages.length
    await server.send({ jsonrpc: "2.0", method: "frobnicate/later" })
    await server.send(ping(3001))
    const next = await server.next(() => true, after)
    expect(next).toMatchObject({ id: 3001, result: {} })
  }, timeout)

  it("a line of exactly the bound is read; one byte more is refused unread, and the server goes on", async () => {
    const head = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"_meta\":{\"pad\":\""
    const tail = "\"}}}"
    const exact = head + "x".repeat(LineTransport.maxLineBytes - head.length - tail.length) + tail
    expect(Buffer.byteLength(exact)).toBe(LineTransport.maxLineBytes)
    await server.write(`${exact}\n`)
    expect(await server.answer(9)).toMatchObject({ id: 9, result: {} })
    const after = server.messages.length
    const over = exact.replace("\"id\":9", "\"id\":10").slice(0, -tail.length) + "x" + tail
    await server.write(`${over}\n`)
    expect((await server.answer(null, after)).error?.code).toBe(-32600)
    expect(server.messages.some((message) => message.id === 10)).toBe(false)
    expect(await server.request(11, "ping")).toMatchObject({ id: 11, result: {} })
  }, timeout)

  it("a line of 128 MiB is never held: the server's peak memory grows by much less than the line", async () => {
    const before = await Raw.peakMemory(server.child.pid!)
    const chunk = "y".repeat(64 * 1024)
    const after = server.messages.length
    for (let written = 0; written < 128 * 1024 * 1024; written += chunk.length) await server.write(chunk)
    await server.write("\n")
    expect((await server.answer(null, after)).error?.code).toBe(-32600)
    const grown = (await Raw.peakMemory(server.child.pid!)) - before
    // Holding the line would take at least its 128 MiB (twice that as a string).
    expect(grown).toBeLessThan(64 * 1024 * 1024)
    expect(await server.request(12, "ping")).toMatchObject({ id: 12, result: {} })
  }, timeout)

  it("standard output carries JSON-RPC 2.0 messages only", () => {
    expect(server.strays).toEqual([])
  })
})

describe("protocol versions", () => {
  for (
    const [asked, answered] of [["2025-06-18", "2025-06-18"], ["2025-11-25", "2025-11-25"], [
      "2099-01-01",
      "2025-11-25"
    ]]
  ) {
    it(`initialize asking ${asked} is answered with ${answered}`, async () => {
      const server = Raw.start()
      try {
        const initialized = await server.initialize(asked)
        expect(initialized.result?.protocolVersion).toBe(answered)
      } finally {
        server.kill()
      }
    }, timeout)
  }
})

/** An API that takes requests and never answers them: a call to it stays in flight. */
const silentApi = () => {
  const sockets = new Set<import("node:net").Socket>()
  let requests = 0
  let closedSockets = 0
  const waiters = new Set<() => void>()
  const api = Http.createServer(() => {
    requests++
    for (const wake of waiters) wake()
  })
  api.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => {
      closedSockets++
      for (const wake of waiters) wake()
    })
  })
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!condition()) return
        waiters.delete(check)
        clearTimeout(guard)
        resolve()
      }
      const guard = setTimeout(() => reject(new Error("the API never saw it")), timeout)
      waiters.add(check)
      check()
    })
  beforeAll(() => new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve)))
  afterAll(() => {
    for (const socket of sockets) socket.destroy()
    return new Promise<void>((resolve) => api.close(() => resolve()))
  })
  return {
    env: () => ({
      COMMUNITY_API_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}/external-api/v2`,
      COMMUNITY_API_TOKEN: "thp_raw_lines_test_token_0000000000"
    }),
    requested: (count: number) => until(() => requests >= count),
    socketClosed: (count: number) => until(() => closedSockets >= count)
  }
}

describe("calls in flight", () => {
  const api = silentApi()

  it("a cancelled call is interrupted (its request to the API goes away) and never answered", async () => {
    const server = Raw.start(api.env())
    try {
      await server.initialize()
      await server.send({ jsonrpc: "2.0", id: 41, method: "tools/call", params: { name: "users_me", arguments: {} } })
      await api.requested(1)
      await server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 41 } })
      await api.socketClosed(1)
      expect(await server.request(42, "ping")).toMatchObject({ id: 42, result: {} })
      expect(server.messages.some((message) => message.id === 41)).toBe(false)
      expect(server.strays).toEqual([])
    } finally {
      server.kill()
    }
  }, timeout)

  it("standard input closed with a call in flight: the call is interrupted and the server exits 0", async () => {
    const server = Raw.start(api.env())
    await server.initialize()
    await server.send({ jsonrpc: "2.0", id: 51, method: "tools/call", params: { name: "users_me", arguments: {} } })
    await api.requested(2)
    await server.end()
    expect(await server.exited).toBe(0)
    expect(server.messages.some((message) => message.id === 51)).toBe(false)
  }, timeout)

  it("standard input closed with nothing in flight: the server exits 0", async () => {
    const server = Raw.start()
    await server.initialize()
    await server.end()
    expect(await server.exited).toBe(0)
    expect(server.strays).toEqual([])
  }, timeout)
})
