/**
 * The reference server in process, for the tests of a service on Effect 4: the same server as the
 * Effect 3 line's and the sandbox's (its engine, bundled with the Effect 3 runtime it runs on, out of
 * the way of the service's own `effect`), reached through its web-standard handler and driven by
 * this line's clock: under `TestClock`, its time (token validity, the request rate, the creation
 * minute and day) and its waits (injected latency) move only when the test moves the clock.
 *
 * @example
 * ```ts
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 *
 * const me = HttpClient.HttpClient.pipe(
 *   Effect.flatMap((client) => client.post(`${ReferenceServer.inProcessBaseUrl}/users/me`)),
 *   Effect.provide(ReferenceServer.layerTest())
 * )
 * ```
 *
 * @since 0.1.0
 */
import type * as CoreClock from "@community-api/core/Clock"
import type * as DemoData from "@community-api/core/DemoData"
import { Clock, Context, Effect, Fiber, Layer } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import * as Engine from "../engine/engine.js"

/**
 * Options of the server: the state it starts from, faults on from the start, a line per request,
 * the control routes' token. The clock is this line's (see {@link clockOf}).
 *
 * @since 0.1.0
 * @category models
 */
export type Options = Omit<Engine.Options, "clock">

/**
 * A web-standard handler: a `Request` in, a `Promise` of its `Response` out.
 *
 * @since 0.1.0
 * @category models
 */
export type WebHandler = (request: Request) => Promise<Response>

/**
 * The base URL a client uses to reach the server of {@link layerTest}.
 *
 * @since 0.1.0
 * @category constants
 */
export const inProcessBaseUrl: string = Engine.inProcessBaseUrl

/**
 * The token of the sandbox's control routes (`/_sandbox/faults`, `/_sandbox/reset`) when none is
 * given.
 *
 * @since 0.1.0
 * @category constants
 */
export const demoControlToken: string = Engine.demoControlToken

/**
 * The server's clock over this line's `Clock` of the calling fiber, and how many of its waits are
 * pending.
 *
 * @since 0.1.0
 * @category models
 */
export interface ServerClock extends CoreClock.Clock {
  /** How many waits the server has scheduled that have not ended. */
  readonly pending: () => number
}

/**
 * The server's clock from this line's `Clock` of the calling fiber: the time it reads, and a wake-up
 * per wait, a fiber of the same services sleeping on that clock (so `TestClock.adjust` wakes it).
 *
 * @example
 * ```ts
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect } from "effect"
 * import { TestClock } from "effect/testing"
 * import { strictEqual } from "node:assert"
 *
 * // The clock the server reads and waits on: the fiber's, here a test clock.
 * const program = Effect.gen(function*() {
 *   const clock = yield* ReferenceServer.clockOf
 *   let woke = false
 *   clock.schedule(1000, () => {
 *     woke = true
 *   })
 *   strictEqual(clock.pending(), 1)
 *   yield* TestClock.adjust("1 second")
 *   strictEqual(woke, true)
 *   strictEqual(clock.pending(), 0)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(TestClock.layer())))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const clockOf: Effect.Effect<ServerClock> = Effect.gen(function*() {
  const context = yield* Effect.context<never>()
  const clock = Context.get(context, Clock.Clock)
  const fork = Effect.runForkWith(context)
  let pending = 0
  return {
    now: () => clock.currentTimeMillisUnsafe(),
    schedule: (millis: number, wake: () => void) => {
      pending++
      let done = false
      const end = () => {
        if (!done) {
          done = true
          pending--
        }
      }
      const fiber = fork(
        Effect.sleep(Math.max(0, millis)).pipe(Effect.andThen(Effect.sync(() => {
          end()
          wake()
        })))
      )
      return () => {
        end()
        fork(Fiber.interrupt(fiber))
      }
    },
    pending: () => pending
  }
})

/**
 * A server in process: its handler, how many waits it holds on the clock, and its controls as
 * effects, as the Effect 3 line's `ReferenceServer` service has them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly handler: WebHandler
  /** How many waits (injected latency) the server has scheduled on the clock and not ended. */
  readonly pendingWaits: () => number
  /** Back to the fixture the server was built with: state, faults, caches, counters. */
  readonly reset: Effect.Effect<void>
  /** Replaces the fixture and resets to it. */
  readonly load: (fixture: DemoData.Fixture) => Effect.Effect<void>
  /** Replaces the fault settings. */
  readonly setFaults: (faults: Engine.FaultSettings) => Effect.Effect<void>
  /** Turns every fault off. */
  readonly clearFaults: Effect.Effect<void>
  /** The current fault settings. */
  readonly faults: Effect.Effect<Engine.FaultSettings>
  /** The current state, in the fixture's shape. */
  readonly snapshot: Effect.Effect<DemoData.Fixture>
  /** Revokes a token. */
  readonly revokeToken: (token: string) => Effect.Effect<void>
  /** Issues a token at the server's current time. */
  readonly issueToken: (options: Engine.IssueTokenOptions) => Effect.Effect<string>
  /** Requests answered since the last reset. */
  readonly requestCount: Effect.Effect<number>
  /** The last (at most 1000) requests answered. */
  readonly recentRequests: Effect.Effect<ReadonlyArray<Engine.RequestLogEntry>>
  /** The request journal, filtered (what `GET /_sandbox/requests` answers, times in milliseconds). */
  readonly journal: (filter?: Engine.JournalFilter) => Effect.Effect<Engine.RequestJournal>
  /** Empties the journal. */
  readonly clearJournal: Effect.Effect<void>
  /** The users' limits now (what `GET /_sandbox/limits` answers), or one user's. */
  readonly limits: (user?: number) => Effect.Effect<ReadonlyArray<Engine.UserLimits>>
}

/**
 * The server of {@link layerTest}. Its controls at work: the examples of {@link make}.
 *
 * @since 0.1.0
 * @category tags
 */
export class ReferenceServer extends Context.Service<ReferenceServer, Service>()(
  "@community-api/effect4-server/ReferenceServer"
) {}

/**
 * A server on this line's clock of the calling fiber.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The server's web handler, for code that is not an Effect `HttpClient`.
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.make()
 *   const response = yield* Effect.promise(() =>
 *     server.handler(
 *       new Request(`${ReferenceServer.inProcessBaseUrl}/users/me`, {
 *         method: "POST",
 *         headers: { authorization: `Bearer ${DemoData.tokens.owner}` }
 *       })
 *     )
 *   )
 *   strictEqual(response.status, 200)
 *   strictEqual(yield* server.requestCount, 1)
 * })
 *
 * await Effect.runPromise(program)
 * ```
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect } from "effect"
 * import { deepStrictEqual, strictEqual } from "node:assert"
 *
 * // A server in hand, a `fetch` into it, and the controls a test drives it with.
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.make()
 *   const fetch = ReferenceServer.fetchOf(server.handler)
 *   const me = (token: string) =>
 *     Effect.promise(() =>
 *       fetch(`${ReferenceServer.inProcessBaseUrl}/users/me`, {
 *         method: "POST",
 *         headers: { authorization: `Bearer ${token}` }
 *       }).then((response) => response.json() as Promise<{ error_code?: number }>)
 *     )
 *   // Faults: the next request is answered with error 9.
 *   yield* server.setFaults({ keyServiceUnavailable: { next: 1 } })
 *   deepStrictEqual(yield* server.faults, { keyServiceUnavailable: { next: 1 } })
 *   strictEqual((yield* me(DemoData.tokens.owner)).error_code, 9)
 *   yield* server.clearFaults
 *   // Tokens: one issued now and revoked before its first use: error 4 (a token in use stays valid up to 60 s).
 *   const token = yield* server.issueToken({ user_id: DemoData.userIds.owner })
 *   yield* server.revokeToken(token)
 *   strictEqual((yield* me(token)).error_code, 4)
 *   // What was asked: the count, the last requests, the journal, each user's limits.
 *   strictEqual(yield* server.requestCount, 2)
 *   strictEqual((yield* server.recentRequests).length, 2)
 *   strictEqual((yield* server.journal({ outcome: 9 })).entries.length, 1)
 *   yield* server.clearJournal
 *   strictEqual((yield* server.journal()).entries.length, 0)
 *   strictEqual((yield* server.limits(DemoData.userIds.owner)).length, 1)
 *   // The state: a snapshot, loaded back, and a reset to the fixture the server was made with.
 *   yield* server.load(yield* server.snapshot)
 *   yield* server.reset
 *   strictEqual(yield* server.requestCount, 0)
 *   strictEqual(server.pendingWaits(), 0)
 * })
 *
 * await Effect.runPromise(program)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<Service> =>
  Effect.map(clockOf, (clock) => {
    const { controls, handler } = Engine.toWebServer({ ...options, clock })
    return {
      handler,
      pendingWaits: clock.pending,
      reset: Effect.sync(controls.reset),
      load: (fixture) => Effect.sync(() => controls.load(fixture)),
      setFaults: (faults) => Effect.sync(() => controls.setFaults(faults)),
      clearFaults: Effect.sync(controls.clearFaults),
      faults: Effect.sync(controls.faults),
      snapshot: Effect.sync(controls.snapshot),
      revokeToken: (token) => Effect.sync(() => controls.revokeToken(token)),
      issueToken: (issue) => Effect.sync(() => controls.issueToken(issue)),
      requestCount: Effect.sync(controls.requestCount),
      recentRequests: Effect.sync(controls.recentRequests),
      journal: (filter) => Effect.sync(() => controls.journal(filter)),
      clearJournal: Effect.sync(controls.clearJournal),
      limits: (user) => Effect.sync(() => controls.limits(user))
    }
  })

/**
 * A `fetch` that answers from `handler`, for `FetchHttpClient.Fetch`.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A `fetch` into the server, for a library that takes one.
 * const server = await Effect.runPromise(ReferenceServer.make())
 * const fetch = ReferenceServer.fetchOf(server.handler)
 * const response = await fetch(`${ReferenceServer.inProcessBaseUrl}/users/me`, {
 *   method: "POST",
 *   headers: { authorization: `Bearer ${DemoData.tokens.owner}` }
 * })
 * strictEqual((await response.json()).status, "ok")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const fetchOf = (handler: WebHandler): typeof globalThis.fetch => (input, init) =>
  handler(input instanceof Request && init === undefined ? input : new Request(input, init))

/**
 * Waits until the server holds `count` waits on the clock: a request has reached its injected
 * latency, so that the test may move the clock past it. The server runs outside the fiber, so this
 * lets the event loop turn (no time passes on any clock) until then.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Fiber } from "effect"
 * import { HttpClient, HttpClientRequest } from "effect/http"
 * import { TestClock } from "effect/testing"
 * import { strictEqual } from "node:assert"
 *
 * // Latency of 5 s on a test clock: the answer comes once the test has moved the clock, at once.
 * const program = Effect.gen(function*() {
 *   const http = yield* HttpClient.HttpClient
 *   const request = HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/users/me`).pipe(
 *     HttpClientRequest.bearerToken(DemoData.tokens.owner)
 *   )
 *   const fiber = yield* Effect.forkChild(http.execute(request))
 *   yield* ReferenceServer.awaitWaits(1)
 *   yield* TestClock.adjust("5 seconds")
 *   strictEqual((yield* Fiber.join(fiber)).status, 200)
 * })
 *
 * await Effect.runPromise(
 *   program.pipe(
 *     Effect.provide(ReferenceServer.layerTest({ faults: { latency: { fixed: 5000 } } })),
 *     Effect.provide(TestClock.layer())
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const awaitWaits = (count: number): Effect.Effect<void, never, ReferenceServer> =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer
    while (server.pendingWaits() < count) {
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
    }
  })

/**
 * A fresh server in this process, on the clock of the fiber that builds the layer (under
 * `it.effect`, the `TestClock`), and an `HttpClient` whose requests go to it. Its base URL is
 * {@link inProcessBaseUrl}.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect } from "effect"
 * import { HttpClient, HttpClientRequest } from "effect/http"
 * import { strictEqual } from "node:assert"
 *
 * const me = Effect.gen(function*() {
 *   const client = yield* HttpClient.HttpClient
 *   const response = yield* client.execute(
 *     HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/users/me`).pipe(
 *       HttpClientRequest.bearerToken(DemoData.tokens.owner)
 *     )
 *   )
 *   strictEqual(response.status, 200)
 *   return (yield* response.json) as { readonly status: string }
 * })
 *
 * const body = await Effect.runPromise(me.pipe(Effect.provide(ReferenceServer.layerTest())))
 * strictEqual(body.status, "ok")
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTest = (options: Options = {}): Layer.Layer<HttpClient.HttpClient | ReferenceServer> =>
  Layer.unwrap(
    Effect.map(make(options), (server) =>
      Layer.merge(
        // Fresh: Effect 4 builds a layer once per build, so a program's own `FetchHttpClient.layer` (over
        // the global fetch, as for a real API) would stand in for this one and send to the network.
        Layer.fresh(FetchHttpClient.layer).pipe(
          Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetchOf(server.handler)))
        ),
        Layer.succeed(ReferenceServer, server)
      ))
  )
