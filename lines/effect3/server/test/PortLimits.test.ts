/**
 * The sandbox on a port against peers that hold connections open: sockets that send nothing, bodies
 * that stall, more connections than the cap, and bodies sent with a wrong token. Timeouts are set
 * small here, so that each wait is short; every wait is bounded well above them, and nothing is
 * asserted about how fast an answer comes, only about what the server does.
 */
import { HttpServer } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import type { Client } from "./portSupport.js"
import { allClosed, bounded, connectScoped, errorOf, okOf, port, send, write } from "./portSupport.js"

const owner = DemoFixture.tokens.owner
const me = "/external-api/v2/users/me"

const served = (options: ReferenceServer.ServeOptions = {}) =>
  Effect.provide(ReferenceServer.layerServe({ port: 0, ...options }))

/** `users/me` as the owner, on a new connection. */
const realRequest = (portNumber: number) =>
  Effect.map(send(portNumber, { path: me, headers: { authorization: `Bearer ${owner}` } }), okOf)

/** A form body of `fields` numbered parameters (about 8 bytes each). */
const manyFields = (fields: number) => Array.from({ length: fields }, (_, i) => `f${i}=${i % 10}`).join("&")

/** The request line and headers of a POST whose body is announced but not (yet) sent. */
const head = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${
    Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  }\r\n`

describe("on a port: timeouts, the connection cap, the header checked first", () => {
  it.live(
    "X1 sockets that send nothing are closed by the server after the header timeout; then a real request succeeds",
    () =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const clients: Array<Client> = []
        // More than the cap: those past it are closed as they open, the others once the header timeout passes.
        for (let i = 0; i < 60; i++) clients.push(yield* connectScoped(portNumber))
        // Nothing is ever written or closed by the test: every close is the server's.
        yield* allClosed(clients, 20_000, "idle sockets closed by the server")
        expect(clients.every((client) => client.socket.bytesWritten === 0)).toBe(true)
        // What an idle socket gets, if anything, is Node's 408 for a request that never came.
        for (const client of clients) expect(client.received()).toMatch(/^(HTTP\/1\.1 408 .*)?$/s)
        expect((yield* realRequest(portNumber)).user_id).toBe(DemoFixture.userIds.owner)
      }).pipe(Effect.scoped, served({ maxConnections: 40, headersTimeout: 500, bodyTimeout: 1_000 })),
    60_000
  )

  it.live(
    "X1 at most maxConnections are open: one more is closed unanswered, and served once a socket is freed",
    () =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const idle: Array<Client> = []
        for (let i = 0; i < 20; i++) idle.push(yield* connectScoped(portNumber))
        const refused = yield* Effect.either(realRequest(portNumber))
        expect(refused._tag).toBe("Left")
        idle.pop()!.socket.destroy()
        // The server learns of the close on its next turn: a few tries, bounded.
        const answered = yield* realRequest(portNumber).pipe(
          Effect.retry({ times: 50, schedule: Schedule.spaced("100 millis") })
        )
        expect(answered.user_id).toBe(DemoFixture.userIds.owner)
      }).pipe(Effect.scoped, served({ maxConnections: 20, headersTimeout: 30_000 })),
    60_000
  )

  it.live(
    "X1 a body that stalls is dropped with its socket after the body timeout; the server keeps serving",
    () =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const stalled: Array<Client> = []
        for (const authorization of [`Bearer ${owner}`, undefined]) {
          const client = yield* connectScoped(portNumber)
          const headers = {
            "content-type": "application/json",
            "content-length": 10_000,
            ...(authorization === undefined ? {} : { authorization })
          }
          yield* Effect.promise(() => write(client, `${head(me, headers)}{"api_key":"${owner}", "pad": "`))
          stalled.push(client)
        }
        yield* allClosed(stalled, 20_000, "stalled bodies dropped by the server")
        for (const client of stalled) expect(client.received()).not.toContain("\"status\":\"ok\"")
        expect((yield* realRequest(portNumber)).user_id).toBe(DemoFixture.userIds.owner)
      }).pipe(Effect.scoped, served({ headersTimeout: 500, bodyTimeout: 1_000 })),
    60_000
  )

  it.live("X1 the keep-alive timeout is the one configured, and the server announces it", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const client = yield* connectScoped(portNumber)
      yield* Effect.promise(() =>
        write(client, head(me, { authorization: `Bearer ${owner}`, "content-length": 0, connection: "keep-alive" }))
      )
      // The connection is kept after the answer, then closed by the server once idle for the timeout.
      yield* bounded(Effect.promise(() => client.closed), 20_000, "idle keep-alive connection closed")
      expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
      expect(client.received()).toMatch(/\r\nKeep-Alive: timeout=2\r\n/i)
      expect(client.received()).toContain(`"user_id":${DemoFixture.userIds.owner}`)
    }).pipe(Effect.scoped, served({ keepAliveTimeout: 2_000 })), 60_000)

  it.live(
    "A3 C2 a wrong Bearer token is refused with 4 while its 0.8 MB body of many fields is still unsent: the body is never read or parsed",
    () =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const body = manyFields(100_000)
        expect(body.length).toBeGreaterThan(780_000)
        for (const authorization of ["Bearer thp_never_issued_0000", "Basic Zm9vOmJhcg=="]) {
          const client = yield* connectScoped(portNumber)
          const headers = {
            authorization,
            "content-type": "application/x-www-form-urlencoded",
            "content-length": body.length
          }
          // The headers and a twelfth of the body; the rest is never sent.
          yield* Effect.promise(() => write(client, head(me, headers) + body.slice(0, 64 * 1024)))
          yield* bounded(
            Effect.promise(async () => {
              while (!client.received().includes("}") && !client.isClosed()) {
                await new Promise((resolve) => setTimeout(resolve, 20))
              }
            }),
            20_000,
            "the answer to a wrong token"
          )
          const answer = client.received()
          expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
          expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
            status: "error",
            error_code: 4
          })
          client.socket.destroy()
        }
        expect((yield* realRequest(portNumber)).user_id).toBe(DemoFixture.userIds.owner)
      }).pipe(Effect.scoped, served({ bodyTimeout: 60_000 })),
    60_000
  )

  it.live(
    "C2 a source of more than 1,000 names is refused with 7 once the caller is known, not read further",
    () =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const bodies: Array<[string, string]> = [
          ["application/x-www-form-urlencoded", manyFields(100_000)],
          [
            "application/json",
            JSON.stringify(Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`f${i}`, i])))
          ]
        ]
        for (const [contentType, body] of bodies) {
          const refused = errorOf(
            yield* send(portNumber, {
              path: me,
              headers: { authorization: `Bearer ${owner}`, "content-type": contentType },
              body
            })
          )
          expect(refused).toEqual({ code: 7, text: "Слишком много параметров: не более 1000" })
        }
        const query = errorOf(yield* send(portNumber, { path: `${me}?${manyFields(1_001)}`, body: "" }))
        // Without a header, the credential could be in the parameters: 4 first (X1), as for any unreadable body.
        expect(query.code).toBe(4)
        const withToken = errorOf(
          yield* send(portNumber, { path: `${me}?${manyFields(1_001)}`, headers: { authorization: `Bearer ${owner}` } })
        )
        expect(withToken.code).toBe(7)
        const atTheBound = yield* send(portNumber, {
          path: me,
          headers: { authorization: `Bearer ${owner}`, "content-type": "application/x-www-form-urlencoded" },
          body: manyFields(1_000)
        })
        expect(okOf(atTheBound).user_id).toBe(DemoFixture.userIds.owner)
      }).pipe(served()),
    60_000
  )

  it.live("X1 the server binds to the loopback address unless told otherwise", () =>
    Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      expect(server.address).toMatchObject({ _tag: "TcpAddress", hostname: "127.0.0.1" })
      expect(ReferenceServer.serveDefaults).toMatchObject({
        host: "127.0.0.1",
        headersTimeout: 10_000,
        bodyTimeout: 30_000,
        keepAliveTimeout: 5_000
      })
    }).pipe(served()))
})
