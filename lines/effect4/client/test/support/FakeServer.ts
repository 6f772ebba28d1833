/**
 * A tiny scripted server for the Effect 4 line's unit tests that need no reference server, as the
 * Effect 3 line's: it records every request (time on the Effect clock, path, body, authorization
 * header) and answers with what `answer` gives, in the calling fiber (so `TestClock` drives it).
 */
import { Clock, Effect, Layer, Redacted } from "effect"
import { HttpClient, HttpClientError, HttpClientResponse } from "effect/http"
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

/** Makes the recording client; `answer` sees the request and how many came before it. */
export const make = (answer: (request: Received, index: number) => Effect.Effect<unknown>) => {
  const received: Array<Received> = []
  const client = HttpClient.make((request) =>
    Effect.gen(function*() {
      const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
      const record: Received = {
        at: yield* Clock.currentTimeMillis,
        path: request.url.replace(/^.*\/external-api\/v2\//, ""),
        url: request.url,
        body: text === "" ? {} : JSON.parse(text),
        authorization: request.headers["authorization"]
      }
      received.push(record)
      const body = yield* answer(record, received.length - 1)
      return HttpClientResponse.fromWeb(
        request,
        new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } })
      )
    }).pipe(
      // An answer that dies is a connection dropped: the transport's failure, as a socket would give it.
      Effect.catchDefect((cause) =>
        Effect.fail(
          new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) })
        )
      )
    )
  )
  return { received, http: Layer.succeed(HttpClient.HttpClient, client) }
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
