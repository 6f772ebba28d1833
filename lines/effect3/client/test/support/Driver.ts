/**
 * The Effect 3 line, as the client's scenarios (`tests/client-behaviour`) drive it: each world is a
 * runtime over a `TestClock`, a server on that clock and fresh limiters; calls are forked fibers of
 * that runtime, so the scenario's clock turns them exactly as `TestClock.adjust` in a test would.
 */
import { tokens } from "@community-api/core/DemoData"
import { ApiError, Operations } from "@community-api/schema"
import * as Embedded from "@community-api/server/Embedded"
import * as InProcess from "@community-api/server/InProcess"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpClient as PlatformHttpClient, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import {
  Cause,
  Chunk,
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

type Runtime = ManagedRuntime.ManagedRuntime<HttpClient.HttpClient | Pacing.Pacing | CreationQuota.CreationQuota, never>

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

const makers = { millis: Duration.millis, secret: (text: string) => Redacted.make(text), retry: retryOf }

type Fx = Effect.Effect<any, any, any>

/** `env` as the environment. */
const envProvider = (env: Readonly<Record<string, string>>) => ConfigProvider.fromMap(new Map(Object.entries(env)))

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

const runnerOf = (runtime: Runtime) => Worlds.runner(kit, runtime)

/** A world: its runtime, and what every world offers over it. */
const world = (
  runtime: Runtime,
  defaults: { readonly baseUrl: string; readonly token: string },
  observed: Lines.Observing = Lines.observed(),
  observe = false
): Driver.World => {
  const runner = runnerOf(runtime)
  return {
    ...Worlds.world(kit, runner, {
      config: (options) => Lines.configOf(defaults, options, makers),
      make: CommunityApiClient.make,
      layer: (config) => Effect.provide(CommunityApiClient.CommunityApiClient, CommunityApiClient.layer(config)),
      own: (make) => Effect.provide(make, Layer.merge(Pacing.layer(), CreationQuota.layer())),
      tap: (make) => tapUrls(observe, observed, make),
      observed
    }),
    clientFromEnv: (env, options = {}) =>
      Worlds.tryClient(
        kit,
        runner,
        tapUrls(
          observe,
          observed,
          Effect.provide(
            CommunityApiClient.CommunityApiClient,
            CommunityApiClient.layerConfig(LiveDriver.envConfig(options))
          )
        ).pipe(Effect.withConfigProvider(LiveDriver.envProvider(env, options)))
      )
  }
}

/** An `HttpClient` that dies when used: an embedded target's (the sandbox brings its own), or where nothing may be sent. */
const unused = Layer.succeed(
  PlatformHttpClient.HttpClient,
  PlatformHttpClient.make(() => Effect.die("the context's HttpClient was used"))
)

/** `make` with every request URL its client sends recorded, with its query parameters, when observing. */
const tapUrls = <A, E, R>(observe: boolean, observed: Lines.Observing, make: Effect.Effect<A, E, R>) =>
  !observe ? make : Effect.updateService(
    make,
    PlatformHttpClient.HttpClient,
    PlatformHttpClient.tapRequest((request) =>
      Effect.sync(() => {
        observed.urls.push(
          `${request.url}?${new URLSearchParams(request.urlParams.map(([k, v]) => [k, v])).toString()}`
        )
      })
    )
  )

/** A recording tracer and a logger of every level, into `observed`, when observing. */
const observing = (observe: boolean | undefined, observed: Lines.Observing): Layer.Layer<never> => {
  if (observe !== true) return Layer.empty
  const logger = Logger.make(({ annotations, cause, logLevel, message }) => {
    observed.logs.push(
      Lines.logLine(logLevel.label, message, [...annotations]),
      Cause.isEmpty(cause) ? "" : causeText(cause)
    )
  })
  const tracing = RecordingTracer.make((span, exit) =>
    void observed.spans.push(Lines.span(span, Exit.isFailure(exit) ? causeText(exit.cause) : undefined))
  )
  return Layer.mergeAll(
    Logger.replace(Logger.defaultLogger, logger),
    Logger.minimumLogLevel(LogLevel.All),
    tracing.layer
  )
}

/** Fresh limiters, their pacing recording the lane of every request it lets in. */
const limitersOf = (options?: Driver.LimiterOptions, lanes?: Array<Lane.Lane>, calls?: Lines.StoreCalls) =>
  Worlds.limiters(kit, lineParts, options, lanes, calls) as Layer.Layer<Pacing.Pacing | CreationQuota.CreationQuota>

/** The reference server's address and the demo owner's token: where a reference world's clients go by default. */
const referenceServer = { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner }

/** The runtimes made since the last `dispose`. */
const open: Array<Runtime> = []

const runtimeOf = (
  http: Layer.Layer<HttpClient.HttpClient>,
  options?: Driver.LimiterOptions,
  lanes?: Array<Lane.Lane>,
  calls?: Lines.StoreCalls
): Runtime => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(http, limitersOf(options, lanes, calls)).pipe(Layer.provideMerge(TestContext.TestContext))
  ) as Runtime
  open.push(runtime)
  return runtime
}

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
          (
            response
          ) =>
            Effect.succeed(HttpServerResponse.text(response.text, response))
        ) as Effect.Effect<
          HttpServerResponse.HttpServerResponse
        >))
  ) as Layer.Layer<HttpClient.HttpClient>

/** What `LiveDriver` borrows of this driver. */
const liveDeps: LiveDriver.Deps = {
  world,
  open: (runtime) => void open.push(runtime as unknown as Runtime)
}

/** What the kit's worlds of Redis and `tryOptions` take of this line. */
const lineParts: Worlds.LineParts<Fx> = {
  testClock: TestContext.TestContext,
  extend: (self, scope) => Scope.extend(self, scope as Scope.Scope),
  warnings: (warnings) =>
    Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ logLevel, message }) => void (logLevel._tag === "Warning" && warnings.push(String(message))))
    ),
  envLayer: (env) => Layer.setConfigProvider(envProvider(env)),
  inEnv: (env) => Effect.withConfigProvider(envProvider(env)),
  effect: { Config, Context, Exit, Layer, ManagedRuntime, Scope },
  client: { ClientError, CommunityApiClient, CountStore, CreationQuota, Pacing, PermitStore, Timers },
  redis: { RedisInternal, RedisStore },
  memory: { permits: PermitStore.unsafeMakeMemory, counts: CountStore.unsafeMakeMemory },
  ReferenceServer,
  open: (world) => void open.push(world as never),
  unsent: unused,
  makers,
  scriptedHttp,
  service: (tag) => tag as Fx
}

export const line: Driver.Line = {
  name: "Effect 3",
  reference: async (
    { metricsPerUser, observe, pacingLimit, prometheusPort, quotaPerMinute, randomSeed, stores, ...options } = {}
  ) => {
    const answered: Array<Driver.ReferenceWorld["answered"][number]> = []
    const observed = Lines.observed()
    const layer = ReferenceServer.layerTest({
      ...(options as ReferenceServer.Options),
      // Logged as it is answered: its arrival and the milliseconds it took are when, on the world's clock.
      onRequest: (entry) => {
        answered.push({ at: entry.at + entry.millis, path: entry.path, outcome: entry.outcome })
        if (observe === true) observed.serverLog.push(JSON.stringify(entry))
      }
    })
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(
        layer,
        limitersOf(Lines.defined({ pacingLimit, metricsPerUser, quotaPerMinute, stores })),
        randomSeed === undefined ? Layer.empty : Layer.setRandom(Random.make(randomSeed)),
        observing(observe, observed),
        prometheusPort === undefined ? Layer.empty : Prometheus.layer(prometheusPort)
      ).pipe(Layer.provideMerge(TestContext.TestContext))
    )
    open.push(runtime as unknown as Runtime)
    const server = await runtime.runPromise(ReferenceServer.ReferenceServer)
    const run = (effect: Fx) => runtime.runPromise(effect)
    return {
      ...world(runtime as unknown as Runtime, referenceServer, observed, observe === true),
      server: Worlds.controls(run, server),
      answered,
      advance: (millis) => run(TestClock.adjust(Duration.millis(millis)))
    }
  },
  scripted: async (script, options) => {
    const received: Array<Driver.Received> = []
    const lanes: Array<Lane.Lane> = []
    const stores = Lines.storeCalls()
    const observed = Lines.observed()
    const http = Layer.merge(scriptedHttp(script, received), observing(options?.observe, observed))
    const runtime = runtimeOf(http, options, lanes, stores)
    const { settings: pacingSettings } = await runtime.runPromise(Pacing.Pacing)
    return {
      ...world(runtime, Lines.scriptedServer, observed, options?.observe === true),
      received,
      lanes,
      pacingSettings,
      stores
    }
  },
  decide: (op, error) => Retry.decide(op, error),
  isDateTime: (value) => DateTime.isDateTime(value),
  keyOf: Paginate.keyOf,
  resolveTarget: (env) =>
    Effect.runPromise(Effect.exit(
      Target.resolve.pipe(Effect.withConfigProvider(envProvider(env)))
    )).then((exit) =>
      Exit.isSuccess(exit)
        ? { _tag: "Success", value: Worlds.targetView(kit, exit.value) }
        : outcomeOf(exit as Exit.Exit<never>)
    ),
  targetClient: async (target, options = {}) => {
    const { baseUrl: _, token: __, ...client } = Lines.configOf({ baseUrl: "", token: "" }, options, makers)
    const limiters = Layer.merge(Pacing.layer(), CreationQuota.layer())
    const layer = target._tag === "Embedded"
      ? Target.layer({ _tag: "Embedded", token: Option.map(Option.fromNullable(target.token), Redacted.make) }, {
        client,
        sandbox: Effect.succeed(Embedded)
      }).pipe(Layer.provide(Layer.merge(unused, limiters)))
      : Target.layer({
        _tag: "Remote",
        baseUrl: target.baseUrl ?? ReferenceServer.inProcessBaseUrl,
        token: Redacted.make(target.token),
        redisUrl: Option.none()
      }, { client, sandbox: Effect.die("the sandbox was loaded") })
        .pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), limiters)))
    const runtime = ManagedRuntime.make(layer.pipe(Layer.provideMerge(TestContext.TestContext)))
    open.push(runtime as unknown as Runtime)
    const built = await runtime.runPromise(CommunityApiClient.CommunityApiClient)
    return Worlds.client(kit, runnerOf(runtime as unknown as Runtime), built)
  },
  budgetSchemas: Worlds.budgetSchemas({ Budget, Schema }),
  epochMillis: (value) => DateTime.toEpochMillis(value as DateTime.DateTime),
  refusalOf: (op, error, counted) =>
    Retry.refusalOf(op, ApiError.make(error.code as never, error.text, error.operation), counted),
  limiters: async ({ permitLimit } = {}) => {
    const runtime = ManagedRuntime.make(TestContext.TestContext) as unknown as Runtime
    open.push(runtime)
    const store = PermitStore.unsafeMakeMemory(Lines.given("limit", permitLimit))
    return Worlds.limiterWorld(kit, runnerOf(runtime), {
      permits: store,
      counts: CountStore.unsafeMakeMemory(),
      pacing: Effect.provideService(Pacing.makeFromStore(), PermitStore.PermitStore, store)
    })
  },
  realClient: (options) => {
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(LiveDriver.transport(options), Pacing.layer(), CreationQuota.layer())
    ) as unknown as Runtime
    open.push(runtime)
    return world(runtime, Lines.scriptedServer).client(options)
  },
  limitsChild,
  constants: {
    targetVariables: [Target.baseUrlVariable, Target.tokenVariable, Target.redisUrlVariable],
    pacingDefaults: { limit: Pacing.defaults.limit, windowMillis: Duration.toMillis(Pacing.defaults.window) },
    globalPacing: Pacing.global.settings,
    quotaDefaults: CreationQuota.defaults
  },
  limiterServices: () =>
    Effect.runPromise(Effect.gen(function*() {
      const layered = yield* Effect.provide(Pacing.Pacing, Pacing.layer({ limit: 3 }))
      return {
        pacingIsGlobal: (yield* Pacing.Pacing) === Pacing.global,
        quotaIsGlobal: (yield* CreationQuota.CreationQuota) === CreationQuota.global,
        layeredPacingIsGlobal: layered === Pacing.global,
        layeredPacingLimit: layered.settings.limit,
        layeredQuotaIsGlobal:
          (yield* Effect.provide(CreationQuota.CreationQuota, CreationQuota.layer())) === CreationQuota.global
      }
    })),
  realPort: () => LiveDriver.realPort(liveDeps),
  live: () => Worlds.liveWorld(kit, lineParts),
  configError: LiveDriver.configError,
  tryOptions: (target, options) => Worlds.tryOptions(kit, lineParts, target, options),
  isClientError: LiveDriver.isClientError,
  readme: LiveDriver.readme,
  redis: (options = {}) => Worlds.redisWorld(kit, lineParts, options),
  dispose: async () => {
    const runtimes = open.splice(0)
    await Promise.all(runtimes.map((runtime) => runtime.dispose()))
  }
}
