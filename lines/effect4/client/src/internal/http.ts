/**
 * The wire form of a client, set up once when the client is made: the `HttpClient` every request goes
 * through, and the request of one operation. The `HttpClient` adds the base URL, asks for JSON, carries
 * the token in the `Authorization` header (A1), follows no redirect and accepts status 200 only. In
 * body mode (A2) the token goes as `api_key` into the JSON body of each request.
 */
import * as BaseUrl from "@community-api/core/BaseUrl"
import { Effect, Option, Predicate, Redacted, Stream } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import * as ClientError from "../ClientError.js"
import type * as CommunityApiClient from "../CommunityApiClient.js"

/** The client's `HttpClient`, and the request of one operation. */
export interface Wire {
  readonly http: HttpClient.HttpClient
  readonly request: (path: string, params: unknown) => HttpClientRequest.HttpClientRequest
}

/** A redirect (3xx) is never followed: the request would carry the token to wherever it points. */
export const isRedirect = (status: number): boolean => status >= 300 && status < 400

/**
 * `fetch` follows redirects unless its `RequestInit` says `redirect: "manual"`; the fetch client reads
 * that service at each request, so it is set around each one, over whatever the caller gave. For every
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

/** How much of a refused answer's body is read so that its connection can be reused. */
const drainedBytes = 64 * 1024

/** Only 200 carries an envelope (C4); another status fails, after a bounded drain of its body. */
const acceptingOk = (http: HttpClient.HttpClient): HttpClient.HttpClient =>
  http.pipe(
    HttpClient.filterStatus((status) => status === 200),
    HttpClient.tapError(({ reason }) =>
      reason._tag === "StatusCodeError"
        ? Effect.ignore(Effect.suspend(() => {
          let read = 0
          // Failing ends the stream, which closes the connection once the drain is over its bound.
          return Stream.runForEach(reason.response.stream, (bytes) => {
            read += bytes.byteLength
            return read > drainedBytes ? Effect.fail("drained") : Effect.void
          })
        }))
        : Effect.void
    )
  )

/** Builds the wire of a client over the `HttpClient` of the context. */
export const make = (
  config: Pick<CommunityApiClient.ClientConfig, "baseUrl" | "token" | "auth">
): Effect.Effect<Wire, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const read = BaseUrl.read(config.baseUrl)
    if (read._tag === "Refused") {
      return yield* Effect.die(new ClientError.InvalidConfig({ option: "baseUrl", reason: read.reason }))
    }
    const baseUrl = read.url
    const inBody = config.auth === "body"
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
      request: (path, params) => {
        const fields = Predicate.isObject(params) ? params : {}
        return HttpClientRequest.bodyJsonUnsafe(
          HttpClientRequest.post(`/${path}`),
          inBody ? { ...fields, api_key: Redacted.value(config.token) } : fields
        )
      }
    }
  })
