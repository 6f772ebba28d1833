/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * Where the token goes (A1, A2), the shape of every request (C1), what spans carry, and that no error
 * message carries the token, against the scripted fake server; `layerConfig` reads the environment.
 */
import { Ids } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Fiber, Layer, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as FakeServer from "./support/FakeServer.js"
import * as RecordingTracer from "./support/RecordingTracer.js"

const GroupId = Schema.decodeSync(Ids.GroupId)
const BotId = Schema.decodeSync(Ids.BotId)
const Uid = Schema.decodeSync(Ids.Uid)

/** The environment of a test, as `ConfigProvider` reads it. */
const withEnv = (env: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))

const secret = Redacted.value(FakeServer.token)
const me = { user_id: 7, auth: "token", client_id: "app" }

/**
 * Every header on the platform's spans: off by default on this line, on here so that the capture
 * sees the `Authorization` header (redacted) and a token in any header would show.
 */
const tracedHeaders = Layer.succeed(HttpClient.TracerHeaderFilter, () => true)

const allText = (value: unknown): string =>
  JSON.stringify(value, (_, v) => (v instanceof Map ? [...v] : typeof v === "bigint" ? String(v) : v))

describe("Security", () => {
  it.effect("A1 the token goes in the Authorization header by default, never in the URL or the body", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      yield* client.users.me()
      const [request] = fake.received
      expect(request!.authorization).toBe(`Bearer ${secret}`)
      expect(request!.url).not.toContain(secret)
      expect(request!.body).toEqual({})
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http)))
  })

  it.effect("A2 in body mode the token goes as api_key in the JSON body, never in the query string", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      yield* client.users.me()
      const [request] = fake.received
      expect(request!.authorization).toBeUndefined()
      expect(request!.url).toBe(`${FakeServer.baseUrl}/users/me`)
      expect(request!.body).toEqual({ api_key: secret })
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { auth: "body" })))
  })

  it.effect("C1 every operation is a POST to {base_url}/{section}/{method}, parameters in a JSON body", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok({ items: [], total: 0 })))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      yield* client.vars.list({ group_id: GroupId(5), channel: "TG" })
      expect(fake.received[0]).toMatchObject({
        url: `${FakeServer.baseUrl}/vars/list`,
        body: { group_id: 5, channel: "TG" }
      })
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { baseUrl: `${FakeServer.baseUrl}/` })))
  })

  it.effect("A1 A2 spans are named by section and method, carry group, channel and attempt, and never the token", () => {
    const fake = FakeServer.make((_, i) =>
      Effect.succeed(i === 0 ? FakeServer.error(9) : FakeServer.ok({ items: [], total: 0 }))
    )
    const tracing = RecordingTracer.make()
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(client.bots.get({ group_id: GroupId(5), channel: "VK" }))
      yield* TestClock.adjust(Duration.seconds(5))
      yield* Fiber.join(fiber)
      const span = tracing.spans.find((s) => s.name === "CommunityApiClient.bots.get")
      expect(span).toBeDefined()
      expect(Object.fromEntries(span!.attributes)).toMatchObject({
        "community_api.operation": "bots/get",
        "community_api.group_id": 5,
        "community_api.channel": "VK",
        "community_api.attempt": 2
      })
      expect(tracing.spans.length).toBeGreaterThan(1)
      expect(tracing.spans.some((s) => s.attributes.has("http.request.header.authorization"))).toBe(true)
      expect(allText(tracing.spans.map((s) => ({ name: s.name, attributes: s.attributes })))).not.toContain(secret)
    }).pipe(Effect.provide(Layer.mergeAll(FakeServer.clientLayer(fake.http), tracing.layer, tracedHeaders)))
  })

  it.effect("with no tracer installed neither the client nor its HttpClient makes a span; with one, both do", () => {
    const seen: Array<{ readonly span: string | undefined; readonly traceparent: string | undefined }> = []
    const answering = HttpClient.make((request) =>
      Effect.map(Effect.option(Effect.currentSpan), (span) => {
        seen.push({
          span: Option.getOrUndefined(Option.map(span, (s) => s.name)),
          traceparent: request.headers["traceparent"]
        })
        return HttpClientResponse.fromWeb(
          request,
          new Response(JSON.stringify({ status: "ok", response: me }), {
            status: 200,
            headers: { "content-type": "application/json" }
          })
        )
      })
    )
    const tracing = RecordingTracer.make()
    const call = Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      return yield* client.users.me()
    }).pipe(
      Effect.provide(FakeServer.clientLayer(Layer.succeed(HttpClient.HttpClient, answering)))
    )
    return Effect.gen(function*() {
      yield* call
      yield* Effect.provide(call, tracing.layer)
      expect(seen).toHaveLength(2)
      // No span, and so no trace of one in the request's headers.
      expect(seen[0]).toEqual({ span: undefined, traceparent: undefined })
      expect(seen[1]!.span).toBeDefined()
      expect(seen[1]!.traceparent).toBeDefined()
      expect(tracing.spans.map((s) => s.name)).toContain("CommunityApiClient.users.me")
    })
  })

  it.effect("A4 error messages never contain the token, in either mode", () => {
    const fake = FakeServer.make((_, i) =>
      i % 3 === 0
        ? Effect.succeed(FakeServer.error(4, "Неверный токен"))
        : i % 3 === 1
        ? Effect.succeed({ bad: true })
        : Effect.die("dropped")
    )
    return Effect.gen(function*() {
      for (const auth of ["header", "body"] as const) {
        const client = yield* CommunityApiClient.make(FakeServer.config({ auth, retry: { limitRetries: 0 } }))
        const errors = [
          yield* Effect.flip(client.users.me()),
          yield* Effect.flip(client.users.me()),
          yield* Effect.flip(client.bots.addUser({ bot_id: BotId("0123456789abcdef01234567"), uid: Uid(1) }))
        ]
        expect(errors.map((e) => e._tag)).toEqual(["InvalidTokenError", "ResponseDecodeError", "OutcomeUnknownError"])
        for (const error of errors) {
          expect(error.message).not.toContain(secret)
          expect(allText(error)).not.toContain(secret)
          expect(String(error)).not.toContain(secret)
        }
      }
    }).pipe(Effect.provide(Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer())))
  })

  it.effect("A1 layerConfig reads COMMUNITY_API_BASE_URL and COMMUNITY_API_TOKEN through Config", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      expect(yield* client.users.me()).toEqual(me)
      expect(fake.received[0]!.authorization).toBe("Bearer thp_from_env")
    }).pipe(
      Effect.provide(
        CommunityApiClient.layerConfig().pipe(
          Layer.provide(Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer()))
        )
      ),
      withEnv({ COMMUNITY_API_BASE_URL: FakeServer.baseUrl, COMMUNITY_API_TOKEN: "thp_from_env" })
    )
  })

  it.effect("A1 layerConfig fails with a ConfigError when the base URL is missing (no guessed default)", () =>
    Effect.gen(function*() {
      const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
      const error = yield* Effect.flip(
        Layer.build(CommunityApiClient.layerConfig().pipe(Layer.provide(fake.http))).pipe(Effect.scoped)
      )
      expect(String(error)).toContain("COMMUNITY_API_BASE_URL")
    }).pipe(withEnv({ COMMUNITY_API_TOKEN: "thp_x" })))
})
