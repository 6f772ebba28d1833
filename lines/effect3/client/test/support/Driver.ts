/**
 * The Effect 3 line, as the client's scenarios (`tests/client-behaviour`) drive it: each world is a
 * runtime over a `TestClock`, a server on that clock and fresh limiters; calls are forked fibers of
 * that runtime, so the scenario's clock turns them exactly as `TestClock.adjust` in a test would.
 */
import { ApiError, Operations } from "@community-api/schema"
import * as Embedded from "@community-api/server/Embedded"
import * as InProcess from "@community-api/server/InProcess"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpClient as PlatformHttpClient, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import { describe, it } from "@effect/vitest"
import {
  Cause,
  Chunk,
  Clock,
  Config,
  Context,
  DateTime,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Logger,
  LogLevel,
  ManagedRuntime,
  Option,
  Random,
  Redacted,
  Schedule,
  Schema,
  Scope,
  Stream,
  TestClock,
  TestContext
} from "effect"
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
  const [first, ...rest] = retry.delays.map((d) => Duration.millis(d))
  const delays: Schedule.Schedule<unknown> = first === undefined ? Schedule.stop : Schedule.fromDelays(first, ...rest)
  const jittered = retry.jittered === true ? Schedule.jittered(delays) : delays
  const cap = retry.maxDelayMillis
  const schedule = cap === undefined
    ? jittered
    : Schedule.modifyDelay(jittered, (_, delay) => Duration.min(delay, Duration.millis(cap)))
  return retry.limitRetries === undefined ? { schedule } : { schedule, limitRetries: retry.limitRetries }
}

/** A cause as `Outcome.cause` and `Observed` hold it. */
const causeText = (cause: Cause.Cause<unknown>): string => Cause.pretty(cause, { renderErrorCause: true })

const outcomeOf = <A>(exit: Exit.Exit<A, unknown>): Driver.Outcome<A> =>
  Exit.isSuccess(exit)
    ? { _tag: "Success", value: exit.value }
    : Lines.unsuccessful(Cause.failureOption(exit.cause), Cause.dieOption(exit.cause), causeText(exit.cause))

type Fx = Effect.Effect<any, any, any>

/** The line's modules and functions that the compositions both drivers share (`Worlds`) put together. */
const kit = Worlds.kitOf<Fx, Stream.Stream<any, any, any>>(
  { Clock, Duration, Effect, Fiber, Lane, Layer, Option, Paginate, Redacted, Stream, TestClock },
  {
    outcomeOf,
    collect: (stream) => Effect.map(Stream.runCollect(stream), Chunk.toArray),
    forEachChunk: (stream, f) => Stream.runForEachChunk(stream, (chunk) => f(Chunk.toArray(chunk))),
    dateTime: (epochMillis) => DateTime.unsafeMake(epochMillis),
    toJson: Budget.toJson,
    operations: Operations
  }
)

/** A scripted server as the context's `HttpClient`: every request recorded in `received`, answered by `script`. */
export const scriptedHttp = (script: Driver.Script, received: Array<Driver.Received>) =>
  InProcess.layerHttpClient(
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.flatMap(Effect.orDie(request.text), (text) =>
        Worlds.serve(
          kit,
          script,
          received,
          { url: request.url, text, authorization: request.headers["authorization"] },
          (response) =>
            Effect.succeed(HttpServerResponse.text(response.text, response))
        ) as Effect.Effect<HttpServerResponse.HttpServerResponse>))
  ) as Layer.Layer<HttpClient.HttpClient>

export const line: Driver.Line = Worlds.lineOf(kit, {
  name: "Effect 3",
  effect: { Config, Context, Exit, Layer, ManagedRuntime, Scope },
  client: { ClientError, CommunityApiClient, CountStore, CreationQuota, Pacing, PermitStore, Timers },
  redis: { RedisInternal, RedisStore },
  more: { ApiError, DateTime, Embedded, Retry, Schema, Target },
  Budget,
  ReferenceServer,
  memory: { permits: PermitStore.unsafeMakeMemory, counts: CountStore.unsafeMakeMemory },
  makers: { millis: Duration.millis, secret: (text: string) => Redacted.make(text), retry: retryOf },
  scriptedHttp,
  // An `HttpClient` that dies when used: an embedded target's (the sandbox brings its own), or where nothing may be sent.
  unsent: Layer.succeed(
    PlatformHttpClient.HttpClient,
    PlatformHttpClient.make(() => Effect.die("the context's HttpClient was used"))
  ),
  testClock: TestContext.TestContext,
  extend: (self, scope) => Scope.extend(self, scope as Scope.Scope),
  warnings: (warnings) =>
    Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ logLevel, message }) => void (logLevel._tag === "Warning" && warnings.push(String(message))))
    ),
  service: (tag) => tag as Fx,
  provider: (env, options = {}) => LiveDriver.envProvider(env, options),
  providerLayer: (provider) => Layer.setConfigProvider(provider as never),
  withProvider: (provider) => Effect.withConfigProvider(provider as never),
  envConfig: LiveDriver.envConfig,
  observing: (observed) =>
    Layer.mergeAll(
      Logger.replace(
        Logger.defaultLogger,
        Logger.make(({ annotations, cause, logLevel, message }) => {
          observed.logs.push(
            Lines.logLine(logLevel.label, message, [...annotations]),
            Cause.isEmpty(cause) ? "" : causeText(cause)
          )
        })
      ),
      Logger.minimumLogLevel(LogLevel.All),
      RecordingTracer.make((span, exit) =>
        void observed.spans.push(Lines.span(span, Exit.isFailure(exit) ? causeText(exit.cause) : undefined))
      ).layer
    ),
  tapUrls: (observed, make) =>
    Effect.updateService(
      make,
      PlatformHttpClient.HttpClient,
      PlatformHttpClient.tapRequest((request) =>
        Effect.sync(() => {
          observed.urls.push(
            `${request.url}?${new URLSearchParams(request.urlParams.map(([k, v]) => [k, v])).toString()}`
          )
        })
      )
    ),
  // Logged as it is answered: its arrival and the milliseconds it took are when, on the world's clock.
  referenceLayer: (options, answer) =>
    ReferenceServer.layerTest({ ...options, onRequest: (entry) => answer(entry.at + entry.millis, entry) }),
  random: (seed) => Layer.setRandom(Random.make(seed)),
  prometheus: Prometheus.layer,
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
