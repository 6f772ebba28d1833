/**
 * The Effect 4 line, as the client's scenarios (`tests/client-behaviour`) drive it: each world is a
 * runtime over a `TestClock`, a server on that clock and fresh limiters; calls are forked fibers of
 * that runtime, so the scenario's clock turns them exactly as `TestClock.adjust` in a test would.
 */
import { tokens } from "@community-api/core/DemoData"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import {
  Cause,
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
  Stream
} from "effect"
import { HttpClient, HttpClientError, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import type * as Driver from "../../../../tests/client-behaviour/src/Driver.js"
import * as Lines from "../../../../tests/client-behaviour/src/Lines.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"
import * as Retry from "../../src/Retry.js"

/** The scripted server's address and token: not the reference server's. */
const scriptedBaseUrl = "http://fake.local/external-api/v2"
const scriptedToken = "thp_fake-secret-token-0123456789"

type Runtime = ManagedRuntime.ManagedRuntime<HttpClient.HttpClient, never>

const retryOf = (retry: Driver.RetryOptions | "never"): Partial<Retry.Policy> => {
  if (retry === "never") return Retry.never
  const delays = retry.delays
  const schedule = Schedule.recurs(delays.length).pipe(
    Schedule.addDelay(({ attempt }) => Effect.succeed(Duration.millis(delays[attempt - 1] ?? 0)))
  )
  return retry.limitRetries === undefined ? { schedule } : { schedule, limitRetries: retry.limitRetries }
}

const outcomeOf = <A>(exit: Exit.Exit<A, unknown>): Driver.Outcome<A> => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "Some") return { _tag: "Failure", error: failure.value as Driver.Failure }
  const defect = Cause.findDefect(exit.cause)
  if (defect._tag === "Success") return { _tag: "Defect", defect: defect.success }
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
  stream: (path, params) => fork(runtime, Stream.runCollect(Lines.member<StreamMethod>(client.streams, path)(params)))
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
const open: Array<{ readonly dispose: () => Promise<void> }> = []

const runtimeOf = <R>(layer: Layer.Layer<R>) => {
  const runtime = ManagedRuntime.make(Layer.mergeAll(layer, limiters).pipe(Layer.provideMerge(TestClock.layer())))
  open.push(runtime)
  return runtime
}

/** A scripted reply, carried out on the world's clock. */
const answer = (reply: Driver.Reply): Effect.Effect<{ readonly text: string; readonly init: ResponseInit }> => {
  switch (reply._tag) {
    case "Json":
      return Effect.succeed({
        text: JSON.stringify(reply.body),
        init: { status: 200, headers: { "content-type": "application/json" } }
      })
    case "Text":
      return Effect.succeed({
        text: reply.text,
        init: { status: reply.status, headers: { "content-type": reply.contentType } }
      })
    case "Drop":
      return Effect.die(reply.reason)
    case "Wait":
      return Effect.sleep(Duration.millis(reply.millis)).pipe(
        Effect.andThen(Clock.currentTimeMillis),
        Effect.flatMap((at) => answer(typeof reply.then === "function" ? reply.then(at) : reply.then))
      )
  }
}

export const line: Driver.Line = {
  name: "Effect 4",
  reference: async (options = {}) => {
    const runtime = runtimeOf(ReferenceServer.layerTest(options as ReferenceServer.Options))
    const server = await runtime.runPromise(Effect.gen(function*() {
      return yield* ReferenceServer.ReferenceServer
    }))
    const run = <A>(effect: Effect.Effect<A, never, ReferenceServer.ReferenceServer>) => runtime.runPromise(effect)
    const controls: Driver.ServerControls = {
      reset: () => run(server.reset),
      load: (fixture) => run(server.load(fixture)),
      setFaults: (faults) => run(server.setFaults(faults as never)),
      clearFaults: () => run(server.clearFaults),
      snapshot: () => run(server.snapshot),
      revokeToken: (token) => run(server.revokeToken(token)),
      issueToken: (issue) => run(server.issueToken(issue as never)),
      requestCount: () => run(server.requestCount),
      recentRequests: () => run(server.recentRequests) as never,
      journal: (filter) => run(server.journal(filter as never)) as never,
      awaitWaits: (count) => run(ReferenceServer.awaitWaits(count))
    }
    return {
      ...world(runtime as unknown as Runtime, { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner }),
      server: controls
    }
  },
  scripted: async (script) => {
    const received: Array<Driver.Received> = []
    const client = HttpClient.make((request) =>
      Effect.gen(function*() {
        const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
        const record: Driver.Received = {
          at: yield* Clock.currentTimeMillis,
          path: request.url.replace(/^.*\/external-api\/v2\//, ""),
          url: request.url,
          body: text === "" ? {} : JSON.parse(text),
          authorization: request.headers["authorization"]
        }
        received.push(record)
        const reply = yield* answer(script(record, received.length - 1))
        return HttpClientResponse.fromWeb(request, new Response(reply.text, reply.init))
      }).pipe(
        // A reply that drops is a connection dropped: the transport's failure, as a socket would give it.
        Effect.catchDefect((cause) =>
          Effect.fail(
            new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) })
          )
        )
      )
    )
    const runtime = runtimeOf(Layer.succeed(HttpClient.HttpClient, client))
    return { ...world(runtime as unknown as Runtime, { baseUrl: scriptedBaseUrl, token: scriptedToken }), received }
  },
  decide: (op, error) => Retry.decide(op, error),
  isDateTime: (value) => DateTime.isDateTime(value),
  dispose: async () => {
    const runtimes = open.splice(0)
    await Promise.all(runtimes.map((runtime) => runtime.dispose()))
  }
}
