import { Operations } from "@community-api/schema"
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, FastCheck, Layer } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as Engines from "../src/internal/engine.js"
import * as Services from "../src/internal/service.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { base, call, expectError, ok, sendRequest, tokens, withServer } from "./support.js"

const post = (path = "users/me") =>
  HttpClientRequest.post(`${base}/v2/${path}`).pipe(HttpClientRequest.bearerToken(tokens.owner))

const send = (request: HttpClientRequest.HttpClientRequest) => Effect.map(sendRequest(request), expectError)

/** The engine behind the server of {@link withEngine}, for a test that breaks the state from inside. */
class TestEngine extends Context.Tag("test/Robustness/TestEngine")<TestEngine, Engines.Engine>() {}

/** As `withServer()`, the server's engine at hand as {@link TestEngine}. */
const withEngine = () =>
  Effect.provide(Layer.unwrapEffect(Effect.map(Engines.make({}), (engine) =>
    Layer.provideMerge(
      ReferenceServer.layerInProcessClient,
      Layer.merge(
        Layer.succeed(ReferenceServer.ReferenceServer, Services.make(engine)),
        Layer.succeed(TestEngine, engine)
      )
    ))))

describe("malformed requests", () => {
  it.effect("C4 C6 malformed JSON gets 200 and error 7", () =>
    Effect.gen(function*() {
      const bad = post().pipe(HttpClientRequest.bodyText("{\"group_id\": ", "application/json"))
      expect(yield* send(bad)).toEqual({ code: 7, text: "Тело запроса не является корректным JSON-объектом" })
      for (const body of ["[1,2]", "null", "42", "\"text\""]) {
        expect((yield* send(post().pipe(HttpClientRequest.bodyText(body, "application/json")))).code).toBe(7)
      }
    }).pipe(withServer()))

  it.effect("C4 C6 a wrong content type gets 200 and error 7 naming it", () =>
    Effect.gen(function*() {
      const xml = post().pipe(HttpClientRequest.bodyText("<a/>", "application/xml"))
      expect(yield* send(xml)).toEqual({ code: 7, text: "Неподдерживаемый тип содержимого «application/xml»" })
    }).pipe(withServer()))

  it.effect("C4 C6 a body over 1 MiB gets 200 and error 7", () =>
    Effect.gen(function*() {
      const big = post().pipe(
        HttpClientRequest.bodyUnsafeJson({ title: "x".repeat(1024 * 1024 + 10) })
      )
      const error = yield* send(big)
      expect(error.code).toBe(7)
      expect(error.text).toContain("1048576")
    }).pipe(withServer()))

  it.effect("C4 C6 an unreadable body is reported only after authentication (4 first)", () =>
    Effect.gen(function*() {
      const anonymous = HttpClientRequest.post(`${base}/v2/users/me`).pipe(
        HttpClientRequest.bodyText("{oops", "application/json")
      )
      expect((yield* send(anonymous)).code).toBe(4)
    }).pipe(withServer()))

  it.effect("C1 C4 any HTTP method other than POST gets 200 and error 1", () =>
    Effect.gen(function*() {
      for (const method of ["GET", "PUT", "DELETE", "PATCH"] as const) {
        const request = HttpClientRequest.make(method)(`${base}/v2/users/me`).pipe(
          HttpClientRequest.bearerToken(tokens.owner)
        )
        expect(yield* send(request)).toEqual({
          code: 1,
          text: `HTTP-метод «${method}» не поддерживается: используйте POST`
        })
      }
    }).pipe(withServer()))

  it.effect("C4 X1 a failure inside the server answers 101 with no internals and the server keeps serving", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const engine = yield* TestEngine
      // A broken state (a bot whose community vanished) makes the handler throw.
      const state = yield* server.snapshot
      yield* engine.modify((store) => {
        store.communities.delete("AVITO:77410023")
      })
      const bot = state.bots.find((b) => b.channel === "AVITO")!
      const answer = yield* send(post("bots/enable").pipe(HttpClientRequest.bodyUnsafeJson({ bot_id: bot.id })))
      expect(answer.code).toBe(7)
      yield* engine.modify((store) => {
        store.bots.set(bot.id, undefined as never)
      })
      const broken = yield* send(post("bots/get").pipe(HttpClientRequest.bodyUnsafeJson({})))
      expect(broken).toEqual({ code: 101, text: "Внутренняя ошибка сервера" })
      yield* server.reset
      expect((yield* ok("users/me")).user_id).toBe(1001)
    }).pipe(withEngine()))

  it.effect("C4 requests carrying odd parameters never crash the server", () =>
    Effect.gen(function*() {
      const odd = [
        "{\"group_id\": {\"nested\": true}, \"channel\": [\"VK\"]}",
        "{\"group_id\": 1e308, \"channel\": \"VK\"}",
        "{\"group_id\": \"99999999999999999999\", \"channel\": \"VK\"}",
        "{\"bot_id\": null}",
        "{\"count\": \"\", \"offset\": \"\"}",
        "{\"__proto__\": {\"api_key\": \"x\"}, \"channel\": \"VK\"}",
        "{\"constructor\": \"x\", \"toString\": 1, \"hasOwnProperty\": 2}"
      ]
      for (const json of odd) {
        for (const path of ["bots/get", "vars/create", "bots/getById", "groups/get"]) {
          const answer = yield* sendRequest(post(path).pipe(HttpClientRequest.bodyText(json, "application/json")))
          expect(answer.httpStatus).toBe(200)
          expect(["ok", "error"]).toContain(answer.body.status)
          if (answer.body.status === "error") expect(answer.body.error_code).not.toBe(101)
        }
      }
    }).pipe(withServer()))

  it.effect("C4 C6 a deeply nested parameter value gets 7 naming it, not 101", () =>
    Effect.gen(function*() {
      const deep = `${"[".repeat(5000)}1${"]".repeat(5000)}`
      for (const path of ["vars/create", "bots/get", "lists/create", "groups/get"]) {
        const body = `{"group_id": 218340001, "channel": "VK", "title": ${deep}, "search": ${deep}}`
        const answer = yield* send(post(path).pipe(HttpClientRequest.bodyText(body, "application/json")))
        expect(answer.code, path).toBe(7)
      }
      const wholeBody = `${"{\"a\":".repeat(20_000)}1${"}".repeat(20_000)}`
      const whole = yield* sendRequest(post().pipe(HttpClientRequest.bodyText(wholeBody, "application/json")))
      expect(whole.httpStatus).toBe(200)
      expect(whole.body.error_code).not.toBe(101)
    }).pipe(withServer()))

  it.effect("C4 C6 X1 random parameters to every operation get HTTP 200 and a valid envelope, never 101", () =>
    Effect.gen(function*() {
      const value = FastCheck.oneof(
        FastCheck.integer(),
        FastCheck.string(),
        FastCheck.constantFrom("VK", "tg", "", "218340001", DemoFixture.listId, DemoFixture.enableableBotId),
        FastCheck.boolean(),
        FastCheck.constant(null),
        FastCheck.array(FastCheck.integer(), { maxLength: 3 })
      )
      const key = FastCheck.constantFrom(
        "group_id",
        "channel",
        "uid",
        "bot_id",
        "list_id",
        "var_id",
        "title",
        "name",
        "value",
        "count",
        "offset",
        "status",
        "active",
        "archived",
        "search",
        "mailing_id"
      )
      const samples = FastCheck.sample(
        FastCheck.tuple(FastCheck.constantFrom(...Operations.all), FastCheck.dictionary(key, value)),
        { numRuns: 150, seed: 20260115 }
      )
      for (const [op, params] of samples) {
        const answer = yield* call(op.path, params, { pace: 100 })
        expect(answer.httpStatus).toBe(200)
        if (answer.body.status === "error") {
          expect(op.errorCodes as ReadonlyArray<number>, op.path).toContain(answer.body.error_code)
          expect(answer.body.error_code, `${op.path} ${JSON.stringify(params)}`).not.toBe(101)
        } else {
          expect(answer.body.status).toBe("ok")
        }
      }
    }).pipe(withServer()))
})
