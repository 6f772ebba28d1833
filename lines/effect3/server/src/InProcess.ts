/**
 * An `HttpClient` whose requests go straight into an `HttpApp`, with no socket: client and server run
 * in one runtime, so `TestClock` drives retries, rate windows and caches on both sides at once.
 *
 * @since 0.1.0
 */
import {
  HttpClient,
  HttpClientError,
  HttpClientResponse,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import type { HttpClientRequest } from "@effect/platform"
import { Cause, Chunk, Effect, Layer, Scope, Stream } from "effect"

const bodyOf = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<BodyInit | undefined, unknown> => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(body.body as BodyInit)
    case "FormData":
      return Effect.succeed(body.formData)
    case "Raw":
      return Effect.succeed(body.body as BodyInit)
    case "Stream":
      return Stream.runCollect(body.stream).pipe(
        Effect.map((chunks) => {
          const parts = Chunk.toReadonlyArray(chunks)
          const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
          let offset = 0
          for (const part of parts) {
            out.set(part, offset)
            offset += part.length
          }
          return out as BodyInit
        })
      )
  }
}

/** The app dropped the connection without answering. */
class ConnectionDropped {
  readonly _tag = "ConnectionDropped"
}

/**
 * Makes an `HttpClient` that serves every request with `app`, in the caller's fiber.
 *
 * @example
 * ```ts
 * import { InProcess } from "@community-api/server"
 * import { HttpClient, HttpServerResponse } from "@effect/platform"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // Any `HttpApp`, called through an `HttpClient` with no socket.
 * const app = Effect.succeed(HttpServerResponse.text("pong"))
 * const text = Effect.gen(function*() {
 *   const http = yield* InProcess.makeHttpClient(app)
 *   const response = yield* http.get("http://in-process/ping")
 *   return yield* response.text
 * })
 *
 * strictEqual(await Effect.runPromise(Effect.scoped(text)), "pong")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeHttpClient = <E, R>(
  app: HttpApp.Default<E, R>
): Effect.Effect<HttpClient.HttpClient, never, Exclude<R, HttpServerRequest.HttpServerRequest | Scope.Scope>> =>
  Effect.map(
    Effect.context<Exclude<R, HttpServerRequest.HttpServerRequest | Scope.Scope>>(),
    (context) =>
      HttpClient.make((request, url) =>
        Effect.gen(function*() {
          // An empty body rather than none: the platform's stream of a body-less web request fails.
          const body = (yield* bodyOf(request)) ?? (request.method === "GET" || request.method === "HEAD"
            ? undefined
            : new Uint8Array(0))
          const webRequest = new Request(url, {
            method: request.method,
            headers: new Headers(request.headers as Record<string, string>),
            ...(body === undefined ? {} : { body })
          })
          const response = yield* app.pipe(
            Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(webRequest)),
            Effect.scoped,
            // An app that interrupts itself drops the connection: the caller sees a transport failure.
            Effect.catchAllCause((cause) =>
              Cause.isInterruptedOnly(cause)
                ? Effect.fail(new ConnectionDropped())
                : Effect.succeed(HttpServerResponse.empty({ status: 500 }))
            )
          ) as unknown as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, never>
          return HttpClientResponse.fromWeb(request, HttpServerResponse.toWeb(response))
        }).pipe(
          Effect.provide(context),
          Effect.mapError((cause) =>
            new HttpClientError.RequestError({
              request,
              reason: "Transport",
              cause,
              description: cause instanceof ConnectionDropped ? "connection dropped" : "in-process request failed"
            })
          )
        )
      )
  )

/**
 * A layer of the in-process `HttpClient` over `app`.
 *
 * @example
 * ```ts
 * import { InProcess } from "@community-api/server"
 * import { HttpClient, HttpServerRequest, HttpServerResponse } from "@effect/platform"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // An `HttpClient` layer over an app that echoes the path it was asked.
 * const app = Effect.map(HttpServerRequest.HttpServerRequest, (request) => HttpServerResponse.text(request.url))
 * const path = HttpClient.HttpClient.pipe(
 *   Effect.flatMap((http) => http.get("http://in-process/echo")),
 *   Effect.flatMap((response) => response.text),
 *   Effect.scoped
 * )
 *
 * strictEqual(await Effect.runPromise(path.pipe(Effect.provide(InProcess.layerHttpClient(app)))), "/echo")
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient = <E, R>(
  app: HttpApp.Default<E, R>
): Layer.Layer<HttpClient.HttpClient, never, Exclude<R, HttpServerRequest.HttpServerRequest | Scope.Scope>> =>
  Layer.effect(HttpClient.HttpClient, makeHttpClient(app))
