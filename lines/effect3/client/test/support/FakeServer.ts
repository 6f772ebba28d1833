/**
 * A tiny scripted server for unit tests that need no reference server: it records every request
 * (time on the Effect clock, path, body, authorization header) and answers with what `answer` returns.
 */
import * as InProcess from "@community-api/server/InProcess"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import { Clock, Effect, Layer, Redacted } from "effect"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"
import * as Retry from "../../src/Retry.js"

export interface Received {
  readonly at: number
  readonly path: string
  readonly url: string
  readonly body: Record<string, unknown>
  readonly authorization: string | undefined
}

export const baseUrl = "http://fake.local/external-api/v2"
export const token = Redacted.make("thp_fake-secret-token-0123456789")

export const ok = (response?: unknown) => response === undefined ? { status: "ok" } : { status: "ok", response }
export const error = (code: number, text = "ошибка") => ({ status: "error", error: text, error_code: code })

/** Makes the recording app; `answer` sees the request and how many came before it. */
export const make = (
  answer: (request: Received, index: number) => Effect.Effect<unknown>
) => {
  const received: Array<Received> = []
  const app = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const text = yield* Effect.orDie(request.text)
    const at = yield* Clock.currentTimeMillis
    const record: Received = {
      at,
      path: request.url.replace(/^.*\/external-api\/v2\//, ""),
      url: request.url,
      body: text === "" ? {} : JSON.parse(text),
      authorization: request.headers["authorization"]
    }
    received.push(record)
    const body = yield* answer(record, received.length - 1)
    return yield* HttpServerResponse.json(body)
  }).pipe(Effect.orDie)
  return { received, http: InProcess.layerHttpClient(app) as Layer.Layer<HttpClient.HttpClient> }
}

/** A client layer over `http` with fresh limiters and the given options. */
export const clientLayer = (
  http: Layer.Layer<HttpClient.HttpClient>,
  options: Partial<CommunityApiClient.ClientConfig> = {}
) =>
  CommunityApiClient.layer({ baseUrl, token, retry: Retry.defaultPolicy, ...options }).pipe(
    Layer.provide(Layer.mergeAll(http, Pacing.layer(), CreationQuota.layer()))
  )

/** The configuration of a client of the fake server. */
export const config = (options: Partial<CommunityApiClient.ClientConfig> = {}): CommunityApiClient.ClientConfig => ({
  baseUrl,
  token,
  ...options
})
