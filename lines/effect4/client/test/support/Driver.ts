/**
 * The Effect 4 line, as the client's scenarios (`tests/client-behaviour`) drive it: each world is a
 * runtime over a `TestClock`, a server on that clock and fresh limiters; calls are forked fibers of
 * that runtime, so the scenario's clock turns them exactly as `TestClock.adjust` in a test would.
 */
import { tokens } from "@community-api/core/DemoData"
import { ApiError, Operations } from "@community-api/effect4-schema"
import * as Embedded from "@community-api/effect4-server/Embedded"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
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

type Runtime = ManagedRuntime.ManagedRuntime<HttpClient.HttpClient, never>

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

const makers = { millis: Duration.millis, secret: (text: string) => Redacted.make(text), retry: retryOf }

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
      layer: (config) =>
        Effect.provide(Effect.service(CommunityApiClient.CommunityApiClient), CommunityApiClient.layer(config)),
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
            Effect.service(CommunityApiClient.CommunityApiClient),
            CommunityApiClient.layerConfig(LiveDriver.envConfig(options))
          )
        ).pipe(Effect.provideService(ConfigProvider.ConfigProvider, LiveDriver.envProvider(env, options)))
      )
  }
}

/** An `HttpClient` that dies when used: an embedded target's (the sandbox brings its own), or where nothing may be sent. */
const unused = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make(() => Effect.die("the context's HttpClient was used"))
)

/** `make` with every request URL its client sends recorded, with its query parameters, when observing. */
const tapUrls = <A, E, R>(observe: boolean, observed: Lines.Observing, make: Effect.Effect<A, E, R>) =>
  !observe ? make : make.pipe(Effect.updateService(
    HttpClient.HttpClient,
    HttpClient.tapRequest((request) =>
      Effect.sync(() => {
        observed.urls.push(`${request.url}?${UrlParams.toString(request.urlParams)}`)
      })
    )
  ))

/**
 * A recording tracer, every header on the platform's spans (off by default on this line) and a logger
 * of every level, into `observed`, when observing.
 */
const observing = (observe: boolean | undefined, observed: Lines.Observing): Layer.Layer<never> => {
  if (observe !== true) return Layer.empty
  const logger = Logger.make(({ cause, fiber, logLevel, message }) => {
    observed.logs.push(
      Lines.logLine(logLevel, message, fiber.getRef(References.CurrentLogAnnotations)),
      causeText(cause)
    )
  })
  const tracing = RecordingTracer.make((span, exit) =>
    void observed.spans.push(Lines.span(span, Exit.isFailure(exit) ? causeText(exit.cause) : undefined))
  )
  return Layer.mergeAll(
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, "All"),
    tracing.layer,
    Layer.succeed(HttpClient.TracerHeaderFilter, () => true)
  )
}

/** Fresh limiters, their pacing recording the lane of every request it lets in. */
const limitersOf = (options?: Driver.LimiterOptions, lanes?: Array<Lane.Lane>, calls?: Lines.StoreCalls) =>
  Worlds.limiters(kit, lineParts, options, lanes, calls) as Layer.Layer<never>

/** The reference server's address and the demo owner's token: where a reference world's clients go by default. */
const referenceServer = { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner }

/** The runtimes made since the last `dispose`. */
const open: Array<{ readonly dispose: () => Promise<void> }> = []

const runtimeOf = <R>(
  layer: Layer.Layer<R>,
  options?: Driver.LimiterOptions,
  lanes?: Array<Lane.Lane>,
  calls?: Lines.StoreCalls
) => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(layer, limitersOf(options, lanes, calls)).pipe(Layer.provideMerge(TestClock.layer()))
  )
  open.push(runtime)
  return runtime
}

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

/** What `LiveDriver` borrows of this driver. */
const liveDeps: LiveDriver.Deps = {
  world,
  open: (runtime) => void open.push(runtime)
}

/** What the kit's worlds of Redis and `tryOptions` take of this line. */
const lineParts: Worlds.LineParts<Fx> = {
  testClock: TestClock.layer(),
  extend: (self, scope) => Scope.provide(self, scope as Scope.Scope),
  warnings: (warnings) =>
    Logger.layer([
      Logger.make(({ logLevel, message }) => void (logLevel === "Warn" && warnings.push(String(message))))
    ]),
  envLayer: (env) => ConfigProvider.layer(ConfigProvider.fromEnv({ env })),
  inEnv: (env) => Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })),
  effect: { Config, Context, Exit, Layer, ManagedRuntime, Scope },
  client: { ClientError, CommunityApiClient, CountStore, CreationQuota, Pacing, PermitStore, Timers },
  redis: { RedisInternal, RedisStore },
  memory: { permits: PermitStore.makeMemoryUnsafe, counts: CountStore.makeMemoryUnsafe },
  ReferenceServer,
  open: (world) => void open.push(world as never),
  unsent: unused,
  makers,
  scriptedHttp,
  service: (tag) => Effect.service(tag as never)
}

export const line: Driver.Line = {
  name: "Effect 4",
  reference: async (
    { metricsPerUser, observe, pacingLimit, prometheusPort, quotaPerMinute, randomSeed, stores, ...options } = {}
  ) => {
    const answered: Array<Driver.ReferenceWorld["answered"][number]> = []
    const observed = Lines.observed()
    // The server tells each answer the moment it is made (`onRequest`), on the clock it runs on, the world's.
    const served = Layer.unwrap(Effect.clockWith((clock) =>
      Effect.succeed(ReferenceServer.layerTest({
        ...(options as ReferenceServer.Options),
        onRequest: (entry) => {
          answered.push({ at: clock.currentTimeMillisUnsafe(), path: entry.path, outcome: entry.outcome })
          if (observe === true) observed.serverLog.push(JSON.stringify(entry))
        }
      }))
    ))
    // One generator of the seed for every fiber of the world, as `Random.withSeed` gives it.
    const seeded = (seed: string) => Effect.runSync(Random.withSeed(Effect.service(Random.Random), seed))
    const random = randomSeed === undefined ? Layer.empty : Layer.succeed(Random.Random, seeded(randomSeed))
    const runtime = runtimeOf(
      Layer.mergeAll(
        served,
        random,
        observing(observe, observed),
        prometheusPort === undefined ? Layer.empty : Prometheus.layer(prometheusPort)
      ),
      Lines.defined({ pacingLimit, metricsPerUser, quotaPerMinute, stores })
    )
    const server = await runtime.runPromise(Effect.service(ReferenceServer.ReferenceServer))
    const run = <A>(effect: Effect.Effect<A, never, ReferenceServer.ReferenceServer>) => runtime.runPromise(effect)
    return {
      ...world(runtime as unknown as Runtime, referenceServer, observed, observe === true),
      server: Worlds.controls(run, server),
      answered,
      advance: (millis) =>
        runtime.runPromise(Effect.gen(function*() {
          for (let i = 0; i < millis; i++) {
            yield* TestClock.adjust(Duration.millis(1))
            yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
          }
        }))
    }
  },
  scripted: async (script, options) => {
    const received: Array<Driver.Received> = []
    const lanes: Array<Lane.Lane> = []
    const stores = Lines.storeCalls()
    const observed = Lines.observed()
    const http = Layer.merge(scriptedHttp(script, received), observing(options?.observe, observed))
    const runtime = runtimeOf(http, options, lanes, stores)
    const { settings: pacingSettings } = await runtime.runPromise(Effect.service(Pacing.Pacing))
    return {
      ...world(runtime as unknown as Runtime, Lines.scriptedServer, observed, options?.observe === true),
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
      Target.resolve.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
    )).then((exit) =>
      Exit.isSuccess(exit)
        ? { _tag: "Success", value: Worlds.targetView(kit, exit.value) }
        : outcomeOf(exit as Exit.Exit<never>)
    ),
  targetClient: async (target, options = {}) => {
    const { baseUrl: _, token: __, ...client } = Lines.configOf({ baseUrl: "", token: "" }, options, makers)
    const limiters = Layer.merge(Pacing.layer(), CreationQuota.layer())
    const layer = target._tag === "Embedded"
      ? Target.layer({ _tag: "Embedded", token: Option.map(Option.fromNullishOr(target.token), Redacted.make) }, {
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
    const runtime = ManagedRuntime.make(layer.pipe(Layer.provideMerge(TestClock.layer())))
    open.push(runtime)
    const built = await runtime.runPromise(Effect.service(CommunityApiClient.CommunityApiClient))
    return Worlds.client(kit, runnerOf(runtime as unknown as Runtime), built)
  },
  budgetSchemas: Worlds.budgetSchemas({ Budget, Schema }),
  epochMillis: (value) => DateTime.toEpochMillis(value as DateTime.DateTime),
  refusalOf: (op, error, counted) =>
    Retry.refusalOf(op, ApiError.make(error.code as never, error.text, error.operation), counted),
  limiters: async ({ permitLimit } = {}) => {
    const runtime = ManagedRuntime.make(TestClock.layer())
    open.push(runtime)
    const store = PermitStore.makeMemoryUnsafe(Lines.given("limit", permitLimit))
    return Worlds.limiterWorld(kit, runnerOf(runtime as unknown as Runtime), {
      permits: store,
      counts: CountStore.makeMemoryUnsafe(),
      pacing: Effect.provideService(Pacing.makeFromStore(), PermitStore.PermitStore, store)
    })
  },
  realClient: (options) => {
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(LiveDriver.transport(options), Pacing.layer(), CreationQuota.layer())
    )
    open.push(runtime)
    return world(runtime as unknown as Runtime, Lines.scriptedServer).client(options)
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
      const layered = yield* Effect.provide(Effect.service(Pacing.Pacing), Pacing.layer({ limit: 3 }))
      return {
        pacingIsGlobal: (yield* Effect.service(Pacing.Pacing)) === Pacing.global,
        quotaIsGlobal: (yield* Effect.service(CreationQuota.CreationQuota)) === CreationQuota.global,
        layeredPacingIsGlobal: layered === Pacing.global,
        layeredPacingLimit: layered.settings.limit,
        layeredQuotaIsGlobal:
          (yield* Effect.provide(Effect.service(CreationQuota.CreationQuota), CreationQuota.layer())) ===
            CreationQuota.global
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
