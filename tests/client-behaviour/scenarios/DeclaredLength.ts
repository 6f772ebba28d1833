/**
 * A body whose length is declared within the bound and that is not compressed is read in one step
 * (C5): the transport stops at the declared length, so bytes sent past it never reach the client as
 * this answer. A compressed body is counted after decompression, as it arrives, whatever its declared
 * length. Raw sockets on 127.0.0.1, so the server can lie about lengths.
 */
import * as zlib from "node:zlib"
import * as Hostile from "../src/Hostile.js"
import { assert, failed, scenario, suite } from "../src/Scenario.js"

const MiB = 1024 * 1024
const answer = JSON.stringify({ status: "ok", response: { user_id: 7, auth: "token", client_id: "app" } })

export default suite("A declared length", [
  scenario("C5 bytes sent past a declared length within the bound are not read as the answer", async (line) => {
    // Over both `HttpClient`s of Node.
    for (const http of ["fetch", "undici"] as const) {
      // 16 MiB of filler past a declared answer, against a bound of 1 MiB: only the declared bytes count.
      const body = Buffer.concat([Buffer.from(answer), Buffer.alloc(16 * MiB, "x")])
      const server = await Hostile.raw(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(answer)}\r\n\r\n`,
        body
      )
      try {
        const client = await line.realClient({ http, baseUrl: server.baseUrl, maxResponseBytes: MiB })
        const outcome = await client.call("users/me")
        // The declared answer, or a transport failure of the connection the filler spoiled: never more.
        if (outcome._tag === "Success") assert.equal((outcome.value as { user_id: number }).user_id, 7, http)
        else assert.equal(outcome._tag === "Failure" ? outcome.error._tag : outcome._tag, "TransportError", http)
      } finally {
        await server.close()
      }
    }
  }),

  scenario("C5 is counted after decompression, however short its declared length", async (line) => {
    const json = `{"status":"ok","response":{"user_id":7,"auth":"token","client_id":"${"a".repeat(4 * MiB)}"}}`
    const gzipped = zlib.gzipSync(json)
    assert.ok(gzipped.length < MiB / 64)
    const server = await Hostile.raw(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${gzipped.length}\r\n\r\n`,
      gzipped
    )
    try {
      // fetch undoes the encoding: the 4 MiB it gives are past a bound of 1 MiB.
      const client = await line.realClient({ http: "fetch", baseUrl: server.baseUrl, maxResponseBytes: MiB })
      const error = await failed(client.call("users/me"))
      // `ClientError.isResponseTooLarge`: a decode error that carries the bound.
      assert.equal(error._tag, "ResponseDecodeError")
      assert.notEqual(error["limitBytes"], undefined)
    } finally {
      await server.close()
    }
  })
])
