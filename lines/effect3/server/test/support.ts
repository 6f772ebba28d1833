/**
 * Test helpers: every request goes through HTTP into the in-process app.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"

export const tokens = DemoFixture.tokens
export const base = "http://reference.local/external-api"

export type Encoding = "json" | "form" | "multipart" | "query"

export interface CallOptions {
  readonly token?: string | undefined
  readonly encoding?: Encoding
  readonly version?: "v2" | "v1" | "v3"
  /**
   * Milliseconds to advance the TestClock after the call (0: not at all). By default the clock moves one
   * second after every tenth call, so a test never trips the rate limit (L1) by accident.
   */
  readonly pace?: number
}

export interface Answer {
  readonly httpStatus: number
  readonly body: any
}

const withParams = (
  request: HttpClientRequest.HttpClientRequest,
  params: Record<string, unknown>,
  encoding: Encoding
) => {
  const strings = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))
  switch (encoding) {
    case "json":
      return HttpClientRequest.bodyUnsafeJson(request, params)
    case "form":
      return HttpClientRequest.bodyUrlParams(request, strings)
    case "multipart": {
      const form = new FormData()
      for (const [k, v] of Object.entries(strings)) form.append(k, v)
      return HttpClientRequest.bodyFormData(request, form)
    }
    case "query":
      return HttpClientRequest.setUrlParams(request, strings)
  }
}

/** Sends a raw request and reads the JSON answer. */
export const sendRequest = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    client.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.json, (body): Answer => ({ httpStatus: response.status, body }))
      ),
      Effect.scoped
    ))

let calls = 0

/** Calls `section/method` with `params`, as the owner unless told otherwise. */
export const call = (path: string, params: Record<string, unknown> = {}, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const token = "token" in options ? options.token : tokens.owner
    let request = HttpClientRequest.post(
      `${base}${options.version === "v1" ? "" : `/${options.version ?? "v2"}`}/${path}`
    )
    if (token !== undefined) request = HttpClientRequest.bearerToken(request, token)
    request = withParams(request, params, options.encoding ?? "json")
    const answer = yield* sendRequest(request)
    if (options.pace !== undefined) {
      if (options.pace > 0) yield* TestClock.adjust(options.pace)
    } else if (++calls % 10 === 0) {
      yield* TestClock.adjust("1 second")
    }
    return answer
  })

/** The `response` of a successful call; fails the test otherwise. */
export const ok = (path: string, params: Record<string, unknown> = {}, options: CallOptions = {}) =>
  Effect.map(call(path, params, options), (answer) => {
    expect(answer.httpStatus).toBe(200)
    expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: "ok" })
    return answer.body.response
  })

/** The error of a failed call, checked to be a valid envelope (C4, C6). */
export const fails = (path: string, params: Record<string, unknown> = {}, options: CallOptions = {}) =>
  Effect.map(call(path, params, options), (answer) => expectError(answer))

export const expectError = (answer: Answer): { code: number; text: string } => {
  expect(answer.httpStatus).toBe(200)
  expect(Object.keys(answer.body).sort()).toEqual(["error", "error_code", "status"])
  expect(answer.body.status).toBe("error")
  expect(Number.isInteger(answer.body.error_code)).toBe(true)
  expect(answer.body.error).toMatch(/[а-яё]/i)
  return { code: answer.body.error_code, text: answer.body.error }
}

/** The error code of an answer, or `"ok"`. */
export const codeOf = (answer: Answer): number | "ok" => answer.body.error_code ?? "ok"

let names = 0

/** Creates a custom variable with a fresh name in the main community (a creation, L2). */
export const createVariable = (options: CallOptions = {}) =>
  call("vars/create", { ...main, title: "Переменная", name: `v_${++names}` }, options)

/** How many custom variables the main community has. */
export const variableCount = (options: CallOptions = {}) =>
  Effect.map(ok("vars/list", { ...main, count: 500 }, options), (page) => page.total as number)

/** The main community, as request parameters. */
export const main = DemoFixture.mainCommunity
export const other = DemoFixture.otherCommunity

/** The in-process server with the demo fixture (or another), fresh for each test. */
export const withServer = (options: ReferenceServer.Options = {}) => Effect.provide(ReferenceServer.layerTest(options))

export const serverLayer = (options: ReferenceServer.Options = {}) => Layer.fresh(ReferenceServer.layerTest(options))
