/**
 * The wire form of a client, set up once when the client is made: the `HttpClient` every request goes
 * through, and the request of one operation (its URL and body are the core's plan,
 * `@community-api/core/CallRequest`). The `HttpClient` adds the base URL, asks for JSON, carries the
 * token in the `Authorization` header (A1), follows no redirect and accepts status 200 only. In body
 * mode (A2) the token goes as `api_key` into the JSON body of each request.
 */
import * as BaseUrl from "@community-api/core/BaseUrl"
import * as CallRequest from "@community-api/core/CallRequest"
import { Effect, Option, Redacted, Stream } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import type { HttpClientResponse } from "effect/http"
import * as ClientError from "../ClientError.js"
import type * as CommunityApiClient from "../CommunityApiClient.js"

/** The client's `HttpClient`, and the request of one operation. */
export interface Wire {
  readonly http: HttpClient.HttpClient
  readonly request: (path: string, params: unknown) => HttpClientRequest.HttpClientRequest
}

/**
 * `fetch` follows redirects unless its `RequestInit` says `redirect: "manual"`; the fetch client reads
 * that service at each request, so it is set around each one, over whatever the caller gave. For every
 * client the status check turns a 3xx into a failure.
 */
const manualRedirects = <E, R>(send: Effect.Effect<HttpClientResponse.HttpClientResponse, E, R>) =>
  Effect.serviceOption(FetchHttpClient.RequestInit).pipe(
    Effect.map((init) => ({ ...Option.getOrUndefined(init), redirect: "manual" as const })),
    Effect.flatMap((init) => Effect.provideService(send, FetchHttpClient.RequestInit, init))
  )

/**
 * Only 200 carries an envelope (C4); another status fails, after a drain of at most
 * `CallRequest.drainedBytes` of its body, so that its connection can be reused (failing ends the
 * stream, which closes the connection once the drain is over its bound).
 */
const drained = (response: { readonly stream: Stream.Stream<Uint8Array, unknown> }) =>
  Effect.suspend(() => {
    let read = 0
    return Stream.runForEach(response.stream, (bytes) => {
      read += bytes.byteLength
      return read > CallRequest.drainedBytes ? Effect.fail("drained") : Effect.void
    })
  }).pipe(Effect.ignore)

/** Builds the wire of a client over the `HttpClient` of the context. */
export const make = (
  config: Pick<CommunityApiClient.ClientConfig, "baseUrl" | "token" | "auth">
): Effect.Effect<Wire, never, HttpClient.HttpClient> => {
  const read = BaseUrl.read(config.baseUrl)
  if (read._tag === "Refused") {
    return Effect.die(new ClientError.InvalidConfig({ option: "baseUrl", reason: read.reason }))
  }
  const apiKey = CallRequest.tokenInBody(config.auth) ? Redacted.value(config.token) : undefined
  const located = (request: HttpClientRequest.HttpClientRequest) => {
    const asJson = HttpClientRequest.acceptJson(HttpClientRequest.prependUrl(request, read.url))
    return apiKey === undefined ? HttpClientRequest.bearerToken(asJson, config.token) : asJson
  }
  const request = (path: string, params: unknown) =>
    HttpClientRequest.bodyJsonUnsafe(
      HttpClientRequest.post(CallRequest.urlOf(path)),
      CallRequest.bodyOf(params, apiKey)
    )
  return Effect.map(Effect.service(HttpClient.HttpClient), (client) => ({
    http: HttpClient.transform(HttpClient.mapRequest(client, located), manualRedirects).pipe(
      HttpClient.filterStatus(CallRequest.isAccepted),
      HttpClient.tapError(({ reason }) => reason._tag === "StatusCodeError" ? drained(reason.response) : Effect.void)
    ),
    request
  }))
}
