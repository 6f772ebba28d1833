/**
 * No token or key ever leaves the server in what it writes: its Effect logs, its spans, the request
 * log the sandbox prints, and the texts of its answers. Every demo credential (and one the server does
 * not know) is sent in every place a caller may put it: the header, `api_key` in a JSON, form or
 * multipart body or in the query string, a wrong parameter value, and a path segment.
 */
import { FetchHttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Layer, Logger, LogLevel, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import * as RecordingTracer from "./recordingTracer.js"
import { base, sendRequest } from "./support.js"

/** Every demo credential, and a well-formed token the server has never issued. */
const secrets = [...Object.values(DemoFixture.tokens), "thp_never_issued_0a1b2c3d4e5f6a7b8c9d"]

/** Everything the server wrote, as text. */
const capture = () => {
  const written: Array<string> = []
  const logger = Logger.make(({ annotations, cause, logLevel, message, spans }) => {
    written.push(
      JSON.stringify({ level: logLevel.label, message, annotations: [...annotations], spans: [...spans] }),
      Cause.isEmpty(cause) ? "" : Cause.pretty(cause, { renderErrorCause: true })
    )
  })
  const tracer = RecordingTracer.make(written)
  const layer = Layer.mergeAll(
    Logger.replace(Logger.defaultLogger, logger),
    Logger.minimumLogLevel(LogLevel.All),
    Layer.setTracer(tracer)
  )
  const options: ReferenceServer.Options = {
    onRequest: (entry) => written.push(`request-log ${JSON.stringify(entry)}`)
  }
  return { written, layer, options }
}

/** The requests that carry `secret` in every place a caller may put one. */
const requestsWith = (secret: string, url: string) => {
  const post = (path: string) => HttpClientRequest.post(`${url}/${path}`)
  const form = new FormData()
  form.append("api_key", secret)
  form.append("group_id", String(DemoFixture.mainCommunity.group_id))
  form.append("channel", "VK")
  return [
    post("users/me").pipe(HttpClientRequest.bearerToken(secret)),
    post("bots/get").pipe(HttpClientRequest.setHeader("authorization", secret)),
    post("bots/get").pipe(HttpClientRequest.setHeader("authorization", `Basic ${secret}`)),
    post("users/me").pipe(HttpClientRequest.bodyUnsafeJson({ api_key: secret })),
    post("vars/list").pipe(HttpClientRequest.bodyUrlParams({ api_key: secret, ...DemoFixture.mainCommunity })),
    post("groups/get").pipe(HttpClientRequest.bodyFormData(form)),
    post("users/me").pipe(HttpClientRequest.setUrlParams({ api_key: secret })),
    post("users/me").pipe(HttpClientRequest.setUrlParams({ api_key: secret }), HttpClientRequest.bodyUnsafeJson({})),
    post("users/me").pipe(HttpClientRequest.bodyText(`{"api_key": "${secret}", `, "application/json")),
    post("users/me").pipe(HttpClientRequest.bodyUnsafeJson({ api_key: secret, [`_${secret}`]: 1 })),
    // A secret as the value or the name of a parameter, with a valid token in the header.
    ...[
      { bot_id: secret },
      { ...DemoFixture.mainCommunity, title: "t", name: `${secret}.` },
      { ...DemoFixture.mainCommunity, search: secret },
      { group_id: secret, channel: secret },
      { [secret]: secret }
    ].map((params, i) =>
      post(["bots/getById", "vars/create", "bots/get", "vars/list", "groups/get"][i]!).pipe(
        HttpClientRequest.bearerToken(DemoFixture.tokens.owner),
        HttpClientRequest.bodyUnsafeJson(params)
      )
    )
  ]
}

/** Requests with `secret` as a path segment: version, section, method. */
const pathsWith = (secret: string, url: string) =>
  [`${url.replace(/\/v2$/, "")}/${secret}/users/me`, `${url}/${secret}/me`, `${url}/users/${secret}`].map((u) =>
    HttpClientRequest.post(u).pipe(HttpClientRequest.bearerToken(DemoFixture.tokens.owner))
  )

/** What the server wrote: the test's own client spans (`http.client …`) are the caller's, not the server's. */
const serverSide = (written: ReadonlyArray<string>) =>
  written.filter((w) => !w.startsWith("span http.client") && !w.startsWith("{\"name\":\"http.client"))

const expectNoSecret = (written: ReadonlyArray<string>) => {
  const leaks = written.filter((w) => secrets.some((secret) => w.includes(secret)))
  expect(leaks).toEqual([])
}

describe("secrets", () => {
  it.effect("A1 A2 A4 C6 in process: no token or key in logs, spans, the request log or any answer", () => {
    const { layer, options, written } = capture()
    return Effect.gen(function*() {
      let answers = 0
      for (const secret of secrets) {
        for (const request of requestsWith(secret, `${base}/v2`)) {
          const answer = yield* sendRequest(request)
          written.push(JSON.stringify(answer.body))
          answers++
          yield* TestClock.adjust(40)
        }
      }
      expect(answers).toBe(secrets.length * 15)
      // Each place was reached: the request log has every request, and answers include 4, 7 and successes.
      expect(written.filter((w) => w.startsWith("request-log")).length).toBe(answers)
      expect(written.some((w) => w.includes("\"error_code\":4"))).toBe(true)
      expect(written.some((w) => w.includes("\"error_code\":7"))).toBe(true)
      expect(written.some((w) => w.includes("\"status\":\"ok\""))).toBe(true)
      expectNoSecret(serverSide(written))
    }).pipe(Effect.provide(ReferenceServer.layerTest(options)), Effect.provide(layer))
  })

  it.effect("C6 V2 V3 a token sent as a path segment is never echoed in the error text (1, 3) or logged", () => {
    const { options, written } = capture()
    return Effect.gen(function*() {
      const texts: Array<string> = []
      for (const secret of secrets) {
        for (const request of pathsWith(secret, `${base}/v2`)) {
          const answer = yield* sendRequest(request)
          expect([1, 3]).toContain(answer.body.error_code)
          texts.push(answer.body.error)
        }
      }
      expect(texts).toHaveLength(secrets.length * 3)
      expect(written.filter((w) => w.startsWith("request-log")).length).toBe(secrets.length * 3)
      expectNoSecret([...texts, ...written])
    }).pipe(Effect.provide(ReferenceServer.layerTest(options)))
  })

  it.effect("A1 A2 on a port: no token or key in the server's HTTP spans (url.full, headers) or its logs", () => {
    const { layer, options, written } = capture()
    return Effect.gen(function*() {
      const address = yield* HttpServer.HttpServer.pipe(Effect.map((server) => server.address))
      const url = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}/external-api/v2` : ""
      for (const secret of [DemoFixture.tokens.owner, DemoFixture.tokens.accountKey, secrets.at(-1)!]) {
        for (const request of [...requestsWith(secret, url), ...pathsWith(secret, url)]) {
          written.push(JSON.stringify((yield* sendRequest(request)).body))
          yield* TestClock.adjust(40)
        }
      }
      // The server traced the requests (so spans were looked at) and logged them.
      expect(written.filter((w) => w.startsWith("span ")).length).toBeGreaterThan(30)
      expect(written.filter((w) => w.startsWith("request-log")).length).toBeGreaterThan(30)
      expectNoSecret(serverSide(written))
    }).pipe(
      Effect.provide(ReferenceServer.layerServe({ ...options, port: 0 }).pipe(Layer.provide(layer))),
      Effect.provide(Layer.merge(FetchHttpClient.layer, layer))
    )
  })
})
