import { HttpClient, HttpClientRequest, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import * as InProcess from "../src/InProcess.js"

const app = Effect.gen(function*() {
  const req = yield* HttpServerRequest.HttpServerRequest
  const body = yield* req.text
  yield* Effect.sleep("10 seconds")
  return yield* HttpServerResponse.json({ url: req.url, method: req.method, body, auth: req.headers["authorization"] })
})

describe("InProcess", () => {
  it.effect("bridges a request into the app on the TestClock", () =>
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const fiber = yield* Effect.fork(
        client.execute(
          HttpClientRequest.post("http://local/external-api/v2/users/me").pipe(
            HttpClientRequest.bearerToken("t"),
            HttpClientRequest.bodyUnsafeJson({ a: 1 })
          )
        ).pipe(Effect.flatMap((r) => r.json))
      )
      yield* TestClock.adjust(Duration.seconds(10))
      const json = yield* fiber
      expect(json).toEqual({ url: "/external-api/v2/users/me", method: "POST", body: "{\"a\":1}", auth: "Bearer t" })
    }).pipe(Effect.provide(InProcess.layerHttpClient(app))))
})
