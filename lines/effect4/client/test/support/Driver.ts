/**
 * The Effect 4 line, as the client's scenarios (`tests/client-behaviour`) drive it: each world is a
 * runtime over a `TestClock`, a server on that clock and fresh limiters; calls are forked fibers of
 * that runtime, so the scenario's clock turns them exactly as `TestClock.adjust` in a test would.
 */
import { tokens } from "@community-api/core/DemoData"
import { ApiError, Operations } from "@community-api/effect4-schema"
import * as Embedded from "@community-api/effect4-server/Embedded"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import {
  Cause,
  Clock,
  ConfigProvider,
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
  Schedule,
  Schema,
  Stream
} from "effect"
import { FetchHttpClient, HttpClient, HttpClientError, HttpClientResponse, UrlParams } from "effect/http"
import { TestClock } from "effect/testing"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Lines from "../../../../../tests/client-behaviour/src/Lines.js"
import * as Budget from "../../src/Budget.js"
import * as ClientError from "../../src/ClientError.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CountStore from "../../src/CountStore.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Lane from "../../src/Lane.js"
import * as Pacing from "../../src/Pacing.js"
import * as Paginate from "../../src/Paginate.js"
import * as PermitStore from "../../src/PermitStore.js"
import * as Retry from "../../src/Retry.js"
import * as Target from "../../src/Target.js"
import * as Prometheus from "./Prometheus.js"
import * as RecordingTracer from "./RecordingTracer.js"
import * as RedisDriver from "./RedisDriver.js"

/** The scripted server's address and token: not the reference server's. */
const scriptedBaseUrl = "http://fake.local/external-api/v2"
const scriptedToken = "thp_fake-secret-token-0123456789"

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

const outcomeOf = <A>(exit: Exit.Exit<A, unknown>): Driver.Outcome<A> => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "Some") return { _tag: "Failure", error: failure.value as Driver.Failure }
  const defect = Cause.findDefect(exit.cause)
  if (defect._tag === "Success") return { _tag: "Defect", defect: defect.success }
  return { _tag: "Interrupted" }
}

/** A cause as `Outcome.cause` and `Observed` hold it: its rendering, and each error's stack with the causes it carries. */
const causeText = (cause: Cause.Cause<unknown>): string =>
  [Cause.pretty(cause), ...Cause.prettyErrors(cause, { includeCauseInStack: true }).map((e) => String(e.stack))]
    .join("\n")

/** Runs `effect` as a fiber of the world's runtime, as a thenable of its outcome and when it ended. */
const fork = <A>(runtime: Runtime, effect: Effect.Effect<A, unknown>): Driver.Call<A> => {
  let at: number | undefined
  const fiber = runtime.runFork(
    Effect.ensuring(effect, Effect.map(Clock.currentTimeMillis, (now) => void (at = now)))
  )
  return Lines.call(
    () =>
      runtime.runPromise(Fiber.await(fiber)).then((exit) => ({
        ...outcomeOf(exit),
        ...(at === undefined ? {} : { at }),
        ...(Exit.isFailure(exit) ? { cause: causeText(exit.cause) } : {})
      })),
    () => runtime.runPromise(Fiber.interrupt(fiber)).then(() => undefined)
  )
}

const makers = { millis: Duration.millis, secret: (text: string) => Redacted.make(text), retry: retryOf }

type Method = (params?: object) => Effect.Effect<unknown, unknown>
type StreamMethod = (params?: object) => Stream.Stream<unknown, unknown>

/** The effect or stream marked with the call's lane, if it has one. */
const marked = <X extends Effect.Effect<any, any> | Stream.Stream<any, any>>(x: X, options?: Driver.CallOptions): X =>
  options?.lane === undefined ? x : Lane.withLane(options.lane)(x as never) as X

/** A stream cut to its first `options.take` items, if given. */
const taking = <A, E>(stream: Stream.Stream<A, E>, options?: Driver.CallOptions) =>
  options?.take === undefined ? stream : Stream.take(stream, options.take)

type Pageable = Parameters<CommunityApiClient.Client["page"]>[0]

/** `client.page` of the list operation at `path`, as `Paginate.pages` fetches it. */
const pageOf =
  (client: CommunityApiClient.Client, path: string, params: object | undefined) =>
  (position?: Partial<Paginate.Position>): Effect.Effect<Driver.ListPage, unknown> =>
    client.page(Lines.operation<Pageable>(Operations, path), (params ?? {}) as never, position) as Effect.Effect<
      Driver.ListPage,
      unknown
    >

/** An element taken as `consuming` says: after its time on the clock, told with the time then. */
const taken = <A>(element: A, consuming: Driver.Consuming<A> = {}): Effect.Effect<void> =>
  Effect.andThen(
    consuming.millis === "never"
      ? Effect.never
      : consuming.millis === undefined
      ? Effect.void
      : Effect.sleep(Duration.millis(consuming.millis)),
    Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => consuming.each?.(element, now)))
  )

const clientOf = (runtime: Runtime, client: CommunityApiClient.Client): Driver.Client => ({
  call: (path, params, options) => fork(runtime, marked(Lines.member<Method>(client, path)(params), options)),
  callRaw: (path, params, options) =>
    fork(runtime, marked(client.call(path as never, (params ?? {}) as never), options)),
  stream: (path, params, options) =>
    fork(
      runtime,
      Stream.runCollect(taking(marked(Lines.member<StreamMethod>(client.streams, path)(params), options), options))
    ),
  page: (path, params, position) => fork(runtime, pageOf(client, path, params)(position)),
  pages: (path, params, options) =>
    fork(runtime, Stream.runCollect(Paginate.pages(pageOf(client, path, params), options))),
  pagedItems: (path, params, options) =>
    fork(runtime, Stream.runCollect(Paginate.stream(pageOf(client, path, params), options))),
  streamOf: (path, params) =>
    fork(
      runtime,
      Stream.runCollect(client.stream(Lines.operation<Pageable>(Operations, path), (params ?? {}) as never))
    ),
  consume: (path, params, consuming) =>
    fork(
      runtime,
      Stream.runForEachArray(
        Lines.member<StreamMethod>(client.streams, path)(params),
        (chunk) => taken(chunk, consuming)
      )
    ),
  budget: () => runtime.runPromise(Effect.orDie(client.budget)),
  estimateCreations: (count, by) =>
    runtime.runPromise(Effect.orDie(client.estimateCreations(count, DateTime.makeUnsafe(by)))),
  // The line's \`Budget.Json\` given as the core's: the types are one (the schemas' are checked both ways).
  budgetJson: (asks) =>
    runtime.runPromise(Effect.orDie(Effect.gen(function*() {
      const budget = yield* client.budget
      if (asks === undefined) return Budget.toJson(budget, "memory")
      const estimate = yield* client.estimateCreations(asks.creations, DateTime.makeUnsafe(asks.by))
      return Budget.toJson(budget, "memory", { ...asks, estimate })
    }))),
  serial: (path, options) =>
    fork(
      runtime,
      Effect.gen(function*() {
        const ended: Array<Driver.Ended> = []
        for (let i = 0; options.times === undefined || i < options.times; i++) {
          const startedAt = yield* Clock.currentTimeMillis
          if (options.while !== undefined && !options.while(startedAt)) break
          const exit = yield* Effect.exit(Lines.member<Method>(client, path)(options.params?.(i)))
          ended.push({ ...outcomeOf(exit), startedAt, at: yield* Clock.currentTimeMillis })
          if (options.pauseMillis !== undefined) yield* Effect.sleep(Duration.millis(options.pauseMillis))
        }
        return ended
      })
    )
})

/** A world: its runtime, and what every world offers over it. */
const world = (
  runtime: Runtime,
  defaults: { readonly baseUrl: string; readonly token: string },
  observed: Lines.Observing = Lines.observed(),
  observe = false
): Driver.World => ({
  client: (options = {}) => {
    const make = tapUrls(observe, observed, CommunityApiClient.make(Lines.configOf(defaults, options, makers)))
    return runtime.runPromise(
      options.limiters === "own" ? Effect.provide(make, Layer.mergeAll(Pacing.layer(), CreationQuota.layer())) : make
    ).then((client) => clientOf(runtime, client))
  },
  clientFromEnv: (env) =>
    runtime.runPromise(Effect.exit(
      tapUrls(
        observe,
        observed,
        Effect.provide(Effect.service(CommunityApiClient.CommunityApiClient), CommunityApiClient.layerConfig())
      ).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: { ...env } })))
    )).then((exit): Driver.Outcome<Driver.Client> =>
      Exit.isSuccess(exit)
        ? { _tag: "Success", value: clientOf(runtime, exit.value) }
        : { ...outcomeOf(exit as Exit.Exit<never, unknown>), cause: causeText(exit.cause) }
    ),
  observed,
  adjust: (millis) => runtime.runPromise(TestClock.adjust(Duration.millis(millis))),
  now: () => runtime.runPromise(Clock.currentTimeMillis),
  pages: (fetch, options, consuming) =>
    fork(
      runtime,
      Effect.gen(function*() {
        const pages: Array<Driver.Page> = []
        const fetched = (position: Paginate.Position) =>
          Effect.flatMap(Clock.currentTimeMillis, (at) => {
            const answer = fetch(position, at)
            return Effect.andThen(Effect.sleep(Duration.millis(answer.millis)), Effect.sync(answer.then))
          })
        yield* Stream.runForEach(
          Paginate.pages(fetched, options),
          (page) => Effect.andThen(Effect.sync(() => pages.push(page)), taken(page, consuming))
        )
        return pages
      })
    )
})

/** A target of `Target.resolve` as plain data. */
const targetView = (target: Target.Target): Driver.TargetView =>
  target._tag === "Remote"
    ? {
      _tag: "Remote",
      baseUrl: target.baseUrl,
      token: Redacted.value(target.token),
      redisUrl: Option.getOrUndefined(Option.map(target.redisUrl, Redacted.value)),
      shown: String(target.token) + String(target.redisUrl)
    }
    : { _tag: "Embedded", token: Option.getOrUndefined(Option.map(target.token, Redacted.value)) }

/** The context's `HttpClient` of an embedded target: never used, the sandbox brings its own. */
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
  const tracing = RecordingTracer.make((span, exit) => {
    observed.spans.push({
      name: span.name,
      attributes: Object.fromEntries([...span.attributes].map(([k, v]) => [k, Lines.plainValue(v)])),
      events: span.events,
      ...(Exit.isFailure(exit) ? { failure: causeText(exit.cause) } : {})
    })
  })
  return Layer.mergeAll(
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, "All"),
    tracing.layer,
    Layer.succeed(HttpClient.TracerHeaderFilter, () => true)
  )
}

/** A memory store of permits, provided as the user's own: recording every call, or failing every take. */
const ownPermits = (
  options: NonNullable<Driver.StoreOptions["permits"]>,
  calls: Lines.StoreCalls
): PermitStore.Service => {
  const inner = PermitStore.makeMemoryUnsafe(options.limit === undefined ? {} : { limit: options.limit })
  if (options.fails !== undefined) {
    const unavailable = new ClientError.LimiterUnavailable(options.fails)
    calls.failure = unavailable as unknown as Driver.Failure
    return { ...inner, take: () => Effect.fail(unavailable) }
  }
  return {
    limit: inner.limit,
    take: (user) => Effect.andThen(Effect.sync(() => calls.takes++), inner.take(user)),
    release: (permit, hold) => Effect.andThen(Effect.sync(() => calls.holds.push(hold)), inner.release(permit, hold)),
    budget: inner.budget,
    block: (user, millis) => Effect.andThen(Effect.sync(() => calls.blocks.push(millis)), inner.block(user, millis))
  }
}

/** A memory store of counts, provided as the user's own, recording every verdict. */
const ownCounts = (options: NonNullable<Driver.StoreOptions["counts"]>, calls: Lines.StoreCalls) => {
  const inner = CountStore.makeMemoryUnsafe(options.perMinute === undefined ? {} : { perMinute: options.perMinute })
  const store: CountStore.Service = {
    ...inner,
    take: (user) => Effect.tap(inner.take(user), (verdict) => Effect.sync(() => calls.verdicts.push(verdict._tag)))
  }
  return store
}

/** The world's pacing: the line's, or over a store through its seam. */
const pacingOf = (options: Driver.LimiterOptions, calls: Lines.StoreCalls): Layer.Layer<never> => {
  const permits = options.stores?.permits
  if (permits === undefined) {
    return Pacing.layer({
      ...(options.pacingLimit === undefined ? {} : { limit: options.pacingLimit }),
      ...(options.pacingHold === undefined ? {} : { hold: options.pacingHold }),
      ...(options.metricsPerUser === undefined ? {} : { metrics: { perUser: { max: options.metricsPerUser } } })
    })
  }
  const settings = permits.marginMillis === undefined ? {} : { margin: Duration.millis(permits.marginMillis) }
  return Pacing.layerFromStore(settings).pipe(Layer.provide(
    permits.via === "own"
      ? Layer.succeed(PermitStore.PermitStore, ownPermits(permits, calls))
      : PermitStore.layerMemory(permits.limit === undefined ? {} : { limit: permits.limit })
  ))
}

/** The world's creation quota: the line's, or over a store through its seam. */
const quotaOf = (options: Driver.LimiterOptions, calls: Lines.StoreCalls): Layer.Layer<never> => {
  const counts = options.stores?.counts
  if (counts === undefined) {
    return CreationQuota.layer(options.quotaPerMinute === undefined ? {} : { perMinute: options.quotaPerMinute })
  }
  return CreationQuota.layerFromStore.pipe(Layer.provide(
    counts.via === "own"
      ? Layer.succeed(CountStore.CountStore, ownCounts(counts, calls))
      : CountStore.layerMemory(counts.perMinute === undefined ? {} : { perMinute: counts.perMinute })
  ))
}

/** Fresh limiters, their pacing recording the lane of every request it lets in. */
const limitersOf = (
  options: Driver.LimiterOptions = {},
  lanes: Array<Lane.Lane> = [],
  calls: Lines.StoreCalls = Lines.storeCalls()
) =>
  Layer.mergeAll(
    Layer.effect(
      Pacing.Pacing,
      Effect.map(
        Effect.gen(function*() {
          return yield* Pacing.Pacing
        }),
        (pacing) => ({
          ...pacing,
          withPermit: (user: string, lane?: Lane.Lane) => <A, E, R>(send: Effect.Effect<A, E, R>) =>
            Effect.flatMap(Lane.current(lane), (resolved) => {
              lanes.push(resolved)
              return pacing.withPermit(user, lane)(send)
            })
        })
      )
    ).pipe(Layer.provide(pacingOf(options, calls))),
    quotaOf(options, calls)
  )

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
        init: { status: reply.status, headers: { "content-type": reply.contentType, ...reply.headers } }
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
  reference: async ({ metricsPerUser, observe, pacingLimit, prometheusPort, randomSeed, ...options } = {}) => {
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
    const seeded = (seed: string) =>
      Effect.runSync(Random.withSeed(
        Effect.gen(function*() {
          return yield* Random.Random
        }),
        seed
      ))
    const random = randomSeed === undefined ? Layer.empty : Layer.succeed(Random.Random, seeded(randomSeed))
    const runtime = runtimeOf(
      Layer.mergeAll(
        served,
        random,
        observing(observe, observed),
        prometheusPort === undefined ? Layer.empty : Prometheus.layer(prometheusPort)
      ),
      {
        ...(pacingLimit === undefined ? {} : { pacingLimit }),
        ...(metricsPerUser === undefined ? {} : { metricsPerUser })
      }
    )
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
      ...world(
        runtime as unknown as Runtime,
        { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner },
        observed,
        observe === true
      ),
      server: controls,
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
    const observed = Lines.observed()
    const runtime = runtimeOf(
      Layer.merge(Layer.succeed(HttpClient.HttpClient, client), observing(options?.observe, observed)),
      options,
      lanes,
      stores
    )
    const { settings: pacingSettings } = await runtime.runPromise(Effect.gen(function*() {
      return yield* Pacing.Pacing
    }))
    return {
      ...world(
        runtime as unknown as Runtime,
        { baseUrl: scriptedBaseUrl, token: scriptedToken },
        observed,
        options?.observe === true
      ),
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
      Exit.isSuccess(exit) ? { _tag: "Success", value: targetView(exit.value) } : outcomeOf(exit as Exit.Exit<never>)
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
    return clientOf(runtime as unknown as Runtime, built)
  },
  budgetSchemas: {
    decode: (value) => Schema.decodeUnknownSync(Budget.Json)(value),
    decodeWindow: (value) => Schema.decodeUnknownSync(Budget.WindowJson)(value),
    // The core's JSON is the line's schema's type: it encodes as it is.
    encode: (json) => Schema.encodeSync(Budget.Json)(json)
  },
  epochMillis: (value) => DateTime.toEpochMillis(value as DateTime.DateTime),
  refusalOf: (op, error, counted) =>
    Retry.refusalOf(op, ApiError.make(error.code as never, error.text, error.operation), counted),
  limiters: async ({ permitLimit } = {}) => {
    const runtime = ManagedRuntime.make(TestClock.layer())
    open.push(runtime)
    const run = <A>(effect: Effect.Effect<A>) => runtime.runPromise(effect)
    const store = PermitStore.makeMemoryUnsafe(permitLimit === undefined ? {} : { limit: permitLimit })
    const counts = CountStore.makeMemoryUnsafe()
    let pacing: Promise<Driver.PacingService> | undefined
    return {
      adjust: (millis) => run(TestClock.adjust(Duration.millis(millis))),
      setTime: (epochMillis) => run(TestClock.setTime(epochMillis)),
      pacing: () =>
        pacing ??= run(Effect.provideService(Pacing.makeFromStore(), PermitStore.PermitStore, store)).then((
          service
        ) => ({
          settings: service.settings,
          withPermit: (user, millis = 0) =>
            fork(
              runtime as unknown as Runtime,
              service.withPermit(user)(millis === 0 ? Effect.void : Effect.sleep(Duration.millis(millis)))
            ),
          users: () => run(service.users)
        })),
      permits: {
        take: (user) => run(store.take(user)),
        release: (permit, hold) => run(store.release(permit as PermitStore.Permit, hold)),
        block: (user, millis) => run(store.block(user, millis)),
        users: () => run(store.users)
      },
      counts: {
        take: (user) => run(Effect.map(counts.take(user), (verdict) => verdict._tag)),
        refund: (user, at) => run(counts.refund(user, at)),
        users: () => run(counts.users)
      }
    }
  },
  realClient: ({ fetch, http, requestInit, ...options }) => {
    const given = Layer.mergeAll(
      fetch === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.Fetch, fetch as typeof globalThis.fetch),
      requestInit === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.RequestInit, requestInit)
    )
    const transport = http === "undici" ? NodeHttpClient.layerUndici : FetchHttpClient.layer
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(transport, Pacing.layer(), CreationQuota.layer()).pipe(Layer.provideMerge(given))
    )
    open.push(runtime)
    return world(runtime as unknown as Runtime, { baseUrl: scriptedBaseUrl, token: scriptedToken }).client(options)
  },
  redis: (options = {}) =>
    RedisDriver.world(options, {
      clientOf,
      fork,
      config: (defaults, options) => Lines.configOf(defaults, options, makers),
      open: (world) => void open.push(world)
    }),
  dispose: async () => {
    const runtimes = open.splice(0)
    await Promise.all(runtimes.map((runtime) => runtime.dispose()))
  }
}
