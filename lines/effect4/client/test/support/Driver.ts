/**
 * The Effect 4 line, as the client's scenarios (`tests/client-behaviour`) drive it: each world is a
 * runtime over a `TestClock`, a server on that clock and fresh limiters; calls are forked fibers of
 * that runtime, so the scenario's clock turns them exactly as `TestClock.adjust` in a test would.
 */
import { ApiError, Operations } from "@community-api/effect4-schema"
import * as Embedded from "@community-api/effect4-server/Embedded"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, it } from "@effect/vitest"
import {
  Cause,
  Clock,
  Config,
  ConfigProvider,
  Context,
  DateTime,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Logger,
  ManagedRuntime,
  Option,
  Random,
  Redacted,
  References,
  Result,
  Schedule,
  Schema,
  Scope,
  Stream
} from "effect"
import { HttpClient, HttpClientError, HttpClientResponse, UrlParams } from "effect/http"
import { TestClock } from "effect/testing"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Lines from "../../../../../tests/client-behaviour/src/Lines.js"
import { register, type Suite } from "../../../../../tests/client-behaviour/src/Scenario.js"
import * as Worlds from "../../../../../tests/client-behaviour/src/Worlds.js"
import * as Budget from "../../src/Budget.js"
import * as ClientError from "../../src/ClientError.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CountStore from "../../src/CountStore.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as RedisInternal from "../../src/internal/redis.js"
import * as Timers from "../../src/internal/timers.js"
import * as Lane from "../../src/Lane.js"
import * as Pacing from "../../src/Pacing.js"
import * as Paginate from "../../src/Paginate.js"
import * as PermitStore from "../../src/PermitStore.js"
import * as RedisStore from "../../src/RedisStore.js"
import * as Retry from "../../src/Retry.js"
import * as Target from "../../src/Target.js"
import { limitsChild } from "./LimitsDriver.js"
import * as LiveDriver from "./LiveDriver.js"
import * as Prometheus from "./Prometheus.js"
import * as RecordingTracer from "./RecordingTracer.js"

const retryOf = (retry: Driver.RetryOptions | "never"): Partial<Retry.Policy> => {
  if (retry === "never") return Retry.never
  const delays = retry.delays
  const schedule = Schedule.recurs(delays.length).pipe(
    Schedule.addDelay(({ attempt }) =>
      Effect.map(retry.jittered === true ? Random.nextBetween(0.8, 1.2) : Effect.succeed(1), (jitter) => {
        const delay = (delays[attempt - 1] ?? 0) * jitter
        return Duration.millis(retry.maxDelayMillis === undefined ? delay : Math.min(delay, retry.maxDelayMillis))
      })
    )
  )
  return retry.limitRetries === undefined ? { schedule } : { schedule, limitRetries: retry.limitRetries }
}

/** A cause as `Outcome.cause` and `Observed` hold it: its rendering, and each error's stack with the causes it carries. */
const causeText = (cause: Cause.Cause<unknown>): string =>
  [Cause.pretty(cause), ...Cause.prettyErrors(cause, { includeCauseInStack: true }).map((e) => String(e.stack))]
    .join("\n")

const outcomeOf = <A>(exit: Exit.Exit<A, unknown>): Driver.Outcome<A> => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const { cause } = exit
  return Lines.unsuccessful(Cause.findErrorOption(cause), Result.getSuccess(Cause.findDefect(cause)), causeText(cause))
}

type Fx = Effect.Effect<any, any, any>

/** The line's modules and functions that the compositions both drivers share (`Worlds`) put together. */
const kit = Worlds.kitOf<Fx, Stream.Stream<any, any, any>>(
  { Clock, Duration, Effect, Fiber, Lane, Layer, Option, Paginate, Redacted, Stream, TestClock },
  {
    outcomeOf,
    collect: (stream) => Stream.runCollect(stream),
    forEachChunk: (stream, f) => Stream.runForEachArray(stream, f),
    dateTime: (epochMillis) => DateTime.makeUnsafe(epochMillis),
    toJson: Budget.toJson,
    operations: Operations
  }
)

/** A scripted server as the context's `HttpClient`: every request recorded in `received`, answered by `script`. */
export const scriptedHttp = (script: Driver.Script, received: Array<Driver.Received>) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) => {
      const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
      const served = Worlds.serve(
        kit,
        script,
        received,
        { url: request.url, text, authorization: request.headers["authorization"] },
        (answer) => {
          const headers = { "content-type": answer.contentType, ...answer.headers }
          return Effect.succeed(
            HttpClientResponse.fromWeb(request, new Response(answer.text, { status: answer.status, headers }))
          )
        }
      ) as Effect.Effect<HttpClientResponse.HttpClientResponse>
      // A reply that drops is a connection dropped: the transport's failure, as a socket would give it.
      return Effect.catchDefect(served, (cause) =>
        Effect.fail(
          new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) })
        ))
    })
  )

export const line: Driver.Line = Worlds.lineOf(kit, {
  name: "Effect 4",
  effect: { Config, Context, Exit, Layer, ManagedRuntime, Scope },
  client: { ClientError, CommunityApiClient, CountStore, CreationQuota, Pacing, PermitStore, Timers },
  redis: { RedisInternal, RedisStore },
  more: { ApiError, DateTime, Embedded, Retry, Schema, Target },
  Budget,
  ReferenceServer,
  memory: { permits: PermitStore.makeMemoryUnsafe, counts: CountStore.makeMemoryUnsafe },
  makers: { millis: Duration.millis, secret: (text: string) => Redacted.make(text), retry: retryOf },
  scriptedHttp,
  // An `HttpClient` that dies when used: an embedded target's (the sandbox brings its own), or where nothing may be sent.
  unsent: Layer.succeed(HttpClient.HttpClient, HttpClient.make(() => Effect.die("the context's HttpClient was used"))),
  testClock: TestClock.layer(),
  extend: (self, scope) => Scope.provide(self, scope as Scope.Scope),
  warnings: (warnings) =>
    Logger.layer([
      Logger.make(({ logLevel, message }) => void (logLevel === "Warn" && warnings.push(String(message))))
    ]),
  service: (tag) => Effect.service(tag as never),
  provider: (env, options = {}) => LiveDriver.envProvider(env, options),
  providerLayer: (provider) => ConfigProvider.layer(provider as ConfigProvider.ConfigProvider),
  withProvider: (provider) => Effect.provideService(ConfigProvider.ConfigProvider, provider as never),
  envConfig: LiveDriver.envConfig,
  // A recording tracer, every header on the platform's spans (off by default on this line) and a logger of every level.
  observing: (observed) =>
    Layer.mergeAll(
      Logger.layer([
        Logger.make(({ cause, fiber, logLevel, message }) => {
          observed.logs.push(
            Lines.logLine(logLevel, message, fiber.getRef(References.CurrentLogAnnotations)),
            causeText(cause)
          )
        })
      ]),
      Layer.succeed(References.MinimumLogLevel, "All"),
      RecordingTracer.make((span, exit) =>
        void observed.spans.push(Lines.span(span, Exit.isFailure(exit) ? causeText(exit.cause) : undefined))
      ).layer,
      Layer.succeed(HttpClient.TracerHeaderFilter, () => true)
    ),
  tapUrls: (observed, make) =>
    make.pipe(Effect.updateService(
      HttpClient.HttpClient,
      HttpClient.tapRequest((request) =>
        Effect.sync(() => {
          observed.urls.push(`${request.url}?${UrlParams.toString(request.urlParams)}`)
        })
      )
    )),
  // The server tells each answer the moment it is made (`onRequest`), on the clock it runs on, the world's.
  referenceLayer: (options, answer) =>
    Layer.unwrap(Effect.clockWith((clock) =>
      Effect.succeed(ReferenceServer.layerTest({
        ...options,
        onRequest: (entry) => answer(clock.currentTimeMillisUnsafe(), entry)
      }))
    )),
  // One generator of the seed for every fiber of the world, as `Random.withSeed` gives it.
  random: (seed) => Layer.succeed(Random.Random, Effect.runSync(Random.withSeed(Effect.service(Random.Random), seed))),
  prometheus: Prometheus.layer,
  // A millisecond at a time, letting the event loop turn after each (see `ReferenceWorld.advance`).
  advance: (runtime, millis) =>
    runtime.runPromise(Effect.gen(function*() {
      for (let i = 0; i < millis; i++) {
        yield* TestClock.adjust(Duration.millis(1))
        yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
      }
    })),
  transport: LiveDriver.transport,
  realPort: LiveDriver.realPort,
  fixed: {
    configError: LiveDriver.configError,
    readme: LiveDriver.readme,
    limitsChild
  }
})

/** Registers `suite`'s scenarios as tests of this line, in the test file of the suite's name. */
export const run = (suite: Suite): void => register(suite, line, { describe, it })
