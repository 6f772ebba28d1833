/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * A body whose length is declared within the bound and that is not compressed is read in one step
 * (C5): the transport stops at the declared length, so bytes sent past it never reach the client as
 * this answer. A compressed body is counted after decompression, as it arrives, whatever its declared
 * length. Raw sockets on 127.0.0.1, so the server can lie about lengths.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Scope } from "effect"
import { FetchHttpClient } from "effect/http"
import * as net from "node:net"
import * as zlib from "node:zlib"
import * as ClientError from "../src/ClientError.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as FakeServer from "./support/FakeServer.js"
import * as Hostile from "./support/Hostile.js"

const Client = CommunityApiClient.CommunityApiClient
const MiB = 1024 * 1024
const answer = JSON.stringify(FakeServer.ok({ user_id: 7, auth: "token", client_id: "app" }))

/** A server that writes `head` and `body` on every connection, then closes it; counts the bytes it sent. */
const raw = (
  head: string,
  body: Buffer
): Effect.Effect<Hostile.Hostile & { readonly sent: () => number }, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<net.Server & { sent: number; hits: number }>((resume) => {
      const server = Object.assign(
        net.createServer((socket) => {
          server.hits++
          socket.on("error", () => {})
          socket.once("data", () => {
            socket.write(head)
            socket.end(body, () => (server.sent += body.length))
          })
        }),
        { sent: 0, hits: 0 }
      )
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map((server) => ({
    baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/external-api/v2`,
    hits: () => server.hits,
    sent: () => server.sent
  })))

describe.each(Hostile.clients)("A declared length, over %s", (_, httpClient) => {
  it.live("C5 bytes sent past a declared length within the bound are not read as the answer", () =>
    Effect.gen(function*() {
      // 16 MiB of filler past a declared answer, against a bound of 1 MiB: only the declared bytes count.
      const body = Buffer.concat([Buffer.from(answer), Buffer.alloc(16 * MiB, "x")])
      const server = yield* raw(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(answer)}\r\n\r\n`,
        body
      )
      const result = yield* Effect.result(Effect.flatMap(Effect.service(Client), (client) => client.users.me())).pipe(
        Effect.provide(Hostile.clientLayer(server, httpClient, { maxResponseBytes: MiB }))
      )
      // The declared answer, or a transport failure of the connection the filler spoiled: never more.
      if (result._tag === "Success") expect(result.success.user_id).toBe(7)
      else expect(result.failure._tag).toBe("TransportError")
    }))
})

describe("A compressed body", () => {
  it.live("C5 is counted after decompression, however short its declared length", () =>
    Effect.gen(function*() {
      const json = `{"status":"ok","response":{"user_id":7,"auth":"token","client_id":"${"a".repeat(4 * MiB)}"}}`
      const gzipped = zlib.gzipSync(json)
      expect(gzipped.length).toBeLessThan(MiB / 64)
      const server = yield* raw(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${gzipped.length}\r\n\r\n`,
        gzipped
      )
      // fetch undoes the encoding: the 4 MiB it gives are past a bound of 1 MiB.
      const error = yield* Effect.flip(Effect.flatMap(Effect.service(Client), (client) => client.users.me())).pipe(
        Effect.provide(Hostile.clientLayer(server, FetchHttpClient.layer, { maxResponseBytes: MiB }))
      )
      expect(ClientError.isResponseTooLarge(error)).toBe(true)
    }))
})
