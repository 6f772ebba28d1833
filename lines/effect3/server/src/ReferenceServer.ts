/**
 * The reference server of the API: the whole documented behaviour in memory, served in process (no
 * socket, so `TestClock` drives it), on a real port, or as a web-standard handler
 * (`Request` → `Promise<Response>`) for any runtime, with a control service to seed, inspect and reset
 * its state and to inject faults. Its clock is Effect's `Clock` unless one is given from outside
 * (`Options.clock`, the core's `Clock`), which then drives every reading of the time and every wait.
 *
 * @since 0.1.0
 */
import type * as CoreClock from "@community-api/core/Clock"
import type * as Drift from "@community-api/core/Drift"
import type { HttpApp, HttpClient, HttpServerError } from "@effect/platform"
import { HttpMiddleware, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import type { Redacted } from "effect"
import { Context, Effect, Either, Exit, Layer } from "effect"
import * as Http from "node:http"
import * as Faults from "./Faults.js"
import type * as Fixture from "./Fixture.js"
import * as InProcess from "./InProcess.js"
import * as Answers from "./internal/answers.js"
import * as App from "./internal/app.js"
import * as Body from "./internal/body.js"
import * as Control from "./internal/control.js"
import * as Engines from "./internal/engine.js"
import * as Services from "./internal/service.js"

/**
 * One entry of the request log (the journal): when the request arrived, the path (never the query
 * string, which may carry a token), the operation, the caller's user and the parameters with every
 * secret masked, the error code or `ok` (or `dropped`), and the milliseconds taken. No token ever
 * reaches an entry, wherever the request carried it (header, `api_key` in the body or the query, or
 * any other parameter).
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestLogEntry {
  /** When the request arrived, in milliseconds since the epoch, on the server's clock (`Options.clock`). */
  readonly at: number
  readonly path: string
  /** The operation, `section/method`; absent for a path that names none. */
  readonly operation?: string
  /** The caller's user id, once its token was accepted (never the token). */
  readonly user?: number
  /**
   * The parameters read from the query and the body: `api_key` and any parameter named like a
   * credential masked whole, anything shaped like a token masked where it appears, long values cut
   * short. Absent when the request was answered before its parameters were read.
   */
  readonly params?: Readonly<Record<string, unknown>>
  readonly outcome: number | "ok" | "dropped"
  readonly millis: number
}

/**
 * What {@link Service} `journal` may ask for: every field given must match.
 *
 * @since 0.1.0
 * @category models
 */
export interface JournalFilter {
  /** The operation, `section/method` (`users/me`). */
  readonly operation?: string
  readonly user?: number
  /** The error code, `ok` or `dropped`. */
  readonly outcome?: number | "ok" | "dropped"
  /** Entries that arrived at this time or later, in milliseconds on the server's clock. */
  readonly since?: number
}

/**
 * The request journal: the entries kept that pass a filter, newest last; the ring keeps the last
 * `size` requests, and `dropped` tells how many older ones it let go since it was last cleared.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestJournal {
  readonly size: number
  readonly dropped: number
  readonly entries: ReadonlyArray<RequestLogEntry>
}

/**
 * One counter of a user's limits: the count now, the limit, and when the count is back to zero, in
 * milliseconds since the epoch: the end of the minute or the day; for the second, when the newest
 * request counted leaves the sliding window (now, when none is counted).
 *
 * @since 0.1.0
 * @category models
 */
export interface LimitCount {
  readonly count: number
  readonly limit: number
  readonly resetsAt: number
}

/**
 * A user's limits at one time: the requests of the last second (on the clock of the request rate,
 * `Options.rateClock` when given), and the creations of the current minute and of the day from 03:00
 * Moscow time (on the server's clock).
 *
 * @since 0.1.0
 * @category models
 */
export interface UserLimits {
  readonly user: number
  readonly second: LimitCount
  readonly minute: LimitCount
  readonly day: LimitCount
}

/**
 * What a test may ask for when it issues a token with {@link ReferenceServer} `issueToken`.
 *
 * @since 0.1.0
 * @category options
 */
export interface IssueTokenOptions {
  readonly user_id: number
  readonly kind?: "personal" | "application" | "accountKey"
  readonly validity?: Fixture.Validity
  readonly product?: "this" | "other"
  readonly client_id?: string
}

/**
 * The reference server: its control service and its HTTP app, both over one state. {@link make} builds
 * one; a service built by hand from the members of one made by {@link make} (to count or wrap a
 * control, say) serves as well: the HTTP app is a member, not something looked up.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Back to the fixture the server was built with (or last loaded): state, faults, caches, counters. */
  readonly reset: Effect.Effect<void>
  /** Replaces the fixture and resets to it. */
  readonly load: (fixture: Fixture.Fixture) => Effect.Effect<void>
  /** Replaces the fault settings (their counters and generators restart). */
  readonly setFaults: (faults: Faults.FaultSettings) => Effect.Effect<void>
  /** Turns every fault off. */
  readonly clearFaults: Effect.Effect<void>
  /** The current fault settings. */
  readonly faults: Effect.Effect<Faults.FaultSettings>
  /** The current state, in the fixture's shape. */
  readonly snapshot: Effect.Effect<Fixture.Fixture>
  /** Revokes a token; a token validated in the last 60 s keeps working until its cache entry ages out. */
  readonly revokeToken: (token: string) => Effect.Effect<void>
  /** Issues a token at the server's current time and returns it (for validity tests). */
  readonly issueToken: (options: IssueTokenOptions) => Effect.Effect<string>
  /** Requests answered since the last reset. */
  readonly requestCount: Effect.Effect<number>
  /** The last (at most 1000) requests answered. */
  readonly recentRequests: Effect.Effect<ReadonlyArray<RequestLogEntry>>
  /**
   * The request journal: the last (at most 1000) requests answered that pass `filter` (all of them
   * when omitted), newest last, and how many older ones were dropped. What `GET /_sandbox/requests`
   * answers.
   */
  readonly journal: (filter?: JournalFilter) => Effect.Effect<RequestJournal>
  /** Empties the journal and its dropped count (`DELETE /_sandbox/requests`); `requestCount` stays. */
  readonly clearJournal: Effect.Effect<void>
  /**
   * The limits of `user` now (what `GET /_sandbox/limits?user=` answers); when omitted, those of every
   * user with something counted, by user id.
   */
  readonly limits: (user?: number) => Effect.Effect<ReadonlyArray<UserLimits>>
  /**
   * The server's HTTP app over this state: what {@link httpApp} serves for the service in context, and
   * {@link toWebHandler} as a web-standard handler.
   */
  readonly app: HttpApp.Default
}

/**
 * The reference server's service. Its controls at work: the example of {@link make}.
 *
 * @since 0.1.0
 * @category tags
 */
export class ReferenceServer extends Context.Tag("@community-api/server/ReferenceServer")<ReferenceServer, Service>() {}

/**
 * The control token of the sandbox's control routes when none is given: a fixed demo value, printed
 * by the sandbox at start like the demo tokens. Anyone who can read this source knows it: give the
 * server another (`controlToken`, or the sandbox's `--control-token`) when its port is reachable by
 * others.
 *
 * @since 0.1.0
 * @category constants
 */
export const demoControlToken: string = Control.demoControlToken

/**
 * Options of the server.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** The state to start from; the demo fixture when omitted. */
  readonly fixture?: Fixture.Fixture
  /** Faults on from the start. */
  readonly faults?: Faults.FaultSettings
  /**
   * A declared drift of the answers (`Drift` of the core: a field renamed, removed, added or given
   * another value, an undeclared error code, for named operations), for the sandbox's world and every
   * tenant of it; none when omitted.
   */
  readonly drift?: Drift.Drift
  /**
   * Declared answers (`Faults.UndocumentedAnswers`): for an undocumented reading operation the server
   * does not model, the `response` it answers, after authentication, access, limits and the
   * parameters as for any operation, instead of error 6; in the sandbox's world and every tenant of
   * it. An operation that may not have one (not in the contract, documented, not only reading, or
   * modelled) stops the server being made, with `Faults.UndocumentedAnswersError` as its defect.
   */
  readonly undocumentedAnswers?: Faults.UndocumentedAnswers
  /** Called with one line per request (the sandbox prints it). */
  readonly onRequest?: (entry: RequestLogEntry) => void
  /**
   * The token the control routes (`/_sandbox/faults`, `/_sandbox/reset`) ask for, as
   * `Authorization: Bearer <token>`; {@link demoControlToken} when omitted.
   */
  readonly controlToken?: string | Redacted.Redacted<string>
  /**
   * The server's clock, given from outside: the time it reads (token validity and cache, the request
   * rate, the creation minute and day, the log's milliseconds, issued tokens) and the waits it schedules
   * (injected latency) are this clock's. When omitted, the Effect `Clock` of the fiber that runs each
   * request, so `TestClock` drives it in a test. A manual clock (`Clock.manual` of the core) is also
   * turned by the control route `POST /_sandbox/clock` (`{"advance": ms}` or `{"set": instant}`); with
   * any other, that route answers error 6.
   */
  readonly clock?: CoreClock.Clock
  /**
   * The clock of a request's pace, when it should not be {@link Options.clock}: the per-second request
   * rate, the injected latency and the log's milliseconds follow it; the creation minute and day, the
   * token cache and the times of objects stay on `clock`. The sandbox's `--clock manual` gives the
   * system's clock here (unless `--rate-clock manual`), so that a client pacing on the real time keeps
   * working while the sandbox's time stands still. When omitted, `clock` drives these too.
   */
  readonly rateClock?: CoreClock.Clock
}

/**
 * Whether declared answers (`Options.undocumentedAnswers`) name only operations that may have one:
 * undocumented, only reading and not modelled. The server checks them so when it is made; a program
 * that takes them from a user (the sandbox's `--answers`) checks first, to say what is wrong.
 *
 * @since 0.1.0
 * @category utils
 */
export const checkUndocumentedAnswers = (
  answers: Faults.UndocumentedAnswers
): Either.Either<Faults.UndocumentedAnswers, Faults.UndocumentedAnswersError> =>
  Either.map(Answers.check(answers), () => answers)

/**
 * Makes the server's state, its control service and its HTTP app.
 *
 * @example
 * ```ts
 * import { DemoFixture, InProcess, ReferenceServer } from "@community-api/server"
 * import { HttpClientRequest } from "@effect/platform"
 * import { Effect } from "effect"
 * import { deepStrictEqual, strictEqual } from "node:assert"
 *
 * // A server in hand, an `HttpClient` into its app, and the controls a test drives it with.
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.make()
 *   const http = yield* InProcess.makeHttpClient(server.app)
 *   const me = (token: string) =>
 *     http.execute(
 *       HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/users/me`).pipe(HttpClientRequest.bearerToken(token))
 *     ).pipe(Effect.flatMap((response) => response.json), Effect.scoped) as Effect.Effect<{ error_code?: number }, unknown>
 *   // Faults: the next request is answered with error 9.
 *   yield* server.setFaults({ keyServiceUnavailable: { next: 1 } })
 *   deepStrictEqual(yield* server.faults, { keyServiceUnavailable: { next: 1 } })
 *   strictEqual((yield* me(DemoFixture.tokens.owner)).error_code, 9)
 *   yield* server.clearFaults
 *   // Tokens: one issued now and revoked before its first use: error 4 (a token in use stays valid up to 60 s).
 *   const token = yield* server.issueToken({ user_id: DemoFixture.userIds.owner })
 *   yield* server.revokeToken(token)
 *   strictEqual((yield* me(token)).error_code, 4)
 *   // What was asked: the count, the last requests, the journal, each user's limits.
 *   strictEqual(yield* server.requestCount, 2)
 *   strictEqual((yield* server.recentRequests).length, 2)
 *   strictEqual((yield* server.journal({ outcome: 9 })).entries.length, 1)
 *   yield* server.clearJournal
 *   strictEqual((yield* server.journal()).entries.length, 0)
 *   strictEqual((yield* server.limits(DemoFixture.userIds.owner)).length, 1)
 *   // The state: a snapshot, loaded back, and a reset to the fixture the server was made with.
 *   yield* server.load(yield* server.snapshot)
 *   yield* server.reset
 *   strictEqual(yield* server.requestCount, 0)
 * })
 *
 * await Effect.runPromise(program)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<Service> => Effect.map(Engines.make(options), Services.make)

/**
 * The server with `options` (the demo fixture by default).
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@community-api/server"
 * import { Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The server alone, and an `HttpClient` into it beside (what `layerTest` merges).
 * const server = ReferenceServer.layer()
 * const clientAndServer = Layer.provideMerge(ReferenceServer.layerInProcessClient, server)
 *
 * const count = await Effect.runPromise(
 *   Effect.flatMap(ReferenceServer.ReferenceServer, (server) => server.requestCount).pipe(
 *     Effect.provide(clientAndServer)
 *   )
 * )
 * strictEqual(count, 0)
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<ReferenceServer> =>
  Layer.effect(ReferenceServer, make(options))

/**
 * The HTTP app: every operation of the contract at `/external-api/v2/{section}/{method}` and at the
 * unversioned `/external-api/{section}/{method}`; errors 1 and 3 for any other path; and
 * the sandbox's control routes: `POST /_sandbox/faults` (body: {@link Faults.FaultSettings}, `{}`
 * turns faults off), `GET /_sandbox/faults`, `POST /_sandbox/reset`, `GET /_sandbox/clock`,
 * `POST /_sandbox/clock` (a manual `Options.clock` only), `GET`/`DELETE /_sandbox/requests` (the
 * journal), `GET /_sandbox/limits`, `GET`/`PUT /_sandbox/state` (snapshots), each with the control token
 * (`Options.controlToken`) as `Authorization: Bearer <token>`, else error 4. Every answer is HTTP 200.
 * It serves the `app` of the {@link ReferenceServer} in context.
 *
 * @example
 * ```ts
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The app of the server in context, answering one web request, as any `@effect/platform` server would have it.
 * const request = new Request(`${ReferenceServer.inProcessBaseUrl}/users/me`, {
 *   method: "POST",
 *   headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
 * })
 * const response = await Effect.runPromise(
 *   ReferenceServer.httpApp.pipe(
 *     Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(request)),
 *     Effect.provide(ReferenceServer.layer()),
 *     Effect.scoped
 *   )
 * )
 * strictEqual(HttpServerResponse.toWeb(response).status, 200)
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const httpApp: HttpApp.Default<never, ReferenceServer> = Effect.flatMap(ReferenceServer, (server) => server.app)

/**
 * A web-standard request handler: takes a `Request`, answers a `Promise<Response>`.
 *
 * @since 0.1.0
 * @category models
 */
export type WebHandler = (request: Request) => Promise<Response>

/**
 * The server with `options` as a {@link WebHandler}, for a runtime other than Effect's (a test runner,
 * a worker, a framework's route): the routes and answers of {@link httpApp}. Each request runs on its
 * own fiber of Effect's default runtime, so give `options.clock` to drive the time from outside
 * (`Clock.manual` in a test); without it, the system's time. A request whose signal aborts is
 * interrupted; a dropped connection (the `dropConnection` fault) answers `Response.error()`, the
 * web's network error, which `fetch` turns into a rejection. The control routes are the way to seed
 * faults or reset the state through the handler.
 *
 * @example
 * ```ts
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { strictEqual } from "node:assert"
 *
 * const handler = ReferenceServer.toWebHandler()
 * const response = await handler(
 *   new Request(`${ReferenceServer.inProcessBaseUrl}/users/me`, {
 *     method: "POST",
 *     headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
 *   })
 * )
 * strictEqual(response.status, 200)
 * strictEqual((await response.json()).status, "ok")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const toWebHandler = (options: Options = {}): WebHandler => toWebServer(options).handler

/**
 * The controls of a server run outside Effect ({@link toWebServer}): the members of {@link Service},
 * each run at once on the server's state, with no Effect in their types.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebControls {
  readonly reset: () => void
  readonly load: (fixture: Fixture.Fixture) => void
  readonly setFaults: (faults: Faults.FaultSettings) => void
  readonly clearFaults: () => void
  readonly faults: () => Faults.FaultSettings
  readonly snapshot: () => Fixture.Fixture
  readonly revokeToken: (token: string) => void
  readonly issueToken: (options: IssueTokenOptions) => string
  readonly requestCount: () => number
  readonly recentRequests: () => ReadonlyArray<RequestLogEntry>
  readonly journal: (filter?: JournalFilter) => RequestJournal
  readonly clearJournal: () => void
  readonly limits: (user?: number) => ReadonlyArray<UserLimits>
}

/**
 * A server for a runtime other than Effect's: its {@link WebHandler}, and its controls.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebServer {
  readonly handler: WebHandler
  readonly controls: WebControls
}

/**
 * The server with `options` as a {@link WebHandler} with its controls, for a runtime other than
 * Effect's: a test of the Effect 4 line drives it so, on its own clock (`options.clock`).
 *
 * @example
 * ```ts
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { strictEqual } from "node:assert"
 *
 * const { controls, handler } = ReferenceServer.toWebServer()
 * await handler(
 *   new Request(`${ReferenceServer.inProcessBaseUrl}/users/me`, {
 *     method: "POST",
 *     headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
 *   })
 * )
 * strictEqual(controls.requestCount(), 1)
 * controls.reset()
 * strictEqual(controls.requestCount(), 0)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const toWebServer = (options: Options = {}): WebServer => {
  const service = Effect.runSync(make(options))
  const { app } = service
  const handler: WebHandler = (request) =>
    new Promise((resolve) => {
      const fiber = Effect.runFork(
        Effect.provideService(app, HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(request))
      )
      const abort = () => fiber.unsafeInterruptAsFork(fiber.id())
      if (request.signal.aborted) abort()
      else request.signal.addEventListener("abort", abort, { once: true })
      fiber.addObserver((exit) => {
        request.signal.removeEventListener("abort", abort)
        resolve(Exit.isSuccess(exit) ? HttpServerResponse.toWeb(exit.value) : Response.error())
      })
    })
  return {
    handler,
    controls: {
      reset: () => Effect.runSync(service.reset),
      load: (fixture) => Effect.runSync(service.load(fixture)),
      setFaults: (faults) => Effect.runSync(service.setFaults(faults)),
      clearFaults: () => Effect.runSync(service.clearFaults),
      faults: () => Effect.runSync(service.faults),
      snapshot: () => Effect.runSync(service.snapshot),
      revokeToken: (token) => Effect.runSync(service.revokeToken(token)),
      issueToken: (issue) => Effect.runSync(service.issueToken(issue)),
      requestCount: () => Effect.runSync(service.requestCount),
      recentRequests: () => Effect.runSync(service.recentRequests),
      journal: (filter) => Effect.runSync(service.journal(filter)),
      clearJournal: () => Effect.runSync(service.clearJournal),
      limits: (user) => Effect.runSync(service.limits(user))
    }
  }
}

/**
 * The base URL clients use with {@link layerInProcessClient}.
 *
 * @since 0.1.0
 * @category constants
 */
export const inProcessBaseUrl = "http://reference.local/external-api/v2"

/**
 * An `HttpClient` whose requests go straight into {@link httpApp} (no socket).
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@community-api/server"
 * import { HttpClient } from "@effect/platform"
 * import { Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A server with a fixture of its own state and faults, and an `HttpClient` into it.
 * const server = ReferenceServer.layer({ faults: { keyServiceUnavailable: { next: 1 } } })
 * const layer = Layer.provideMerge(ReferenceServer.layerInProcessClient, server)
 *
 * const status = Effect.gen(function*() {
 *   const http = yield* HttpClient.HttpClient
 *   const response = yield* http.post(`${ReferenceServer.inProcessBaseUrl}/users/me`)
 *   return (yield* response.json) as { error_code: number }
 * })
 *
 * strictEqual((await Effect.runPromise(status.pipe(Effect.scoped, Effect.provide(layer)))).error_code, 9)
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerInProcessClient: Layer.Layer<HttpClient.HttpClient, never, ReferenceServer> = InProcess
  .layerHttpClient(httpApp)

/**
 * The server and an in-process `HttpClient` to it: what a test needs.
 *
 * @example
 * ```ts
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { HttpClient, HttpClientRequest } from "@effect/platform"
 * import { Effect } from "effect"
 * import { deepStrictEqual, strictEqual } from "node:assert"
 *
 * // A call of the API as any client sends it: `POST {base}/users/me` with the token.
 * const me = Effect.gen(function*() {
 *   const client = yield* HttpClient.HttpClient
 *   const response = yield* client.execute(
 *     HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/users/me`).pipe(
 *       HttpClientRequest.bearerToken(DemoFixture.tokens.owner)
 *     )
 *   )
 *   strictEqual(response.status, 200)
 *   return yield* response.json
 * })
 *
 * const body = await Effect.runPromise(me.pipe(Effect.scoped, Effect.provide(ReferenceServer.layerTest())))
 * deepStrictEqual((body as { status: string }).status, "ok")
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTest = (options: Options = {}): Layer.Layer<ReferenceServer | HttpClient.HttpClient> =>
  Layer.provideMerge(layerInProcessClient, layer(options))

/**
 * What {@link layerServe} uses for an option not given.
 *
 * @since 0.1.0
 * @category constants
 */
export const serveDefaults = {
  port: 8787,
  host: "127.0.0.1",
  headersTimeout: 10_000,
  bodyTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxConnections: 1_000
} as const

/**
 * Options of {@link layerServe}. Every time is in milliseconds; the defaults are {@link serveDefaults}.
 *
 * @since 0.1.0
 * @category options
 */
export interface ServeOptions extends Options {
  /** 8787 when omitted; 0 takes any free port (read it from `HttpServer.HttpServer`'s `address`). */
  readonly port?: number
  /** `127.0.0.1` (loopback only) when omitted. */
  readonly host?: string
  /**
   * How long a connection may take to send a request's headers, from its first byte or, for a new
   * connection, from its opening: a socket that sends nothing is closed after it. At most
   * `bodyTimeout`.
   */
  readonly headersTimeout?: number
  /**
   * How long a request may take to arrive whole, headers and body: a body that stalls is dropped with
   * its socket (and the memory it held) after it. Node.js's `requestTimeout`.
   */
  readonly bodyTimeout?: number
  /** How long a connection may stay idle between requests. */
  readonly keepAliveTimeout?: number
  /** The most connections open at once; a connection past it is closed as soon as it opens. */
  readonly maxConnections?: number
}

/** The Node.js server with the timeouts and the connection cap of `options`. */
const nodeServer = (options: ServeOptions) => (): Http.Server => {
  const bodyTimeout = options.bodyTimeout ?? serveDefaults.bodyTimeout
  // Node.js refuses a header timeout longer than the whole request's.
  const headersTimeout = Math.min(options.headersTimeout ?? serveDefaults.headersTimeout, bodyTimeout)
  const server = Http.createServer({
    headersTimeout,
    requestTimeout: bodyTimeout,
    // Node.js looks for expired requests on this period: a tenth of the shortest timeout, at most 1 s.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 10)))
  })
  server.keepAliveTimeout = options.keepAliveTimeout ?? serveDefaults.keepAliveTimeout
  server.maxConnections = options.maxConnections ?? serveDefaults.maxConnections
  return server
}

/**
 * Serves {@link httpApp} on a real port with `@effect/platform-node`: the state is built before the
 * port opens; a connection that sends no complete request in time, or stays idle, is closed; bodies
 * still arriving share a bounded memory budget; at most `maxConnections` are open at once.
 *
 * @example
 * ```ts
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { HttpServer } from "@effect/platform"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The server on a free port of the loopback interface, for a program in another process or language.
 * const program = Effect.gen(function*() {
 *   const { address } = yield* HttpServer.HttpServer
 *   const port = address._tag === "TcpAddress" ? address.port : 0
 *   const response = yield* Effect.promise(() =>
 *     fetch(`http://127.0.0.1:${port}/external-api/v2/users/me`, {
 *       method: "POST",
 *       headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
 *     })
 *   )
 *   strictEqual(response.status, 200)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(ReferenceServer.layerServe({ port: 0 })), Effect.scoped))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerServe = (
  options: ServeOptions = {}
): Layer.Layer<ReferenceServer | HttpServer.HttpServer, HttpServerError.ServeError> =>
  HttpServer.serve(httpApp).pipe(
    // The platform's request span records the full URL: only an operation's or a control route's own
    // address, with no query string (`api_key`), is traced; any other path may carry anything.
    HttpMiddleware.withTracerDisabledWhen((request) => !App.traced(request.url)),
    Layer.provide(Layer.sync(Body.Budget, () => new Body.BodyBudget(Body.budgetBytes))),
    Layer.provideMerge(
      NodeHttpServer.layer(nodeServer(options), {
        port: options.port ?? serveDefaults.port,
        host: options.host ?? serveDefaults.host
      })
    ),
    Layer.provideMerge(layer(options))
  )
