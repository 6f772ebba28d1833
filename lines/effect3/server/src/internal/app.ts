/**
 * The HTTP app of one engine: every operation of the contract at both addresses, errors 1 and 3 for
 * any other path, and the sandbox's control routes. The public service carries it (`Service.app`), so
 * the app serves whichever engine the service it is given was made with; no lookup can miss.
 *
 * @internal
 */
import { Envelope, Operations } from "@community-api/schema"
import type { ApiError, Operation } from "@community-api/schema"
import type { HttpApp } from "@effect/platform"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Context, Effect, Option, Schema } from "effect"
import * as Faults from "../Faults.js"
import * as Body from "./body.js"
import * as ClockRoutes from "./clockRoutes.js"
import { badFaults } from "./control.js"
import * as ControlAnswers from "./controlAnswers.js"
import type { Engine, Outcome, Tenant } from "./engine.js"
import { internalErrorBody } from "./engine.js"
import * as JournalRoutes from "./journalRoutes.js"
import * as PageRoutes from "./page/routes.js"
import * as Params from "./params.js"
import * as Refusal from "./refusal.js"
import * as StateRoutes from "./stateRoutes.js"
import * as TenantRoutes from "./tenantRoutes.js"
import * as Tenants from "./tenants.js"
import * as Texts from "./texts.js"

/**
 * The engine the router's routes serve. The router is built once for every engine; each engine's app
 * gives it its own. Only the router's routes read it: a request to an operation's own address is
 * served without the router (see {@link make}).
 */
class CurrentEngine extends Context.Tag("@community-api/server/internal/app/CurrentEngine")<
  CurrentEngine,
  Engine
>() {}

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
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.succeed(internalErrorBody)
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
    (request) => Effect.flatMap(CurrentEngine, (engine) => serveOperation(request, engine, op, version))
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
  const segments: Array<string> = []
  for (const segment of path.slice(prefix.length).split("/")) {
    const decoded = Texts.decodeSegment(segment)
    if (decoded === undefined) return unknown(Texts.unknownPath)
    segments.push(decoded)
  }
  const [first = ""] = segments
  const versioned = versionPattern.test(first)
  if (versioned && first !== "v2") return unknown(Texts.unknownVersion(first))
  const [section = "", method = "", ...rest] = versioned ? segments.slice(1) : segments
  if (section === "") return unknown(Texts.missingSectionOrMethod)
  if (!Operations.isSection(section)) return unknown(Texts.unknownSection(section))
  if (method === "") return unknown(Texts.missingSectionOrMethod)
  if (rest.length > 0 || Operations.byPath.has(`${section}/${method}`)) return unknown(Texts.unknownPath)
  return Refusal.make(3, Texts.unknownMethod(section, method), shown)
}

const unknownRoute = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const engine = yield* CurrentEngine
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
  route: (engine: Engine) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | CurrentEngine | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.flatMap(CurrentEngine, (engine) => {
      const refused = engine.control.refusal(request.headers["authorization"])
      return refused === undefined
        ? route(engine)
        : Effect.succeed(HttpServerResponse.unsafeJson(Envelope.encodeError({ code: 4, text: refused })))
    }))

const setFaultsRoute = (engine: Engine) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const read = yield* Params.read(request)
    if (read.bodyError !== undefined) return wrongSettings(read.bodyError)
    return yield* Schema.decodeUnknown(Faults.FaultSettings)(read.params, { onExcessProperty: "error" }).pipe(
      Effect.flatMap((faults) => Effect.as(engine.setFaults(faults), ok(faults))),
      Effect.catchAll((error) => Effect.succeed(wrongSettings(badFaults(error))))
    )
  })

/** The router: every route, and errors 1 and 3 for any other path. */
const routerApp: HttpApp.Default<never, CurrentEngine> = HttpRouter.fromIterable(
  Operations.all.flatMap((op) => [
    HttpRouter.makeRoute("*", `/external-api/v2/${op.path}`, operationRoute(op, "v2")),
    HttpRouter.makeRoute("*", `/external-api/${op.path}`, operationRoute(op, "v1"))
  ])
).pipe(
  HttpRouter.post("/_sandbox/faults", controlled(setFaultsRoute)),
  HttpRouter.get("/_sandbox/faults", controlled((engine) => Effect.sync(() => ok(engine.faultSettings())))),
  HttpRouter.post("/_sandbox/reset", controlled((engine) => Effect.as(engine.reset(), ok()))),
  HttpRouter.get("/_sandbox/clock", controlled(ClockRoutes.get)),
  HttpRouter.post("/_sandbox/clock", controlled(ClockRoutes.post)),
  HttpRouter.get("/_sandbox/requests", controlled(JournalRoutes.list)),
  HttpRouter.del("/_sandbox/requests", controlled(JournalRoutes.clear)),
  HttpRouter.get("/_sandbox/limits", controlled(JournalRoutes.limits)),
  HttpRouter.get("/_sandbox/tenants", controlled(TenantRoutes.list)),
  HttpRouter.del("/_sandbox/tenants/:name", controlled(TenantRoutes.drop)),
  HttpRouter.get("/_sandbox/state", controlled(StateRoutes.get)),
  HttpRouter.put("/_sandbox/state", controlled(StateRoutes.put)),
  PageRoutes.routes,
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

/** Tells whether a request may be traced: the platform's span records its URL, so only a known address. */
export const traced = (url: string): boolean =>
  operationPaths.has(url) || url === "/_sandbox/faults" || url === "/_sandbox/reset"

/**
 * The HTTP app of `engine` (see the top of this file), with its tenants: a request that names one
 * (`X-Sandbox-Tenant`, or the path prefix `/_tenants/{name}`) is served by that tenant's own app, made
 * on its first request while there is room.
 */
export const make = (engine: Engine): HttpApp.Default => {
  const own = makeOwn(engine)
  const { makeTenant, tenants } = engine
  if (tenants === undefined || makeTenant === undefined) return own
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const header = request.headers[Tenants.header]
    const named = Tenants.route(request.url, header)
    if (named === undefined) return own
    if (!Tenants.isName(named.name)) return Effect.succeed(ControlAnswers.refused(7, Tenants.badName(named.name)))
    const inner = request.modify({ url: named.url })
    const serve = (tenant: Tenant) => Effect.provideService(tenant.app, HttpServerRequest.HttpServerRequest, inner)
    const found = tenants.find(named.name)
    if (found !== undefined) return serve(found)
    if (!tenants.hasRoom()) return Effect.succeed(ControlAnswers.refused(6, Tenants.full(named.name)))
    return Effect.flatMap(
      makeTenant(),
      (made) => serve(tenants.keep(named.name, { engine: made, app: makeOwn(made) }))
    )
  })
}

/** The HTTP app of `engine` alone. */
const makeOwn = (engine: Engine): HttpApp.Default => {
  const routed = Effect.provideService(routerApp, CurrentEngine, engine)
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const route = operationPaths.get(Params.pathOf(request.url))
    if (route === undefined) return routed
    // As under the router: the route is named on the request span and may be interrupted (client abort).
    return Effect.zipRight(
      Effect.annotateCurrentSpan("http.route", addressOf(route.op, route.version)),
      Effect.interruptible(serveOperation(request, engine, route.op, route.version))
    )
  })
}
