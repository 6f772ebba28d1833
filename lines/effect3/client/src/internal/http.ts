/**
 * The wire form of a client, set up once when the client is made: the `HttpClient` every request goes
 * through, and the request of one operation.
 *
 * The `HttpClient` adds the base URL, asks for JSON, carries the token in the `Authorization` header
 * (A1), follows no redirect and accepts status 200 only. In body mode (A2) the token goes as `api_key`
 * into the JSON body of each request, since a body is already bytes when the `HttpClient` sees it.
 */
import * as BaseUrl from "@community-api/core/BaseUrl"
import * as CallRequest from "@community-api/core/CallRequest"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Option, Redacted, Stream } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CommunityApiClient from "../CommunityApiClient.js"

/** @internal */
export interface Wire {
  /** The client's `HttpClient`: base URL, header authentication, no redirects, status 200 only. */
  readonly http: HttpClient.HttpClient
  /** The request of the operation at `path` with the encoded parameters `params`. */
  readonly request: (path: string, params: unknown) => HttpClientRequest.HttpClientRequest
}

/**
 * `fetch` follows redirects unless its `RequestInit` says `redirect: "manual"`; the platform's fetch
 * client reads that tag at each request, so it is set around each one, over whatever the caller gave.
 * Other clients (undici, node:http, in-process) do not follow redirects and ignore the tag; for every
 * client the status check below turns a 3xx into a failure.
 */
const withoutRedirects = (http: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.transform(
    http,
    (send) =>
      Effect.flatMap(Effect.serviceOption(FetchHttpClient.RequestInit), (init) =>
        Effect.provideService(send, FetchHttpClient.RequestInit, {
          ...Option.getOrUndefined(init),
          redirect: "manual"
        }))
  )

/**
 * Only 200 carries an envelope (C4). Any other answer fails with the platform's `ResponseError`
 * (reason `StatusCode`), after its body is read so that the connection can be reused: at most
 * `CallRequest.drainedBytes` of it, since ending the platform's stream early closes the connection.
 */
const acceptingOk = (http: HttpClient.HttpClient): HttpClient.HttpClient =>
  http.pipe(
    HttpClient.filterStatus(CallRequest.isAccepted),
    HttpClient.tapError((error) =>
      error._tag === "ResponseError" && error.reason === "StatusCode"
        ? Effect.ignore(
          Stream.runFoldWhile(error.response.stream, 0, (read) => read <= CallRequest.drainedBytes, (read, bytes) =>
            read + bytes.byteLength)
        )
        : Effect.void
    )
  )

/**
 * Builds the wire of a client over the `HttpClient` of the context.
 *
 * @internal
 */
export const make = (
  config: Pick<CommunityApiClient.ClientConfig, "baseUrl" | "token" | "auth">
): Effect.Effect<Wire, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const read = BaseUrl.read(config.baseUrl)
    if (read._tag === "Refused") {
      return yield* Effect.die(new ClientError.InvalidConfig({ option: "baseUrl", reason: read.reason }))
    }
    const baseUrl = read.url
    const inBody = CallRequest.tokenInBody(config.auth)
    const http = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest((request) => {
        const located = HttpClientRequest.acceptJson(HttpClientRequest.prependUrl(request, baseUrl))
        return inBody ? located : HttpClientRequest.bearerToken(located, config.token)
      }),
      withoutRedirects,
      acceptingOk
    )
    return {
      http,
      request: (path, params) =>
        HttpClientRequest.bodyUnsafeJson(
          HttpClientRequest.post(CallRequest.urlOf(path)),
          CallRequest.bodyOf(params, inBody ? Redacted.value(config.token) : undefined)
        )
    }
  })
