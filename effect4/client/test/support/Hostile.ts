/**
 * A hostile server for the Effect 4 line's tests of the client against a bad peer, as the Effect 3
 * line's `Hostile.ts`: plain `node:http` on 127.0.0.1 with a port of the system's choosing, whose
 * handler may stream endless bodies, nest answers absurdly deep or cut the connection mid-body. Every
 * loop it runs is bounded and stops when the client closes the connection; the server closes with the
 * test's scope.
 *
 * Both `HttpClient`s a user would pick for Node on this line are listed in {@link clients}, so that
 * each test runs over both, as on the Effect 3 line.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, Redacted } from "effect"
import type { Scope } from "effect"
import { FetchHttpClient } from "effect/http"
import type { HttpClient } from "effect/http"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"
import * as FakeServer from "./FakeServer.js"

/** The two `HttpClient`s of Node: `effect/http`'s fetch, and undici through `@effect/platform-node`. */
export const clients: ReadonlyArray<readonly [name: string, layer: Layer.Layer<HttpClient.HttpClient>]> = [
  ["fetch", FetchHttpClient.layer],
  ["undici", NodeHttpClient.layerUndici]
]

/** The clients' token in clear, to check that no error message carries it. */
export const secret = Redacted.value(FakeServer.token)

/** A request handler; `hit` counts the requests from 0. */
export type Handler = (request: http.IncomingMessage, response: http.ServerResponse, hit: number) => void

/** A running hostile server. */
export interface Hostile {
  /** The client's `baseUrl`. */
  readonly baseUrl: string
  /** The requests received so far. */
  readonly hits: () => number
}

/** Starts a server on 127.0.0.1 with `handler`; it closes, cutting every connection, with the scope. */
export const serve = (handler: Handler): Effect.Effect<Hostile, never, Scope.Scope> =>
  Effect.gen(function*() {
    let hits = 0
    const server = yield* Effect.acquireRelease(
      Effect.callback<http.Server>((resume) => {
        const server = http.createServer((request, response) => {
          // The body of the request is not needed: drain it so that the answer can flow.
          request.resume()
          handler(request, response, hits++)
        })
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.callback<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const { port } = server.address() as AddressInfo
    return { baseUrl: `http://127.0.0.1:${port}/external-api/v2`, hits: () => hits }
  })

/** What {@link streamBody} wrote, read when the test is done. */
export interface Written {
  /** Bytes written to the socket before the body ended or the client closed the connection. */
  bytes: number
  /** Whether the client closed the connection before the whole body was written. */
  cut: boolean
  /** Settles when the connection has closed. */
  readonly closed: Promise<void>
}

/**
 * Writes `prefix`, then filler bytes up to `total` bytes in all, then `suffix`, honouring back
 * pressure, and stops as soon as the client closes the connection. Without `declare` the body goes
 * chunked, with no length announced.
 */
export const streamBody = (
  response: http.ServerResponse,
  options: { readonly total: number; readonly prefix: string; readonly suffix: string; readonly declare?: boolean }
): Written => {
  let closed = () => {}
  const written: Written = { bytes: 0, cut: false, closed: new Promise((resolve) => closed = resolve) }
  const chunk = Buffer.alloc(64 * 1024, "a")
  const end = Buffer.from(options.suffix)
  const filler = options.total - Buffer.byteLength(options.prefix) - end.length
  let sent = 0
  response.writeHead(200, {
    "content-type": "application/json",
    ...(options.declare === true ? { "content-length": String(options.total) } : {})
  })
  response.on("close", () => {
    written.cut = !response.writableFinished
    closed()
  })
  response.write(options.prefix)
  written.bytes += Buffer.byteLength(options.prefix)
  const pump = () => {
    while (sent < filler && !response.destroyed) {
      const n = Math.min(chunk.length, filler - sent)
      sent += n
      written.bytes += n
      if (!response.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        response.once("drain", pump)
        return
      }
    }
    if (!response.destroyed) {
      written.bytes += end.length
      response.end(end)
    }
  }
  pump()
  return written
}

/** A client of `hostile` over `httpClient`, with fresh limiters, as a layer for the test's effect. */
export const clientLayer = (
  hostile: Hostile,
  httpClient: Layer.Layer<HttpClient.HttpClient>,
  options: Partial<CommunityApiClient.ClientConfig> = {}
): Layer.Layer<CommunityApiClient.CommunityApiClient> =>
  CommunityApiClient.layer({ baseUrl: hostile.baseUrl, token: FakeServer.token, ...options }).pipe(
    Layer.provide(Layer.mergeAll(httpClient, Pacing.layer(), CreationQuota.layer()))
  )

/**
 * Runs `effect` while sampling the memory of the process (heap and buffers) every few milliseconds,
 * and gives its result with the largest growth seen over the start, in bytes.
 */
export const peakGrowth = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<[A, number], E, R> =>
  Effect.suspend(() => {
    const used = () => {
      const memory = process.memoryUsage()
      return memory.heapUsed + memory.external
    }
    const start = used()
    let peak = start
    const timer = setInterval(() => {
      peak = Math.max(peak, used())
    }, 2)
    return effect.pipe(
      Effect.ensuring(Effect.sync(() => clearInterval(timer))),
      Effect.map((a): [A, number] => [a, Math.max(peak, used()) - start])
    )
  })
