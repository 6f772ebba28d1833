/**
 * The Effect 3 line, as the client's scenarios (`tests/client-behaviour`) drive it: each world is a
 * runtime over a `TestClock`, a server on that clock and fresh limiters; calls are forked fibers of
 * that runtime, so the scenario's clock turns them exactly as `TestClock.adjust` in a test would.
 */
import { tokens } from "@community-api/core/DemoData"
import * as InProcess from "@community-api/server/InProcess"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import {
  Cause,
  Chunk,
  Clock,
  DateTime,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  ManagedRuntime,
  Redacted,
  Schedule,
  Stream,
  TestClock,
  TestContext
} from "effect"
import type * as Driver from "../../../../tests/client-behaviour/src/Driver.js"
import * as Lines from "../../../../tests/client-behaviour/src/Lines.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"
import * as Retry from "../../src/Retry.js"

/** The scripted server's address and token: not the reference server's. */
const scriptedBaseUrl = "http://fake.local/external-api/v2"
const scriptedToken = "thp_fake-secret-token-0123456789"

type Runtime = ManagedRuntime.ManagedRuntime<HttpClient.HttpClient | Pacing.Pacing | CreationQuota.CreationQuota, never>

const retryOf = (retry: Driver.RetryOptions | "never"): Partial<Retry.Policy> => {
  if (retry === "never") return Retry.never
  const [first, ...rest] = retry.delays.map((d) => Duration.millis(d))
  const schedule = first === undefined ? Schedule.stop : Schedule.fromDelays(first, ...rest)
  return retry.limitRetries === undefined ? { schedule } : { schedule, limitRetries: retry.limitRetries }
}

const outcomeOf = <A>(exit: Exit.Exit<A, unknown>): Driver.Outcome<A> => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "Some") return { _tag: "Failure", error: failure.value as Driver.Failure }
  const defect = Cause.dieOption(exit.cause)
  if (defect._tag === "Some") return { _tag: "Defect", defect: defect.value }
  return { _tag: "Interrupted" }
}

/** Runs `effect` as a fiber of the world's runtime, as a thenable of its outcome. */
const fork = <A>(runtime: Runtime, effect: Effect.Effect<A, unknown>): Driver.Call<A> => {
  const fiber = runtime.runFork(effect)
  return Lines.call(
    () => runtime.runPromise(Fiber.await(fiber)).then(outcomeOf),
    () => runtime.runPromise(Fiber.interrupt(fiber)).then(() => undefined)
  )
}

const makers = { millis: Duration.millis, secret: (text: string) => Redacted.make(text), retry: retryOf }

type Method = (params?: object) => Effect.Effect<unknown, unknown>
type StreamMethod = (params?: object) => Stream.Stream<unknown, unknown>

const clientOf = (runtime: Runtime, client: CommunityApiClient.Client): Driver.Client => ({
  call: (path, params) => fork(runtime, Lines.member<Method>(client, path)(params)),
  callRaw: (path, params) => fork(runtime, client.call(path as never, (params ?? {}) as never)),
  stream: (path, params) =>
    fork(
      runtime,
      Effect.map(Stream.runCollect(Lines.member<StreamMethod>(client.streams, path)(params)), Chunk.toArray)
    )
})

/** A world: its runtime, and what every world offers over it. */
const world = (
  runtime: Runtime,
  defaults: { readonly baseUrl: string; readonly token: string }
): Driver.World => ({
  client: (options = {}) =>
    runtime.runPromise(CommunityApiClient.make(Lines.configOf(defaults, options, makers))).then((client) =>
      clientOf(runtime, client)
    ),
  adjust: (millis) => runtime.runPromise(TestClock.adjust(Duration.millis(millis))),
  now: () => runtime.runPromise(Clock.currentTimeMillis)
})

const limiters = Layer.mergeAll(Pacing.layer(), CreationQuota.layer())

/** The runtimes made since the last `dispose`. */
const open: Array<Runtime> = []

const runtimeOf = (http: Layer.Layer<HttpClient.HttpClient>): Runtime => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(http, limiters).pipe(Layer.provideMerge(TestContext.TestContext))
  ) as Runtime
  open.push(runtime)
  return runtime
}

/** A scripted reply, carried out on the world's clock. */
const answer = (reply: Driver.Reply): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  switch (reply._tag) {
    case "Json":
      return Effect.orDie(HttpServerResponse.json(reply.body))
    case "Text":
      return Effect.succeed(
        HttpServerResponse.text(reply.text, { contentType: reply.contentType, status: reply.status })
      )
    case "Drop":
      return Effect.die(reply.reason)
    case "Wait":
      return Effect.sleep(Duration.millis(reply.millis)).pipe(
        Effect.zipRight(Clock.currentTimeMillis),
        Effect.flatMap((at) => answer(typeof reply.then === "function" ? reply.then(at) : reply.then))
      )
  }
}

export const line: Driver.Line = {
  name: "Effect 3",
  reference: async (options = {}) => {
    const layer = ReferenceServer.layerTest(options as ReferenceServer.Options)
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(layer, limiters).pipe(Layer.provideMerge(TestContext.TestContext))
    )
    open.push(runtime as unknown as Runtime)
    const server = await runtime.runPromise(ReferenceServer.ReferenceServer)
    const run = <A>(effect: Effect.Effect<A>) => runtime.runPromise(effect)
    const controls: Driver.ServerControls = {
      reset: () => run(server.reset),
      load: (fixture) => run(server.load(fixture as never)),
      setFaults: (faults) => run(server.setFaults(faults as never)),
      clearFaults: () => run(server.clearFaults),
      snapshot: () => run(server.snapshot) as never,
      revokeToken: (token) => run(server.revokeToken(token)),
      issueToken: (issue) => run(server.issueToken(issue as never)),
      requestCount: () => run(server.requestCount),
      recentRequests: () => run(server.recentRequests) as never,
      journal: (filter) => run(server.journal(filter as never)) as never,
      awaitWaits: (count) =>
        run(Effect.gen(function*() {
          while ((yield* TestClock.sleeps()).length < count) yield* Effect.yieldNow()
        }))
    }
    return {
      ...world(runtime as unknown as Runtime, { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner }),
      server: controls
    }
  },
  scripted: async (script) => {
    const received: Array<Driver.Received> = []
    const app = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const text = yield* Effect.orDie(request.text)
      const record: Driver.Received = {
        at: yield* Clock.currentTimeMillis,
        path: request.url.replace(/^.*\/external-api\/v2\//, ""),
        url: request.url,
        body: text === "" ? {} : JSON.parse(text),
        authorization: request.headers["authorization"]
      }
      received.push(record)
      return yield* answer(script(record, received.length - 1))
    })
    const runtime = runtimeOf(InProcess.layerHttpClient(app) as Layer.Layer<HttpClient.HttpClient>)
    return { ...world(runtime, { baseUrl: scriptedBaseUrl, token: scriptedToken }), received }
  },
  decide: (op, error) => Retry.decide(op, error),
  isDateTime: (value) => DateTime.isDateTime(value),
  dispose: async () => {
    const runtimes = open.splice(0)
    await Promise.all(runtimes.map((runtime) => runtime.dispose()))
  }
}
