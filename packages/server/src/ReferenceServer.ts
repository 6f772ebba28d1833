/**
 * The reference server of the API: the whole documented behaviour in memory, served in process (no
 * socket, so `TestClock` drives it) or on a real port, with a control service to seed, inspect and
 * reset its state and to inject faults.
 *
 * @since 0.1.0
 */
import { Envelope, Operations } from "@community-api/schema"
import type { ApiError, Operation } from "@community-api/schema"
import type { HttpApp, HttpClient, HttpServerError } from "@effect/platform"
import { HttpMiddleware, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Cause, Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import * as Http from "node:http"
import * as DemoFixture from "./DemoFixture.js"
import * as Faults from "./Faults.js"
import type * as Fixture from "./Fixture.js"
import * as InProcess from "./InProcess.js"
import * as Body from "./internal/body.js"
import { badFaults, ControlToken } from "./internal/control.js"
import type { Engine, LogEntry, Outcome } from "./internal/engine.js"
import * as Engines from "./internal/engine.js"
import * as Params from "./internal/params.js"
import * as Refusal from "./internal/refusal.js"
import * as Texts from "./internal/texts.js"

/**
 * One line of the request log: the path (never the query string, which may carry a token), the
 * error code or `ok` (or `dropped`), and the milliseconds taken.
 *
 * @since 0.1.0
 * @category models
 */
export type RequestLogEntry = LogEntry

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
 * The control service of the reference server.
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
  /** Issues a token at the current `Clock` time and returns it (for validity tests). */
  readonly issueToken: (options: IssueTokenOptions) => Effect.Effect<string>
  /** Requests answered since the last reset. */
  readonly requestCount: Effect.Effect<number>
  /** The last (at most 1000) requests answered. */
  readonly recentRequests: Effect.Effect<ReadonlyArray<RequestLogEntry>>
}

/**
 * The control service of the reference server.
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
export const demoControlToken = "sandbox_control_demo_5e1b7c3a9d2f4068"

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
  /** Called with one line per request (the sandbox prints it). */
  readonly onRequest?: (entry: RequestLogEntry) => void
  /**
   * The token the control routes (`/_sandbox/faults`, `/_sandbox/reset`) ask for, as
   * `Authorization: Bearer <token>`; {@link demoControlToken} when omitted.
   */
  readonly controlToken?: string | Redacted.Redacted<string>
}

/**
 * Makes the server's state and control service.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<Service> =>
  Effect.gen(function*() {
    const lock = yield* Effect.makeSemaphore(1)
    const controlToken = options.controlToken ?? demoControlToken
    const engine = new Engines.Engine(
      options.fixture ?? DemoFixture.demoFixture,
      lock,
      options.onRequest,
      new ControlToken(Redacted.isRedacted(controlToken) ? controlToken : Redacted.make(controlToken))
    )
    if (options.faults !== undefined) yield* engine.setFaults(options.faults)
    let issued = 0
    const service: Service = {
      reset: engine.reset(),
      load: (fixture) => engine.load(fixture),
      setFaults: (faults) => engine.setFaults(faults),
      clearFaults: engine.setFaults(Faults.none),
      faults: Effect.sync(() => engine.faultSettings()),
      snapshot: engine.snapshot(),
      revokeToken: (token) =>
        engine.modify((store) => {
          const found = store.tokens.get(token)
          if (found !== undefined) found.revoked = true
        }),
      issueToken: (issue) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          engine.modify((store) => {
            const kind = issue.kind ?? "personal"
            const serial = `${(++issued).toString(16).padStart(8, "0")}${now.toString(16).padStart(12, "0")}`
            const token = kind === "accountKey"
              ? `acc${serial}`
              : `${kind === "application" ? "tha_" : "thp_"}issued${serial}`
            store.tokens.set(token, {
              token,
              user_id: issue.user_id,
              kind,
              product: issue.product ?? "this",
              client_id: issue.client_id ?? (kind === "application" ? "app-issued" : "personal"),
              validity: issue.validity ?? "none",
              issued_at: Math.floor(now / 1000),
              revoked: false
            })
            return token
          })),
      requestCount: Effect.sync(() => engine.requestCount()),
      recentRequests: Effect.sync(() => engine.recentRequests())
    }
    // The HTTP app finds the engine through the service; the service itself exposes only the controls.
    return Engines.register(service, engine)
  })

/**
 * The server with `options` (the demo fixture by default).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<ReferenceServer> =>
  Layer.effect(ReferenceServer, make(options))

const respond = (request: HttpServerRequest.HttpServerRequest, outcome: Outcome) => {
  const socket = (request.source as { readonly socket?: { destroy?: () => void; destroyed?: boolean } } | null)
    ?.socket
  // A socket already closed (a body that stalled past the body timeout, say) gets no answer: the platform
  // would wait for a write to it to finish, which never happens, and keep the request's fiber forever.
  if (outcome._tag === "Body" && socket?.destroyed !== true) {
    return Effect.succeed(HttpServerResponse.unsafeJson(outcome.body))
  }
  // A dropped connection: on a real port destroy the socket; in process the bridge sees the interruption.
  socket?.destroy?.()
  return Effect.interrupt
}

/** Any failure inside the pipeline answers 101 with no internals; interruption (a drop) passes. */
const guarded = (effect: Effect.Effect<Outcome>) =>
  effect.pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.succeed(Engines.internalErrorBody)
    )
  )

/** The address of an operation, as the request log and the request span name it. */
const addressOf = (op: Operation.Any, version: "v1" | "v2") =>
  `/external-api/${version === "v2" ? "v2/" : ""}${op.path}`

/**
 * Answers a request routed to an operation. The request log names the operation's own address, never
 * the path as sent: the router also matches percent-escaped forms of it.
 */
const serveOperation = (
  request: HttpServerRequest.HttpServerRequest,
  engine: Engine,
  op: Operation.Any,
  version: "v1" | "v2"
) =>
  Effect.flatMap(
    guarded(engine.handle({
      op,
      version,
      method: request.method,
      authorization: request.headers["authorization"],
      params: Effect.flatMap(
        Effect.serviceOption(Body.Budget),
        (budget) => Params.read(request, Option.getOrUndefined(budget))
      )
    }, addressOf(op, version))),
    (outcome) => respond(request, outcome)
  )

const operationRoute = (op: Operation.Any, version: "v1" | "v2") =>
  Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request) =>
      Effect.flatMap(ReferenceServer, (server) => serveOperation(request, Engines.engineOf(server), op, version))
  )

const versionPattern = /^v\d+$/i

/**
 * Errors 1 and 3 for a path that names no operation. Segments are compared percent-decoded
 * (as the router matches them), and a text quotes one only when it may be shown (`Texts.shownPath`).
 */
const classify = (path: string, shown: string): ApiError.ErrorOf<1 | 3> => {
  const unknown = (text: string) => Refusal.make(1, text, shown)
  const prefix = "/external-api/"
  if (!path.startsWith(prefix)) {
    return unknown(path === "/external-api" ? Texts.missingSectionOrMethod : Texts.unknownPath)
  }
  const decoded = path.slice(prefix.length).split("/").map(Texts.decodeSegment)
  if (decoded.includes(undefined)) return unknown(Texts.unknownPath)
  let segments = decoded as Array<string>
  if (versionPattern.test(segments[0]!)) {
    if (segments[0] !== "v2") return unknown(Texts.unknownVersion(segments[0]!))
    segments = segments.slice(1)
  }
  const [section = "", method = "", ...rest] = segments
  if (section === "") return unknown(Texts.missingSectionOrMethod)
  if (!Operations.isSection(section)) return unknown(Texts.unknownSection(section))
  if (method === "") return unknown(Texts.missingSectionOrMethod)
  if (rest.length > 0 || Operations.byPath.has(`${section}/${method}`)) return unknown(Texts.unknownPath)
  return Refusal.make(3, Texts.unknownMethod(section, method), shown)
}

const unknownRoute = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const engine = Engines.engineOf(yield* ReferenceServer)
  const path = Params.pathOf(request.url)
  const shown = Texts.shownPath(path)
  const outcome = yield* guarded(engine.routingError(shown, classify(path, shown)))
  return yield* respond(request, outcome)
})

// The control routes are no operations of the contract, so their answers have no schema to encode
// with; they only take the envelope's shape, and their errors are the contract's error envelope.
const ok = (response?: unknown) =>
  HttpServerResponse.unsafeJson(response === undefined ? { status: "ok" } : { status: "ok", response })

const wrongSettings = (text: string) => HttpServerResponse.unsafeJson(Envelope.encodeError({ code: 7, text }))

/** A control route, answered only with the control token (else 4, the body unread). */
const controlled = <E, R>(
  route: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | ReferenceServer | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.flatMap(ReferenceServer, (server) => {
      const refused = Engines.engineOf(server).control.refusal(request.headers["authorization"])
      return refused === undefined
        ? route
        : Effect.succeed(HttpServerResponse.unsafeJson(Envelope.encodeError({ code: 4, text: refused })))
    }))

const setFaultsRoute = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const server = yield* ReferenceServer
  const read = yield* Params.read(request)
  if (read.bodyError !== undefined) return wrongSettings(read.bodyError)
  return yield* Schema.decodeUnknown(Faults.FaultSettings)(read.params, { onExcessProperty: "error" }).pipe(
    Effect.flatMap((faults) => Effect.as(server.setFaults(faults), ok(faults))),
    Effect.catchAll((error) => Effect.succeed(wrongSettings(badFaults(error))))
  )
})

/** The router: every route, and errors 1 and 3 for any other path. */
const routerApp: HttpApp.Default<never, ReferenceServer> = HttpRouter.fromIterable(
  Operations.all.flatMap((op) => [
    HttpRouter.makeRoute("*", `/external-api/v2/${op.path}`, operationRoute(op, "v2")),
    HttpRouter.makeRoute("*", `/external-api/${op.path}`, operationRoute(op, "v1"))
  ])
).pipe(
  HttpRouter.post("/_sandbox/faults", controlled(setFaultsRoute)),
  HttpRouter.get("/_sandbox/faults", controlled(Effect.map(Effect.flatMap(ReferenceServer, (s) => s.faults), ok))),
  HttpRouter.post("/_sandbox/reset", controlled(Effect.as(Effect.flatMap(ReferenceServer, (s) => s.reset), ok()))),
  HttpRouter.all("*", unknownRoute),
  // Paths are matched exactly: `Users/ME`, `V2` or a trailing slash name no operation (V2, V3).
  HttpRouter.withRouterConfig({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false }),
  Effect.catchAll(() =>
    Effect.succeed(HttpServerResponse.unsafeJson(Envelope.encodeError({ code: 1, text: Texts.unknownPath })))
  )
)

/**
 * The path of every operation, exactly as written (no `%`, `;` or `#`), at both addresses: a request
 * whose path is one of these is routed without the router, which would match it the same way (case-
 * sensitive, no trailing or doubled slash) but copies the request context and finds the route anew.
 */
const operationPaths = new Map<string, { readonly op: Operation.Any; readonly version: "v1" | "v2" }>(
  Operations.all.flatMap((op) => [
    [`/external-api/v2/${op.path}`, { op, version: "v2" }],
    [`/external-api/${op.path}`, { op, version: "v1" }]
  ])
)

/**
 * The HTTP app: every operation of the contract at `/external-api/v2/{section}/{method}` and at the
 * unversioned `/external-api/{section}/{method}`; errors 1 and 3 for any other path; and
 * the sandbox's control routes: `POST /_sandbox/faults` (body: {@link Faults.FaultSettings}, `{}`
 * turns faults off), `GET /_sandbox/faults`, `POST /_sandbox/reset`, each with the control token
 * (`Options.controlToken`) as `Authorization: Bearer <token>`, else error 4. Every answer is HTTP 200.
 *
 * @since 0.1.0
 * @category constants
 */
export const httpApp: HttpApp.Default<never, ReferenceServer> = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const route = operationPaths.get(Params.pathOf(request.url))
    if (route === undefined) return routerApp
    // As under the router: the route is named on the request span and may be interrupted (client abort).
    return Effect.flatMap(ReferenceServer, (server) =>
      Effect.zipRight(
        Effect.annotateCurrentSpan("http.route", addressOf(route.op, route.version)),
        Effect.interruptible(serveOperation(request, Engines.engineOf(server), route.op, route.version))
      ))
  }
)

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
 * @since 0.1.0
 * @category layers
 */
export const layerInProcessClient: Layer.Layer<HttpClient.HttpClient, never, ReferenceServer> = InProcess
  .layerHttpClient(httpApp)

/**
 * The server and an in-process `HttpClient` to it: what a test needs.
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

/** Tells whether a request may be traced: the platform's span records its URL, so only a known address. */
const traced = (url: string): boolean =>
  operationPaths.has(url) || url === "/_sandbox/faults" || url === "/_sandbox/reset"

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
 * @since 0.1.0
 * @category layers
 */
export const layerServe = (
  options: ServeOptions = {}
): Layer.Layer<ReferenceServer | HttpServer.HttpServer, HttpServerError.ServeError> =>
  HttpServer.serve(httpApp).pipe(
    // The platform's request span records the full URL: only an operation's or a control route's own
    // address, with no query string (`api_key`), is traced; any other path may carry anything.
    HttpMiddleware.withTracerDisabledWhen((request) => !traced(request.url)),
    Layer.provide(Layer.sync(Body.Budget, () => new Body.BodyBudget(Body.budgetBytes))),
    Layer.provideMerge(
      NodeHttpServer.layer(nodeServer(options), {
        port: options.port ?? serveDefaults.port,
        host: options.host ?? serveDefaults.host
      })
    ),
    Layer.provideMerge(layer(options))
  )
