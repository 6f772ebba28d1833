/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * The client against a hostile server on a real socket, over each `HttpClient` of this line for Node
 * (`support/Hostile.ts`): bodies without end, bodies nested absurdly deep, and bodies that break off.
 * A body is read within a bound and never held whole beyond it; decoding never fails untyped; a body
 * that breaks off is a transport failure (retried when safe, an unknown outcome otherwise).
 */
import { Ids } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Schedule, Schema } from "effect"
import * as ClientError from "../src/ClientError.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as FakeServer from "./support/FakeServer.js"
import * as Figures from "./support/Figures.js"
import * as Hostile from "./support/Hostile.js"

const Client = CommunityApiClient.CommunityApiClient
const MiB = 1024 * 1024
const me = { user_id: 7, auth: "token", client_id: "app" }
const variable = { group_id: Schema.decodeSync(Ids.GroupId)(1), channel: "VK" as const, title: "Город", name: "city" }
/** The prefix of a users/me answer whose `client_id` is a long string of filler. */
const longAnswer = { prefix: `{"status":"ok","response":{"user_id":7,"auth":"token","client_id":"`, suffix: `"}}` }
/** A few quick retries, so that a test of retries takes no real time to speak of. */
const quickRetries = {
  schedule: Schedule.recurs(3).pipe(Schedule.addDelay(() => Effect.succeed(Duration.millis(10))))
}

/** A users/me answer whose `user_id` nests `depth` arrays. */
const nested = (depth: number) =>
  `{"status":"ok","response":{"user_id":${"[".repeat(depth)}${"]".repeat(depth)},"auth":"token","client_id":"a"}}`

describe.each(Hostile.clients)("A hostile server, over %s", (name, httpClient) => {
  it.live("a 64 MiB body without a length fails typed at the default 16 MiB bound; memory grows far less", () =>
    Effect.gen(function*() {
      let written: Hostile.Written | undefined
      const hostile = yield* Hostile.serve((_, response) => {
        written = Hostile.streamBody(response, { total: 64 * MiB, ...longAnswer })
      })
      const [error, growth] = yield* Hostile.peakGrowth(
        Effect.flip(Effect.flatMap(Effect.service(Client), (client) => client.users.me())).pipe(
          Effect.provide(Hostile.clientLayer(hostile, httpClient))
        )
      )
      expect(error._tag).toBe("ResponseDecodeError")
      expect(ClientError.isResponseTooLarge(error)).toBe(true)
      expect(error).toMatchObject({ operation: "users/me", limitBytes: 16 * MiB })
      expect(error.message).toContain(`${16 * MiB} bytes`)
      // Loose: the whole body, read as bytes and as text, would take more than 128 MB.
      expect(growth).toBeLessThan(100 * 1000 * 1000)
      yield* Effect.promise(() => written!.closed)
      expect(written?.cut).toBe(true)
      expect(written?.bytes).toBeLessThan(64 * MiB)
      yield* Figures.report(
        `${name}: 64 MiB body, bound 16 MiB: peak growth ${(growth / MiB).toFixed(1)} MiB, server wrote ${
          ((written?.bytes ?? 0) / MiB).toFixed(1)
        } MiB before the connection closed`
      )
    }))

  it.live("an endless body stops at a configured bound of 1 MiB and the connection is closed", () =>
    Effect.gen(function*() {
      let written: Hostile.Written | undefined
      const hostile = yield* Hostile.serve((_, response) => {
        // Endless for the client: it would take minutes; the server stops when the connection closes.
        written = Hostile.streamBody(response, { total: 256 * MiB, ...longAnswer })
      })
      const error = yield* Effect.flip(Effect.flatMap(Effect.service(Client), (client) => client.users.me())).pipe(
        Effect.provide(Hostile.clientLayer(hostile, httpClient, { maxResponseBytes: MiB }))
      )
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", limitBytes: MiB })
      expect(hostile.hits()).toBe(1)
      yield* Effect.promise(() => written!.closed)
      expect(written?.cut).toBe(true)
      expect(written?.bytes).toBeLessThan(64 * MiB)
    }))

  it.live("a declared length past the bound fails at the first bytes; a body under the bound is read", () =>
    Effect.gen(function*() {
      const hostile = yield* Hostile.serve((request, response) => {
        if (request.url?.endsWith("/users/me")) {
          Hostile.streamBody(response, { total: 64 * MiB, declare: true, ...longAnswer })
        } else {
          // A valid answer of 900 KiB, under a bound of 1 MiB.
          const name = "b".repeat(900 * 1024)
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify(FakeServer.ok({ ...me, client_id: name })))
        }
      })
      const layer = Hostile.clientLayer(hostile, httpClient, { maxResponseBytes: MiB })
      const error = yield* Effect.flip(Effect.flatMap(Effect.service(Client), (client) => client.users.me())).pipe(
        Effect.provide(layer)
      )
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", limitBytes: MiB })
      const answer = yield* Effect.flatMap(Effect.service(Client), (client) => client.call("users/other")).pipe(
        Effect.provide(layer)
      )
      expect(answer).toMatchObject({ user_id: 7 })
    }))

  it.live("C5 C6 answers nested 5,000 and 100,000 levels deep fail with ResponseDecodeError, never untyped", () =>
    Effect.gen(function*() {
      const bodies = [
        nested(5_000),
        nested(100_000),
        `{"status":"error","error":${"[".repeat(5_000)}${"]".repeat(5_000)},"error_code":7}`,
        `{"status":"ok","response":${"{\"a\":".repeat(5_000)}1${"}".repeat(5_000)}}`
      ]
      const hostile = yield* Hostile.serve((_, response, hit) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.end(bodies[hit % bodies.length])
      })
      const layer = Hostile.clientLayer(hostile, httpClient)
      const errors = yield* Effect.forEach(
        bodies,
        (_, i) =>
          Effect.flatMap(Effect.service(Client), (client) => i === 3 ? client.call("funnels/get") : client.users.me())
            .pipe(
              Effect.flip,
              Effect.provide(layer)
            )
      )
      for (const error of errors) {
        expect(error._tag).toBe("ResponseDecodeError")
        expect(error.message).toContain("deeper than")
      }
    }))

  it.live("C5 brackets and escaped quotes inside strings do not count as depth", () =>
    Effect.gen(function*() {
      const client_id = `${"[{".repeat(5_000)}\\"${"[".repeat(1_000)}`
      const hostile = yield* Hostile.serve((_, response) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.end(`{"status":"ok","response":{"user_id":7,"auth":"token","client_id":"${client_id}"}}`)
      })
      const answer = yield* Effect.flatMap(Effect.service(Client), (client) => client.users.me()).pipe(
        Effect.provide(Hostile.clientLayer(hostile, httpClient))
      )
      expect(answer.client_id).toBe(JSON.parse(`"${client_id}"`))
    }))

  describe.each([["with a declared length", true], ["chunked", false]] as const)("a body that breaks off %s", (
    _,
    declare
  ) => {
    /** Answers the first `broken` requests with the headers and a part of the body, then cuts the socket. */
    const breaking = (broken: number) =>
      Hostile.serve((_, response, hit) => {
        const body = JSON.stringify(FakeServer.ok({ ...me, client_id: "x".repeat(4_000) }))
        response.writeHead(200, {
          "content-type": "application/json",
          ...(declare ? { "content-length": String(Buffer.byteLength(body)) } : {})
        })
        if (hit >= broken) return response.end(body)
        response.write(body.slice(0, 1_000), () => response.socket?.destroy())
      })

    it.live("X1 is a transport failure: a read is retried and succeeds", () =>
      Effect.gen(function*() {
        const hostile = yield* breaking(2)
        const answer = yield* Effect.flatMap(Effect.service(Client), (client) => client.users.me()).pipe(
          Effect.provide(Hostile.clientLayer(hostile, httpClient, { retry: quickRetries }))
        )
        expect(answer.user_id).toBe(7)
        expect(hostile.hits()).toBe(3)
      }))

    it.live("X1 once the retries are spent it fails as TransportError, without the token", () =>
      Effect.gen(function*() {
        const hostile = yield* breaking(100)
        const error = yield* Effect.flip(Effect.flatMap(Effect.service(Client), (client) => client.users.me())).pipe(
          Effect.provide(Hostile.clientLayer(hostile, httpClient, { retry: quickRetries }))
        )
        expect(error._tag).toBe("TransportError")
        expect(error.message).toContain("broke off")
        expect(error.message).not.toContain(Hostile.secret)
        expect(hostile.hits()).toBe(4)
      }))

    it.live("X1 on a creation it is an unknown outcome, sent once", () =>
      Effect.gen(function*() {
        const hostile = yield* breaking(100)
        const error = yield* Effect.flip(
          Effect.flatMap(Effect.service(Client), (client) => client.vars.create(variable))
        ).pipe(
          Effect.provide(Hostile.clientLayer(hostile, httpClient, { retry: quickRetries }))
        )
        expect(error._tag).toBe("OutcomeUnknownError")
        expect(error.message).toContain("broke off")
        expect(hostile.hits()).toBe(1)
      }))
  })
})
