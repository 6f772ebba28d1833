/**
 * The servers under test, on a loopback port: the reference server (started from its public layer,
 * with a request recorder), in this process or in a child process, and a bare `node:http` handler.
 *
 * The child process keeps the server's CPU and heap apart from the client's: memory readings of the
 * client are then the client's alone, and the server's event loop does not delay the client's timers.
 */
import type * as Faults from "@community-api/server/Faults"
import type * as Fixture from "@community-api/server/Fixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import type * as BenchFixture from "./BenchFixture.js"
import * as ReferenceChild from "./ReferenceChild.js"

import { now, type Recorded } from "./ReferenceChild.js"

export {
  /** Now in milliseconds since the epoch, comparable across processes. */
  now,
  /** One request as the server logged it. */
  type Recorded
}

/** Collects the server's request log while on (the ground truth for counts and error 5). */
export class Recorder {
  private on = false
  private readonly entries: Array<Recorded> = []
  readonly record = (entry: ReferenceServer.RequestLogEntry): void => {
    if (this.on) this.entries.push({ at: now(), path: entry.path, outcome: entry.outcome, millis: entry.millis })
  }
  /** Clears the log and starts recording. */
  start(): void {
    this.entries.length = 0
    this.on = true
  }
  /** Stops recording and gives the log. */
  stop(): ReadonlyArray<Recorded> {
    this.on = false
    return [...this.entries]
  }
}

/** A running reference server. */
export interface Reference {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string
  /** `{origin}/external-api/v2`. */
  readonly baseUrl: string
  /** Back to the fixture: state, rate windows, token cache (and no faults). */
  readonly reset: Effect.Effect<void>
  /** Replaces the fault settings (latency, for B2). */
  readonly setFaults: (faults: Faults.FaultSettings) => Effect.Effect<void>
  /** Clears the request log and starts recording. */
  readonly startRecording: Effect.Effect<void>
  /** Stops recording and gives the log. */
  readonly stopRecording: Effect.Effect<ReadonlyArray<Recorded>>
}

/** Serves the reference server with `fixture` on a free loopback port in this process, for the scope. */
export const reference = (fixture: Fixture.Fixture): Effect.Effect<Reference, unknown, Scope.Scope> =>
  Effect.gen(function*() {
    const recorder = new Recorder()
    const context = yield* Layer.build(
      ReferenceServer.layerServe({ port: 0, host: "127.0.0.1", fixture, onRequest: recorder.record })
    )
    const address = Context.get(context, HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("the server is not on TCP")
    const origin = `http://127.0.0.1:${address.port}`
    const service = Context.get(context, ReferenceServer.ReferenceServer)
    return {
      origin,
      baseUrl: `${origin}/external-api/v2`,
      reset: service.reset,
      setFaults: service.setFaults,
      startRecording: Effect.sync(() => recorder.start()),
      stopRecording: Effect.sync(() => recorder.stop())
    }
  })

/** A reference server in a child process: its controls as effects, and as the plain promises. */
export interface Spawned extends Reference {
  readonly controls: ReferenceChild.Controls
}

/**
 * Serves the reference server with a generated fixture in a child process (see `ReferenceChild`),
 * for the scope.
 */
export const spawnReference = (options: BenchFixture.Options): Effect.Effect<Spawned, unknown, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.tryPromise(() => ReferenceChild.spawn(options)),
      (controls) => Effect.sync(() => controls.close())
    ),
    (controls) => ({
      origin: controls.origin,
      baseUrl: controls.baseUrl,
      reset: Effect.promise(controls.reset),
      setFaults: (faults) => Effect.promise(() => controls.setFaults(faults)),
      startRecording: Effect.promise(controls.startRecording),
      stopRecording: Effect.promise(controls.stopRecording),
      controls
    })
  )

/** Serves a bare `node:http` handler that reads the body and answers `body` as JSON, for the scope. */
export const bare = (body: string): Effect.Effect<{ readonly origin: string }, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<Http.Server>((resume) => {
      const payload = Buffer.from(body)
      const server = Http.createServer((req, res) => {
        req.resume()
        req.on("end", () => {
          res.writeHead(200, { "content-type": "application/json", "content-length": payload.length })
          res.end(payload)
        })
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((server) => ({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })))

/**
 * Serves `body` as JSON at `path` with the smallest `@effect/platform` app (a router with one route that
 * reads the request body and answers) on the same Node server layer as the reference server: the floor
 * the platform itself sets.
 */
export const platformMinimal = (
  path: string,
  body: string
): Effect.Effect<{ readonly origin: string }, unknown, Scope.Scope> =>
  Effect.gen(function*() {
    const response = HttpServerResponse.text(body, { contentType: "application/json" })
    // Reads the body like the bare handler does, then answers.
    const app = HttpRouter.empty.pipe(
      HttpRouter.post(
        path as HttpRouter.PathInput,
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => Effect.as(request.text, response))
      )
    )
    const context = yield* Layer.build(
      HttpServer.serve(app).pipe(
        Layer.provideMerge(NodeHttpServer.layer(() => Http.createServer(), { port: 0, host: "127.0.0.1" }))
      )
    )
    const address = Context.get(context, HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("the server is not on TCP")
    return { origin: `http://127.0.0.1:${address.port}` }
  })
