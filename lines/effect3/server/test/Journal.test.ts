/**
 * The request journal and the limits on a real port: `GET /_sandbox/requests` shows each request with
 * its time on the sandbox's clock, operation, user, masked parameters, code and milliseconds, filtered,
 * newest last; `DELETE` empties it; the ring keeps its documented size and counts what it drops;
 * `GET /_sandbox/limits` shows a user's counters and when they reset. No token ever appears in the
 * journal, wherever the request carried it. All behind the control token; a query that does not decode
 * gets one line and changes nothing.
 */
import * as CoreClock from "@community-api/core/Clock"
import type { HttpServer } from "@effect/platform"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import type { RawRequest } from "./portSupport.js"
import { errorOf, okOf, port, send } from "./portSupport.js"

const control = { authorization: `Bearer ${ReferenceServer.demoControlToken}` }
const main = DemoFixture.mainCommunity
const owner = DemoFixture.tokens.owner
const json = { "content-type": "application/json" }

/** 2026-03-10 12:00:30 UTC: thirty seconds into a minute. */
const start = Date.UTC(2026, 2, 10, 12, 0, 30)
const iso = (millis: number) => new Date(millis).toISOString()

/** A sandbox on a free port whose clock moves only when the test says so. */
const onManualClock = <A, E>(
  f: (clock: CoreClock.ManualClock) => Effect.Effect<A, E, ReferenceServer.ReferenceServer | HttpServer.HttpServer>
) => {
  const clock = CoreClock.manual(start)
  return f(clock).pipe(Effect.provide(ReferenceServer.layerServe({ port: 0, clock })))
}

const api = (portNumber: number, request: RawRequest) =>
  send(portNumber, { ...request, path: `/external-api/v2/${request.path}` })

const journal = (portNumber: number, query = "", headers: Record<string, string> = control) =>
  send(portNumber, { path: `/_sandbox/requests${query}`, method: "GET", headers })

/** Every secret the tests send: the demo tokens and a well-formed token the server never issued. */
const secrets = [...Object.values(DemoFixture.tokens), "thp_never_issued_0a1b2c3d4e5f6a7b8c9d"]

describe("the request journal", () => {
  it.live("each request with its time on the sandbox's clock, operation, user, masked parameters, code and time", () =>
    onManualClock((clock) =>
      Effect.gen(function*() {
        const portNumber = yield* port
        okOf(yield* api(portNumber, { path: "users/me", headers: { authorization: `Bearer ${owner}` } }))
        clock.advance(1_500)
        okOf(
          yield* api(portNumber, {
            path: "vars/list",
            headers: json,
            body: JSON.stringify({ api_key: owner, ...main, count: 2 })
          })
        )
        clock.advance(1_500)
        errorOf(
          yield* api(portNumber, { path: "users/me", headers: { authorization: "Bearer thp_unknown_token_1234" } })
        )
        errorOf(
          yield* send(portNumber, {
            path: "/external-api/v2/users/nope",
            headers: { authorization: `Bearer ${owner}` }
          })
        )

        const answer = okOf(yield* journal(portNumber))
        expect(answer.size).toBe(1000)
        expect(answer.dropped).toBe(0)
        expect(answer.entries).toEqual([
          {
            at: iso(start),
            path: "/external-api/v2/users/me",
            operation: "users/me",
            user: DemoFixture.userIds.owner,
            params: {},
            outcome: "ok",
            millis: 0
          },
          {
            at: iso(start + 1_500),
            path: "/external-api/v2/vars/list",
            operation: "vars/list",
            user: DemoFixture.userIds.owner,
            params: { api_key: "***", group_id: main.group_id, channel: main.channel, count: 2 },
            outcome: "ok",
            millis: 0
          },
          // Refused at the token, before the body was read: no user, no parameters.
          { at: iso(start + 3_000), path: "/external-api/v2/users/me", operation: "users/me", outcome: 4, millis: 0 },
          // A path that names no operation.
          { at: iso(start + 3_000), path: "/external-api/v2/users/nope", outcome: 3, millis: 0 }
        ])
      })
    ))

  it.live("no token appears in the journal, wherever the request carried it", () =>
    onManualClock((clock) =>
      Effect.gen(function*() {
        const portNumber = yield* port
        for (const secret of secrets) {
          // A second of its own for each secret's requests: none is refused by the rate before it is read.
          clock.advance(1_000)
          const form = new URLSearchParams({ api_key: secret, group_id: String(main.group_id), channel: main.channel })
          const requests: Array<RawRequest> = [
            { path: "users/me", headers: { authorization: `Bearer ${secret}` } },
            { path: "users/me", headers: { authorization: secret } },
            { path: "users/me", headers: json, body: JSON.stringify({ api_key: secret }) },
            {
              path: "vars/list",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: form.toString()
            },
            { path: `users/me?api_key=${encodeURIComponent(secret)}` },
            // As the value, part of a value, or the name of other parameters, with a valid token in the header.
            ...[{ bot_id: secret }, { ...main, search: `find ${secret} here` }, { [secret]: 1 }, {
              token: "anything",
              nested: { deeper: [secret] }
            }].map((params): RawRequest => ({
              path: "bots/get",
              headers: { ...json, authorization: `Bearer ${owner}` },
              body: JSON.stringify(params)
            }))
          ]
          for (const request of requests) yield* api(portNumber, request)
        }
        const answer = okOf(yield* journal(portNumber))
        expect(answer.entries).toHaveLength(secrets.length * 9)
        expect(answer.entries.filter((entry: any) => entry.outcome === 5)).toEqual([])
        const text = JSON.stringify(answer)
        expect(secrets.filter((secret) => text.includes(secret))).toEqual([])
        // The masks stand where the secrets were; the rest of each request is kept.
        expect(answer.entries.at(-1).params).toEqual({ token: "***", nested: { deeper: ["***"] } })
        expect(answer.entries.at(-2).params).toEqual({ "***": 1 })
        expect(answer.entries.at(-3).params).toEqual({ ...main, search: "find *** here" })
        expect(answer.entries.at(-4).params).toEqual({ bot_id: "***" })
        expect(answer.entries.at(-5).params).toEqual({ api_key: "***" })
      })
    ))

  it.live("filters by operation, user, outcome and since, newest last; a filter that does not decode is refused", () =>
    onManualClock((clock) =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const as = (token: string, path: string) =>
          api(portNumber, { path, headers: { authorization: `Bearer ${token}` } })
        yield* as(owner, "users/me")
        yield* as(DemoFixture.tokens.admin, "users/me")
        clock.advance(60_000)
        yield* as(owner, "bots/get")
        yield* as(DemoFixture.tokens.revoked, "users/me")
        yield* as(owner, "users/me")
        const entries = (query: string) =>
          Effect.map(journal(portNumber, query), (answer) =>
            okOf(answer).entries.map((e: any) => `${e.operation} ${e.user ?? "-"} ${e.outcome}`))

        expect(yield* entries("")).toEqual([
          `users/me ${DemoFixture.userIds.owner} ok`,
          `users/me ${DemoFixture.userIds.admin} ok`,
          `bots/get ${DemoFixture.userIds.owner} ok`,
          "users/me - 4",
          `users/me ${DemoFixture.userIds.owner} ok`
        ])
        expect(yield* entries("?operation=users/me&outcome=ok")).toEqual([
          `users/me ${DemoFixture.userIds.owner} ok`,
          `users/me ${DemoFixture.userIds.admin} ok`,
          `users/me ${DemoFixture.userIds.owner} ok`
        ])
        expect(yield* entries(`?user=${DemoFixture.userIds.owner}`)).toHaveLength(3)
        expect(yield* entries("?outcome=4")).toEqual(["users/me - 4"])
        expect(yield* entries(`?since=${encodeURIComponent(iso(start + 60_000))}`)).toHaveLength(3)
        expect(yield* entries(`?since=${start + 60_001}`)).toEqual([])

        const refusals: Array<[string, string]> = [
          ["?colour=red", "requests: \"colour\" is unexpected; it takes operation, user, outcome, since"],
          ["?user=me", "requests: user: expected a user id (digits), actual \"me\""],
          [
            "?operation=users/nope",
            "requests: operation: expected an operation as section/method (users/me), actual \"users/nope\""
          ],
          ["?outcome=fine", "requests: outcome: expected an error code, ok or dropped, actual \"fine\""],
          [
            "?since=yesterday",
            "requests: since: expected an ISO instant with its offset (2026-01-01T00:00:00Z) or unix milliseconds, actual \"yesterday\""
          ],
          [`?user=${encodeURIComponent(owner)}`, "requests: user: expected a user id (digits), actual \"***\""]
        ]
        for (const [query, text] of refusals) {
          expect(errorOf(yield* journal(portNumber, query))).toEqual({ code: 7, text })
        }
        expect(yield* entries("")).toHaveLength(5)
      })
    ))

  it.live("DELETE empties the journal; a query refused, or no control token, leaves it as it is", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const server = yield* ReferenceServer.ReferenceServer
      yield* api(portNumber, { path: "users/me", headers: { authorization: `Bearer ${owner}` } })
      const clear = (query: string, headers: Record<string, string>) =>
        send(portNumber, { path: `/_sandbox/requests${query}`, method: "DELETE", headers })
      expect(errorOf(yield* clear("", {})).code).toBe(4)
      expect(errorOf(yield* clear("", { authorization: `Bearer ${owner}` })).code).toBe(4)
      expect(errorOf(yield* journal(portNumber, "", { authorization: `Bearer ${owner}` })).code).toBe(4)
      expect(errorOf(yield* clear("?operation=users/me", control))).toEqual({
        code: 7,
        text: "requests: \"operation\" is unexpected; it takes no parameters"
      })
      expect(okOf(yield* journal(portNumber)).entries).toHaveLength(1)
      expect((yield* clear("", control)).body).toEqual({ status: "ok" })
      expect(okOf(yield* journal(portNumber))).toEqual({ size: 1000, dropped: 0, entries: [] })
      // The count of requests answered is not the journal's.
      expect(yield* server.requestCount).toBe(1)
    }).pipe(Effect.provide(ReferenceServer.layerServe({ port: 0 }))))

  it.effect("the ring keeps the last 1000 entries and counts those it drops", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const client = yield* HttpClient.HttpClient
      const request = (n: number) =>
        Effect.scoped(
          client.execute(
            HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/users/me`).pipe(
              HttpClientRequest.bodyUnsafeJson({ n })
            )
          )
        )
      // The first three one by one, the other 1000 eight at a time (a busy machine takes long over
      // 1003 in a row): the three are the oldest, and the ones the ring drops.
      yield* Effect.forEach([0, 1, 2], request, { discard: true })
      yield* Effect.forEach(Array.from({ length: 1000 }, (_, i) => i + 3), request, { concurrency: 8, discard: true })
      const kept = yield* server.journal()
      expect(kept.size).toBe(1000)
      expect(kept.dropped).toBe(3)
      expect(kept.entries.map((entry) => (entry.params as { n: number }).n).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 1000 }, (_, i) => i + 3)
      )
      expect(yield* server.recentRequests).toEqual(kept.entries)
      expect((yield* server.journal({ outcome: 4, since: 0 })).entries).toHaveLength(1000)
      yield* server.clearJournal
      expect(yield* server.journal()).toEqual({ size: 1000, dropped: 0, entries: [] })
    }).pipe(Effect.provide(ReferenceServer.layerTest())), 180_000)
})

describe("the limits", () => {
  it.live("a user's requests in the second and creations in the minute and day, with when each resets", () =>
    onManualClock((clock) =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const create = (name: string) =>
          api(portNumber, {
            path: "vars/create",
            headers: { ...json, authorization: `Bearer ${owner}` },
            body: JSON.stringify({ ...main, title: "Переменная", name })
          })
        for (const name of ["a1", "a2", "a3"]) okOf(yield* create(name))
        const limits = (query: string) =>
          send(portNumber, { path: `/_sandbox/limits${query}`, method: "GET", headers: control })
        const ownerLimits = {
          user: DemoFixture.userIds.owner,
          second: { count: 3, limit: 30, resetsAt: iso(start + 1_000) },
          minute: { count: 3, limit: 20, resetsAt: "2026-03-10T12:01:00.000Z" },
          // The day starts at 03:00 Moscow time, 00:00 UTC.
          day: { count: 3, limit: 200, resetsAt: "2026-03-11T00:00:00.000Z" }
        }
        expect(okOf(yield* limits(`?user=${DemoFixture.userIds.owner}`))).toEqual({
          at: iso(start),
          users: [ownerLimits]
        })
        // Without a user: every user with something counted.
        expect(okOf(yield* limits(""))).toEqual({ at: iso(start), users: [ownerLimits] })
        expect(okOf(yield* limits(`?user=${DemoFixture.userIds.admin}`)).users[0]).toEqual({
          user: DemoFixture.userIds.admin,
          second: { count: 0, limit: 30, resetsAt: iso(start) },
          minute: { count: 0, limit: 20, resetsAt: "2026-03-10T12:01:00.000Z" },
          day: { count: 0, limit: 200, resetsAt: "2026-03-11T00:00:00.000Z" }
        })

        clock.advance(30_000)
        expect(okOf(yield* limits(`?user=${DemoFixture.userIds.owner}`)).users).toEqual([{
          user: DemoFixture.userIds.owner,
          second: { count: 0, limit: 30, resetsAt: iso(start + 30_000) },
          minute: { count: 0, limit: 20, resetsAt: "2026-03-10T12:02:00.000Z" },
          day: { count: 3, limit: 200, resetsAt: "2026-03-11T00:00:00.000Z" }
        }])

        expect(errorOf(yield* limits("?user=owner"))).toEqual({
          code: 7,
          text: "limits: user: expected a user id (digits), actual \"owner\""
        })
        expect(errorOf(yield* limits("?users=1"))).toEqual({
          code: 7,
          text: "limits: \"users\" is unexpected; it takes user"
        })
        expect(errorOf(yield* send(portNumber, { path: "/_sandbox/limits", method: "GET" })).code).toBe(4)
      })
    ))
})
