/**
 * The client against a hostile server on a real socket, over fetch and over undici: bodies without
 * end, bodies nested absurdly deep, and bodies that break off. A body is read within a bound and
 * never held whole beyond it; decoding never fails untyped; a body that breaks off is a transport
 * failure (retried when safe, an unknown outcome otherwise).
 */
import type { Client, Line } from "../src/Driver.js"
import * as Hostile from "../src/Hostile.js"
import { peakGrowth, report, streamBody } from "../src/HostileStreams.js"
import type { Written } from "../src/HostileStreams.js"
import { assert, failed, me, scenario, succeeded, suite } from "../src/Scenario.js"

const MiB = 1024 * 1024
const secret = "thp_hostile-secret-token-0123456789"
const variable = { group_id: 1, channel: "VK", title: "Город", name: "city" }
/** The prefix of a users/me answer whose `client_id` is a long string of filler. */
const longAnswer = { prefix: `{"status":"ok","response":{"user_id":7,"auth":"token","client_id":"`, suffix: `"}}` }
/** A few quick retries, so that a scenario of retries takes no real time to speak of. */
const quickRetries = { delays: [10, 10, 10] }

/** A users/me answer whose `user_id` nests `depth` arrays. */
const nested = (depth: number) =>
  `{"status":"ok","response":{"user_id":${"[".repeat(depth)}${"]".repeat(depth)},"auth":"token","client_id":"a"}}`

type Http = "fetch" | "undici"
type Options = Omit<Parameters<Line["realClient"]>[0], "http" | "baseUrl" | "token">

/** Runs `body` over both `HttpClient`s of Node, each against a server of `handler`, closed after. */
const overBoth = (
  line: Line,
  handler: Hostile.Handler,
  body: (client: (options?: Options) => Promise<Client>, server: Hostile.Hostile, http: Http) => Promise<void>
) =>
  (async () => {
    for (const http of ["fetch", "undici"] as const) {
      const server = await Hostile.serve(handler)
      try {
        await body(
          (options = {}) => line.realClient({ ...options, http, baseUrl: server.baseUrl, token: secret }),
          server,
          http
        )
      } finally {
        await server.close()
      }
    }
  })()

/** Answers the first `broken` requests with the headers and a part of the body, then cuts the socket. */
const breaking = (broken: number, declare: boolean): Hostile.Handler => (_, response, hit) => {
  const body = JSON.stringify({ status: "ok", response: { ...me, client_id: "x".repeat(4_000) } })
  response.writeHead(200, {
    "content-type": "application/json",
    ...(declare ? { "content-length": String(Buffer.byteLength(body)) } : {})
  })
  if (hit >= broken) return response.end(body)
  response.write(body.slice(0, 1_000), () => response.socket?.destroy())
}

/** Over both ways a body may break off: with a declared length, and chunked. */
const declared = [["with a declared length", true], ["chunked", false]] as const

export default suite("A hostile server", [
  scenario("a 64 MiB body without a length fails typed at the default 16 MiB bound; memory grows far less", (line) => {
    let written: Written | undefined
    return overBoth(line, (_, response) => {
      written = streamBody(response, { total: 64 * MiB, ...longAnswer })
    }, async (client, _, http) => {
      const c = await client()
      const [error, growth] = await peakGrowth(() => failed(c.call("users/me")))
      assert.equal(error._tag, "ResponseDecodeError", http)
      // `ClientError.isResponseTooLarge`: a decode error that carries the bound.
      assert.notEqual(error["limitBytes"], undefined)
      assert.equal(error["operation"], "users/me")
      assert.equal(error["limitBytes"], 16 * MiB)
      assert.ok(error.message.includes(`${16 * MiB} bytes`), error.message)
      // Loose: the whole body, read as bytes and as text, would take more than 128 MB.
      assert.ok(growth < 100 * 1000 * 1000, `${http}: ${growth}`)
      await written!.closed
      assert.equal(written?.cut, true)
      assert.ok(written!.bytes < 64 * MiB)
      report(
        `${http}: 64 MiB body, bound 16 MiB: peak growth ${(growth / MiB).toFixed(1)} MiB, server wrote ${
          ((written?.bytes ?? 0) / MiB).toFixed(1)
        } MiB before the connection closed`
      )
    })
  }),

  scenario("an endless body stops at a configured bound of 1 MiB and the connection is closed", (line) => {
    let written: Written | undefined
    return overBoth(line, (_, response) => {
      // Endless for the client: it would take minutes; the server stops when the connection closes.
      written = streamBody(response, { total: 256 * MiB, ...longAnswer })
    }, async (client, server, http) => {
      const error = await failed((await client({ maxResponseBytes: MiB })).call("users/me"))
      assert.equal(error._tag, "ResponseDecodeError", http)
      assert.equal(error["limitBytes"], MiB)
      assert.equal(server.hits(), 1)
      await written!.closed
      assert.equal(written?.cut, true)
      assert.ok(written!.bytes < 64 * MiB)
    })
  }),

  scenario(
    "a declared length past the bound fails at the first bytes; a body under the bound is read",
    (line) =>
      overBoth(line, (request, response) => {
        if (request.url?.endsWith("/users/me")) {
          streamBody(response, { total: 64 * MiB, declare: true, ...longAnswer })
        } else {
          // A valid answer of 900 KiB, under a bound of 1 MiB.
          const name = "b".repeat(900 * 1024)
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ status: "ok", response: { ...me, client_id: name } }))
        }
      }, async (client, _, http) => {
        const c = await client({ maxResponseBytes: MiB })
        const error = await failed(c.call("users/me"))
        assert.equal(error._tag, "ResponseDecodeError", http)
        assert.equal(error["limitBytes"], MiB)
        const answer = await succeeded(c.callRaw("users/other"))
        assert.equal((answer as { user_id: unknown }).user_id, 7)
      })
  ),

  scenario(
    "C5 C6 answers nested 5,000 and 100,000 levels deep fail with ResponseDecodeError, never untyped",
    (line) => {
      const bodies = [
        nested(5_000),
        nested(100_000),
        `{"status":"error","error":${"[".repeat(5_000)}${"]".repeat(5_000)},"error_code":7}`,
        `{"status":"ok","response":${"{\"a\":".repeat(5_000)}1${"}".repeat(5_000)}}`
      ]
      return overBoth(line, (_, response, hit) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.end(bodies[hit % bodies.length])
      }, async (client, _, http) => {
        const c = await client()
        for (let i = 0; i < bodies.length; i++) {
          const error = await failed(i === 3 ? c.callRaw("funnels/get") : c.call("users/me"))
          assert.equal(error._tag, "ResponseDecodeError", http)
          assert.ok(error.message.includes("deeper than"), error.message)
        }
      })
    }
  ),

  scenario("C5 brackets and escaped quotes inside strings do not count as depth", (line) => {
    const client_id = `${"[{".repeat(5_000)}\\"${"[".repeat(1_000)}`
    return overBoth(line, (_, response) => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(`{"status":"ok","response":{"user_id":7,"auth":"token","client_id":"${client_id}"}}`)
    }, async (client) => {
      const answer = await succeeded((await client()).call("users/me"))
      assert.equal((answer as { client_id: unknown }).client_id, JSON.parse(`"${client_id}"`))
    })
  }),

  scenario("X1 is a transport failure: a read is retried and succeeds", async (line) => {
    for (const [way, declare] of declared) {
      await overBoth(line, breaking(2, declare), async (client, server, http) => {
        const answer = await succeeded((await client({ retry: quickRetries })).call("users/me"))
        assert.equal((answer as { user_id: unknown }).user_id, 7, `${http}, ${way}`)
        assert.equal(server.hits(), 3)
      })
    }
  }),

  scenario("X1 once the retries are spent it fails as TransportError, without the token", async (line) => {
    for (const [way, declare] of declared) {
      await overBoth(line, breaking(100, declare), async (client, server, http) => {
        const error = await failed((await client({ retry: quickRetries })).call("users/me"))
        assert.equal(error._tag, "TransportError", `${http}, ${way}`)
        assert.ok(error.message.includes("broke off"), error.message)
        assert.ok(!error.message.includes(secret))
        assert.equal(server.hits(), 4)
      })
    }
  }),

  scenario("X1 on a creation it is an unknown outcome, sent once", async (line) => {
    for (const [way, declare] of declared) {
      await overBoth(line, breaking(100, declare), async (client, server, http) => {
        const error = await failed((await client({ retry: quickRetries })).call("vars/create", variable))
        assert.equal(error._tag, "OutcomeUnknownError", `${http}, ${way}`)
        assert.ok(error.message.includes("broke off"), error.message)
        assert.equal(server.hits(), 1)
      })
    }
  })
])
