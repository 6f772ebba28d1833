/**
 * What a scenario needs of an Effect line, and nothing of Effect: each line implements this once
 * (`test/support/Driver.ts` of its client) and runs every scenario through it in its own test runner.
 *
 * A world is one test clock starting at 0, one server on that clock (the reference server in process,
 * or a scripted one) and fresh limiters; its clients share them. Times are milliseconds on the world's
 * clock, which moves only when the scenario turns it. Paths are `section/method`.
 */
import type * as Budget from "@community-api/core/Budget"
import type * as DemoData from "@community-api/core/DemoData"
import type * as RedisScripts from "@community-api/core/RedisScripts"

/**
 * An instant as the line's values give it (its `DateTime.Utc`): the budgets of its clients and
 * services. Read with {@link Line.epochMillis}, or a whole budget with the core's `Budget.mapInstants`.
 */
export type Instant = unknown

export type LaneName = "interactive" | "batch"

/** A pacing's settings, as it resolved them. */
export interface PacingSettings {
  readonly limit: number
  readonly windowMillis: number
  readonly marginMillis: number
}

/** How long a permit given back is held: past the answer, and past its take. */
export interface Hold {
  readonly afterAnswerMillis: number
  readonly afterTakeMillis: number
}

/** A request as a scripted server received it, `at` on the world's clock. */
export interface Received {
  readonly at: number
  readonly path: string
  readonly url: string
  readonly body: Readonly<Record<string, unknown>>
  readonly authorization: string | undefined
}

/** What a scripted server does with a request. */
export type Reply =
  /** Answers HTTP 200 with this JSON body. */
  | { readonly _tag: "Json"; readonly body: unknown }
  | {
    readonly _tag: "Text"
    readonly text: string
    readonly contentType: string
    readonly status: number
    /** More headers of the answer (`location`, ...). */
    readonly headers?: Readonly<Record<string, string>>
  }
  /** Drops the connection: the client sees a transport failure. */
  | { readonly _tag: "Drop"; readonly reason: string }
  /** Waits on the world's clock, then replies as `then` says (given the time it woke). */
  | { readonly _tag: "Wait"; readonly millis: number; readonly then: Reply | ((at: number) => Reply) }

/** A scripted server: `index` counts the requests that came before. */
export type Script = (request: Received, index: number) => Reply

/** The client's retry schedule, as plain delays between attempts. */
export interface RetryOptions {
  /** The delay before each retry, in order; as many retries as delays. */
  readonly delays: ReadonlyArray<number>
  /** How many times error 5 of an ordinary request is waited out and sent again. */
  readonly limitRetries?: number
  /** Each delay scaled by a random factor from 0.8 to 1.2 (the line's `Schedule.jittered`, its `Random`). */
  readonly jittered?: boolean
  /** Each delay, once jittered, at most this long. */
  readonly maxDelayMillis?: number
}

/** A client's configuration, as plain data; each line builds its own `ClientConfig` from it. */
export interface ClientOptions {
  /** The world's default (the demo owner's, or a scripted server's fake) when left out. */
  readonly token?: string
  readonly baseUrl?: string
  readonly auth?: "header" | "body"
  readonly timeout?: number
  readonly deadline?: number
  readonly maxResponseBytes?: number
  /** The line's default policy when left out; `"never"` for none. */
  readonly retry?: RetryOptions | "never"
  readonly userKey?: string
  readonly onCreationLimit?: "wait" | "fail"
  readonly lane?: LaneName
  /** Limiters of its own (`Pacing.layer()`, `CreationQuota.layer()`): another process of the user, sharing nothing. */
  readonly limiters?: "own"
}

/** A typed failure as the call ended with it: the error object itself, read by its fields. */
export interface Failure {
  readonly _tag: string
  readonly message: string
  readonly [field: string]: unknown
}

/** How a call ended, `at` on the world's clock; a failure or defect with its cause as the line renders it. */
export type Outcome<A = unknown> =
  & (
    | { readonly _tag: "Success"; readonly value: A }
    | { readonly _tag: "Failure"; readonly error: Failure }
    | { readonly _tag: "Defect"; readonly defect: unknown }
    | { readonly _tag: "Interrupted" }
  )
  & { readonly at?: number; readonly cause?: string }

/** A call under way on the world's clock; awaiting it gives its outcome (it never rejects). */
export interface Call<A = unknown> extends PromiseLike<Outcome<A>> {
  /** Stops it and waits until it has stopped. */
  readonly interrupt: () => Promise<void>
}

/** How one call is made: marked with a lane (`Lane.withLane`), over its client's; a stream's first `take` items. */
export interface CallOptions {
  readonly lane?: LaneName
  readonly take?: number
}

/** A client of the world's server. */
export interface Client {
  /** The typed method `client.section.method(params)`. */
  readonly call: (path: string, params?: object, options?: CallOptions) => Call
  /** The untyped `client.call(path, params)`, with parameters as the wire takes them. */
  readonly callRaw: (path: string, params?: object, options?: CallOptions) => Call
  /** Every item of `client.streams.section.method(params)`. */
  readonly stream: (path: string, params?: object, options?: CallOptions) => Call<ReadonlyArray<unknown>>
  /** `client.budget`, its instants the line's. */
  readonly budget: () => Promise<Budget.OfUser<Instant>>
  /** `client.estimateCreations(count, by)`, `by` in epoch milliseconds. */
  readonly estimateCreations: (count: number, by: number) => Promise<Budget.Estimate<Instant>>
  /** The line's `Budget.toJson` of `client.budget` (its limiters in memory), with the answer to `asks`. */
  readonly budgetJson: (asks?: Budget.Question) => Promise<Budget.Json>
  /** Calls of `path` one after another in one fiber; every call's outcome, in order. */
  readonly serial: (path: string, options: SerialOptions) => Call<ReadonlyArray<Ended>>
  /** `client.page(op, params, position)` of the list operation at `path`. */
  readonly page: (path: string, params?: object, position?: Partial<Position>) => Call<ListPage>
  /** Every page of the line's `Paginate.pages` over `client.page`, and every item of its `Paginate.stream`. */
  readonly pages: (path: string, params?: object, options?: PagesOptions) => Call<ReadonlyArray<Page>>
  readonly pagedItems: (path: string, params?: object, options?: PagesOptions) => Call<ReadonlyArray<unknown>>
  /** Every item of `client.stream(op, params)` of the list operation at `path`. */
  readonly streamOf: (path: string, params?: object) => Call<ReadonlyArray<unknown>>
  /** `client.streams.section.method(params)` consumed a chunk at a time (`Stream.runForEachChunk`). */
  readonly consume: (
    path: string,
    params: object | undefined,
    consuming: Consuming<ReadonlyArray<unknown>>
  ) => Call<void>
}

/** `Paginate.Position`. */
export interface Position {
  readonly offset: number
  readonly count: number
}

/** A page of a list as the API answers it. */
export interface ListPage {
  readonly items: ReadonlyArray<unknown>
  readonly total: number
}

/** A page as the line's `Paginate.pages` streams it: with the offset it was asked at. */
export interface Page extends ListPage {
  readonly offset: number
}

/** `Paginate.Options`. */
export interface PagesOptions {
  readonly offset?: number
  readonly pageSize?: number
}

/** How a stream's elements (or chunks) are consumed, one at a time (`Stream.runForEach`). */
export interface Consuming<A> {
  /** Each is taken this long on the world's clock, or forever with `"never"`; at once when left out. */
  readonly millis?: number | "never"
  /** Told each once it is taken, with the world's time then. */
  readonly each?: (element: A, at: number) => void
}

/** A fetch of a page, on the world's clock: after `millis`, the page `then` gives. */
export interface PageAnswer {
  readonly millis: number
  readonly then: () => ListPage
}

/** Calls one after another (`Client.serial`). */
export interface SerialOptions {
  /** At most this many calls; no bound when left out. */
  readonly times?: number
  /** The parameters of the `i`-th call (from 0); none when left out. */
  readonly params?: (i: number) => object
  /** Read before each call with the world's time: no more calls once it is false. */
  readonly while?: (now: number) => boolean
  /** Waits this long on the world's clock after each call. */
  readonly pauseMillis?: number
}

/** One call of a serial loop: how it ended, when it began and when it ended on the world's clock. */
export type Ended = Outcome & { readonly startedAt: number; readonly at: number }

/** The line's schemas of a budget's JSON (`Budget.Json`, `Budget.WindowJson`); each throws on a refusal. */
export interface BudgetSchemas {
  readonly decode: (value: unknown) => Budget.Json
  readonly decodeWindow: (value: unknown) => Budget.WindowJson
  readonly encode: (json: Budget.Json) => unknown
}

/** The reference server's controls, as `ReferenceServer` has them on both lines. */
export interface ServerControls {
  readonly setFaults: (faults: Readonly<Record<string, unknown>>) => Promise<void>
  readonly clearFaults: () => Promise<void>
  readonly snapshot: () => Promise<DemoData.Fixture>
  readonly revokeToken: (token: string) => Promise<void>
  readonly requestCount: () => Promise<number>
  readonly recentRequests: () => Promise<ReadonlyArray<Readonly<Record<string, unknown>>>>
}

/** How `World.clientFromEnv` reads its environment, beyond the line's `configFromEnv`. */
export interface EnvOptions {
  /** The client's `userKey` read from this variable too (`Config.all([configFromEnv, Config.string(name)])`). */
  readonly userKeyVariable?: string
  /**
   * An empty variable: `"missing"`, read as missing (Effect 4's providers by default; on Effect 3 it is
   * left out of the environment); `"kept"`, read as "" (Effect 3's providers; Effect 4's with
   * `preserveEmptyStrings`). The line's provider's default when left out.
   */
  readonly empty?: "missing" | "kept"
}

/** One clock, one server, fresh limiters. */
export interface World {
  readonly client: (options?: ClientOptions) => Promise<Client>
  /** Moves the world's clock forward, running whatever wakes on the way. */
  readonly adjust: (millis: number) => Promise<void>
  readonly now: () => Promise<number>
  /**
   * A client of the line's `layerConfig()`, read from `env` as the environment (the line's
   * `ConfigProvider` of it), over the world's server and limiters: the client, or how building it failed.
   */
  readonly clientFromEnv: (env: Readonly<Record<string, string>>, options?: EnvOptions) => Promise<Outcome<Client>>
  /** A client made as `via` says (`make`, or the line's `layer`): the client, or how it failed (a refused configuration dies). */
  readonly tryClient: (options: ClientOptions, via: "make" | "layer") => Promise<Outcome<Client>>
  /** What the client showed, recorded when the world was made with `observe` (empty otherwise). */
  readonly observed: Observed
  /** The line's `Paginate.pages` over `fetch` (told each position and the world's time), consumed as `consuming` says. */
  readonly pages: (
    fetch: (position: Position, at: number) => PageAnswer,
    options?: PagesOptions,
    consuming?: Consuming<Page>
  ) => Call<ReadonlyArray<Page>>
}

/** A span as a recording tracer of the line saw it: attributes other than a string, number or boolean as their `String`. */
export interface ObservedSpan {
  readonly name: string
  readonly attributes: Readonly<Record<string, unknown>>
  readonly events: ReadonlyArray<readonly [name: string, attributes: Readonly<Record<string, unknown>> | undefined]>
  /** When it ended failing: its cause as the line renders it. */
  readonly failure?: string
}

/**
 * What a world made with `observe` records of the client: every span (a recording tracer, every
 * header traced), every log line at any level, every request URL sent and the server's request log.
 */
export interface Observed {
  readonly spans: ReadonlyArray<ObservedSpan>
  /** `LEVEL message annotations` as JSON, then the cause as the line renders it, when there is one. */
  readonly logs: ReadonlyArray<string>
  /** Every request the client sent: its URL, `?`, and its query parameters. */
  readonly urls: ReadonlyArray<string>
  /** Every entry of the reference server's request log (`onRequest`), as JSON. */
  readonly serverLog: ReadonlyArray<string>
}

export interface ReferenceWorld extends World {
  readonly server: ServerControls
  /** Every answer of the server (its `onRequest`), unbounded: when it was made, on the world's clock. */
  readonly answered: ReadonlyArray<
    { readonly at: number; readonly path: string; readonly outcome: number | "ok" | "dropped" }
  >
  /**
   * Moves the clock under a load through the server in process: Effect 3 adjusts it at once; Effect 4 a
   * millisecond at a time, letting the event loop turn after each (its requests cross into the server
   * and back through promises, outside the fibers its `TestClock.adjust` waits for, and one adjust over
   * seconds would start a request's latency late).
   */
  readonly advance: (millis: number) => Promise<void>
}

export interface ScriptedWorld extends World {
  readonly received: ReadonlyArray<Received>
  /** The lane of every request as the world's pacing saw it, in order. */
  readonly lanes: ReadonlyArray<LaneName>
  readonly pacingSettings: PacingSettings
  /** What the limiters asked of the stores of their own (`StoreOptions`, `"own"`), as they asked it. */
  readonly stores: StoreCalls
}

/** What the limiters asked of stores of the user's own. */
export interface StoreCalls {
  readonly takes: number
  /** The hold of every permit given back. */
  readonly holds: ReadonlyArray<Hold>
  /** The length of every block after a refusal for the rate. */
  readonly blocks: ReadonlyArray<number>
  /** The `_tag` of every verdict of the store of counts (`Taken`, `Exhausted`, ...). */
  readonly verdicts: ReadonlyArray<string>
  /** The error the failing store of permits fails every take with. */
  readonly failure: Failure | undefined
}

/**
 * The stores under the limiters, through the seam a store of the user's own takes: `"own"`, a memory
 * store provided as the line's `PermitStore` (under `Pacing.layerFromStore`) or `CountStore` (under
 * `CreationQuota.layerFromStore`), recording what it is asked; `"layer"`, the line's memory store's
 * layer (`PermitStore.layerMemory`, `CountStore.layerMemory`) under the same.
 */
export interface StoreOptions {
  readonly permits?: {
    readonly via: "own" | "layer"
    readonly limit?: number
    /** The pacing's margin past a window (`Pacing.layerFromStore({ margin })`). */
    readonly marginMillis?: number
    /** The store of its own fails every take with the line's `LimiterUnavailable` of these fields. */
    readonly fails?: { readonly limiter: "pacing"; readonly store: string; readonly reason: string }
  }
  readonly counts?: { readonly via: "own" | "layer"; readonly perMinute?: number }
}

/** The world's limiters, other than the line's defaults. */
export interface LimiterOptions {
  readonly pacingLimit?: number
  readonly stores?: StoreOptions
  /** `Pacing.layer({ hold })`. */
  readonly pacingHold?: "learned" | "safe"
  /** `CreationQuota.layer({ perMinute })`. */
  readonly quotaPerMinute?: number
  /** The pacing's per-user metrics, for at most this many users (`Pacing.layer({ metrics: { perUser: { max } } })`). */
  readonly metricsPerUser?: number
  /** The world records what the client shows ({@link Observed}). */
  readonly observe?: boolean
}

/** Options of the reference server in process. */
export interface ReferenceOptions extends LimiterOptions {
  readonly fixture?: DemoData.Fixture
  readonly faults?: Readonly<Record<string, unknown>>
  /** The world's `Random` seeded with this (`Random.make(seed)`, `Random.withSeed(seed)`), shared by its fibers. */
  readonly randomSeed?: string
  /** The world's metrics served on this loopback port by the OpenTelemetry Prometheus exporter, as `docs/client.md` shows it. */
  readonly prometheusPort?: number
}

/**
 * The line's limiters themselves, on a test clock of their own (under `TestClock`): a memory store of
 * permits, a pacing service over it (`Pacing.makeFromStore`, made on first use) and a memory store of counts.
 */
export interface LimiterWorld {
  readonly now: () => Promise<number>
  readonly adjust: (millis: number) => Promise<void>
  /** `TestClock.setTime`. */
  readonly setTime: (epochMillis: number) => Promise<void>
  /** The line's timers, on this world's clock. */
  readonly timers: () => Timers
  readonly pacing: () => Promise<PacingService>
  readonly permits: {
    /** A handle for `release`. */
    readonly take: (user: string) => Promise<unknown>
    readonly release: (permit: unknown, hold: Hold) => Promise<void>
    readonly block: (user: string, millis: number) => Promise<void>
    /** How many users it holds a gate of. */
    readonly users: () => Promise<number>
  }
  readonly counts: {
    /** The `_tag` of the verdict. */
    readonly take: (user: string) => Promise<string>
    /** The creation of `user` taken at `at` (epoch milliseconds) given back. */
    readonly refund: (user: string, at: number) => Promise<void>
    readonly users: () => Promise<number>
  }
}

/** A pacing service of the line, as plain calls. */
export interface PacingService {
  readonly settings: PacingSettings
  /** `withPermit(user)` around a send that lasts `millis` on the clock (none when 0 or left out). */
  readonly withPermit: (user: string, millis?: number) => Call<void>
  /** How many users it holds a rule of. */
  readonly users: () => Promise<number>
}

/** A client over a real `HttpClient` of the line (`Line.realClient`). */
export interface RealClientOptions extends ClientOptions {
  /** The line's fetch (`FetchHttpClient.layer`) or undici (`NodeHttpClient.layerUndici`). */
  readonly http: "fetch" | "undici"
  /** fetch only: the function it calls in place of the global one (`FetchHttpClient.Fetch`). */
  readonly fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  /** fetch only: the caller's own `RequestInit` (`FetchHttpClient.RequestInit`), around every call. */
  readonly requestInit?: RequestInit
}

/** How the limiters reach a Redis (`RedisStore.Options`, the URL given `Redacted`). */
export interface RedisOptions {
  readonly url: string
  readonly prefix?: string
  readonly timeoutMillis?: number
  readonly onUnavailable?: "fail" | "fallback"
  /**
   * The URL read from `COMMUNITY_API_REDIS_URL`, set to `url`: `"config"`, the limiters' `layerRedisConfig`
   * (`scripted`); `"stores"`, their `layerFromStore` over `RedisStore.layerPermitsConfig` or
   * `layerCountsConfig` (`pacing`, `quota`).
   */
  readonly via?: "config" | "stores"
}

/** A pacing service over Redis (`Pacing.makeRedis`) of these settings. */
export interface RedisPacingOptions extends RedisOptions {
  readonly limit?: number
  readonly windowMillis?: number
  readonly marginMillis?: number
  readonly leaseMillis?: number
}

/** A pacing service over Redis, with a connection of its own, as another process of the user has. */
export interface RedisPacing {
  readonly settings: PacingSettings
  /** `withPermit(user, lane)` around a send lasting `millis`: when it was sent and when it was answered. */
  readonly withPermit: (
    user: string,
    options?: { readonly millis?: number; readonly lane?: LaneName }
  ) => Call<{ readonly sentAt: number; readonly answeredAt: number }>
  readonly penalize: (user: string) => Promise<void>
  readonly budget: (user: string) => Promise<Budget.Requests<Instant>>
  /** How long every permit taken through it (its clients' too) waited, from asking to sending, in order. */
  readonly waits: ReadonlyArray<number>
}

/** A creation quota over Redis (`CreationQuota.makeRedis`), with a connection of its own. */
export interface RedisQuota {
  /** When the creation was counted. */
  readonly acquire: (user: string, operation: string, onExhausted: "wait" | "fail") => Call<number>
  readonly confirm: (user: string, operation: string, taken: number) => Call<number>
  readonly refund: (user: string, taken: number) => Promise<void>
  readonly exhaustDay: (user: string) => Promise<void>
  readonly usedUp: (user: string) => Promise<"minute" | "day" | undefined>
  readonly budget: (user: string) => Call<Budget.Creations<Instant>>
}

/** A store of permits over a connection (`RedisInternal.permitStore`). */
export interface RedisPermits {
  /** A permit (a handle for `release`; its `name` is the permit's in Redis). */
  readonly take: (user: string, lane?: LaneName) => Call<unknown>
  readonly release: (permit: unknown, hold: Hold) => Promise<void>
  readonly budget: (user: string) => Call<Budget.Requests>
}

/** One connection to Redis (`RedisInternal.connect`), open until closed (with its stores) or the world ends. */
export interface RedisConnection {
  /** A store of permits over it, closed with it. */
  readonly permits: (options: { readonly limit: number; readonly leaseMillis: number }) => Promise<RedisPermits>
  /** The store of counts over it (`RedisInternal.countStore`, the API's limits): the verdict's `_tag`, the budget. */
  readonly counts: {
    readonly take: (user: string) => Promise<string>
    readonly budget: (user: string) => Promise<Budget.Creations>
  }
  /** Runs a script of the core's `RedisScripts` (`connection.run`): its reply; a failure rejects. */
  readonly run: (limiter: "pacing" | "creation quota", call: RedisScripts.Call) => Promise<RedisScripts.Reply>
  readonly close: () => Call<void>
}

/**
 * The line's limiters over a real Redis, on the live clock (Redis keeps its own time: the world's time
 * is the epoch's, `adjust` waits in real time), or with `clock: "test"` on a test clock of their own
 * from 0, which the stores' timeouts run on.
 */
export interface RedisWorld {
  readonly now: () => Promise<number>
  readonly adjust: (millis: number) => Promise<void>
  readonly pacing: (options: RedisPacingOptions) => Promise<RedisPacing>
  readonly quota: (options: RedisOptions) => Promise<RedisQuota>
  readonly connect: (options: RedisOptions) => Promise<RedisConnection>
  /**
   * A scripted server and its clients (also of the line's `layerConfig()`, read from `env`), both
   * limiters over Redis (`Pacing.layerRedis`, `CreationQuota.layerRedis` of `limiters`): what it
   * received, and every warning logged.
   */
  readonly scripted: (script: Script, limiters: RedisPacingOptions) => Promise<{
    readonly client: (options?: ClientOptions) => Promise<Client>
    readonly clientFromEnv: (env: Readonly<Record<string, string>>) => Promise<Client>
    readonly received: ReadonlyArray<unknown>
    readonly warnings: ReadonlyArray<string>
  }>
  /**
   * The reference server in process, its every answer logged (when the request arrived); each client a
   * process of its own: its pacing `pacing`, its creation quota its own memory's. `layered`: a client
   * whose pacing is `Pacing.layerRedis(pacing)`, built with it as a service builds its layers: the
   * client, or how building it failed (a refused option dies).
   */
  readonly reference: () => Promise<{
    readonly client: (pacing: RedisPacing, options?: ClientOptions) => Promise<Client>
    readonly layered: (pacing: RedisPacingOptions, options?: ClientOptions) => Promise<Outcome<Client>>
    readonly answered: ReadonlyArray<{ readonly at: number; readonly outcome: number | "ok" | "dropped" }>
  }>
}

/** A target of the line's `Target.resolve` as plain data: its secrets revealed, and as the line shows them. */
export type TargetView =
  | {
    readonly _tag: "Remote"
    readonly baseUrl: string
    readonly token: string
    readonly redisUrl: string | undefined
    /** `String(token) + String(redisUrl)` of the line's values. */
    readonly shown: string
  }
  | { readonly _tag: "Embedded"; readonly token: string | undefined }

/** A target for `Target.layer`: a remote one at `baseUrl` (the reference server's when left out), no Redis. */
export type TargetInput =
  | { readonly _tag: "Remote"; readonly baseUrl?: string; readonly token: string }
  | { readonly _tag: "Embedded"; readonly token?: string }

/** A child program of a line, built to start: `node` and what precedes the job among its arguments; `remove` removes it. */
export interface ChildProgram {
  readonly command: ReadonlyArray<string>
  readonly remove: () => Promise<void>
}

/** An answer of the line's reference server on a port, as its `onRequest` tells it. */
export interface PortAnswer {
  readonly millis: number
  readonly path: string
  readonly outcome: number | "ok" | "dropped"
}

/** What the tests of real processes of one user need of a line; the harness is `src/Processes.ts`. */
export interface LimitsChild {
  /**
   * The line's child program (`test/support/limitsChild.ts`: one process of a user with this line's
   * client, doing a `Processes.Job` and writing a `Processes.Report`), bundled for `node`.
   */
  readonly program: () => Promise<ChildProgram>
  /** The line's reference server on a free loopback port, on the live clock, telling `onRequest` of each answer. */
  readonly sandbox: (
    onRequest: (answer: PortAnswer) => void
  ) => Promise<{ readonly baseUrl: string; readonly close: () => Promise<void> }>
}

/**
 * The line's reference server in process on a free loopback port (`baseUrl`), on the live clock (a
 * real port has real time), with fresh limiters; its clients (the demo owner's token by default, over
 * the line's `HttpClient` named) share them, so that together they stay under the server's rate
 * limit. It closes, cutting its connections, when the world ends.
 */
export interface RealPortWorld {
  readonly baseUrl: string
  readonly server: ServerControls
  readonly client: (options: RealClientOptions) => Promise<Client>
}

/** The line's timers of the client's bookkeeping (`src/internal/timers.ts`). */
export interface Timers {
  /** A timer calling `onDue` at `at` (epoch milliseconds): a handle for `remove`. */
  readonly addAt: (at: number, onDue: (now: number) => void) => Promise<unknown>
  readonly remove: (timer: unknown) => Promise<void>
  /** One more (`1`) or one fewer (`-1`) call waits for a timer made `inBackground`. */
  readonly awaited: (change: 1 | -1) => void
}

/** A pacing service over a memory store of permits (`Pacing.makeFromStore`), on the live clock. */
export interface LivePacing {
  /** `withPermit(user)` around a send that does nothing. */
  readonly withPermit: (user: string) => Call<void>
  readonly budget: (user: string) => Promise<Budget.Requests<Instant>>
  /** How many users it holds a rule of, and its store a gate of. */
  readonly users: () => Promise<number>
  readonly storeUsers: () => Promise<number>
}

/** The line's own machinery on the live clock: Effect's default services, as a script runs it. */
export interface LiveWorld {
  /** `Clock.currentTimeMillis`. */
  readonly now: () => Promise<number>
  /** Lets forked fibers run their first steps: a fiber yields 20 times. */
  readonly settle: () => Promise<void>
  readonly timers: (options?: { readonly inBackground?: boolean }) => Timers
  readonly pacing: (options: PacingSettings) => Promise<LivePacing>
}

/** A line's client package (its folder and name) and its README examples: the heading of each, by name. */
export interface ReadmeHome {
  readonly clientDir: string
  readonly clientName: string
  /** The service example, run with `tsx` (`### In a service`). */
  readonly service: string
  /** The test example, run with `vitest`. */
  readonly tests: string
}

/**
 * What `Line.tryOptions` makes with the options given: the client (`"client"`: `make`;
 * `"clientConfig"`: `layerConfig` of `configFromEnv` with them), the pacing or the creation quota
 * (`layer`), or either over Redis (`layerRedis`; the `…Config` ones: `layerRedisConfig`, the `url` read
 * from `COMMUNITY_API_REDIS_URL`).
 */
export type OptionsTarget =
  | "client"
  | "clientConfig"
  | "pacing"
  | "quota"
  | "pacingRedis"
  | "pacingRedisConfig"
  | "quotaRedis"
  | "quotaRedisConfig"

/**
 * A value of an option as `Line.tryOptions` takes it: plain JavaScript given as it is, or one of the
 * line's own values, made by the driver: `{ $millis }` its `Duration.millis`, `{ $redacted }` its
 * `Redacted.make`.
 */
export type OptionValue = unknown

/** An Effect line, as the scenarios drive it: the line's own functions and values named after them. */
export interface Line {
  readonly name: "Effect 3" | "Effect 4"
  /** A world over the reference server in process (its base URL and the demo owner's token by default). */
  readonly reference: (options?: ReferenceOptions) => Promise<ReferenceWorld>
  /** A world over a scripted server (its own base URL and a fake token by default). */
  readonly scripted: (script: Script, options?: LimiterOptions) => Promise<ScriptedWorld>
  /** What the client does after `error` of an operation with these flags. */
  readonly decide: (
    op: { readonly safeToRepeat: boolean; readonly creation: boolean },
    error: { readonly _tag: string; readonly code?: number }
  ) => string
  /** Whether a decoded value is this line's `DateTime`. */
  readonly isDateTime: (value: unknown) => boolean
  /** The line's `Paginate.keyOf`: what tells an item of a list apart. */
  readonly keyOf: (item: unknown) => string
  /** The line's `Target.resolve`, `env` its environment (the line's `ConfigProvider` of it). */
  readonly resolveTarget: (env: Readonly<Record<string, string>>) => Promise<Outcome<TargetView>>
  /**
   * A client of the line's `Target.layer(target, { client, sandbox })` with fresh limiters, on a test
   * clock: an embedded target over the server's `Embedded` sandbox, the context's `HttpClient` dying
   * when used; a remote one over the reference server in process as the context's `HttpClient`, the
   * sandbox dying when loaded.
   */
  readonly targetClient: (target: TargetInput, client?: ClientOptions) => Promise<Client>
  readonly budgetSchemas: BudgetSchemas
  /** The epoch milliseconds of this line's `DateTime`. */
  readonly epochMillis: (value: unknown) => number
  /** The line's `Retry.refusalOf` of the `ApiError.make(code, text, operation)` of an operation with these flags. */
  readonly refusalOf: (
    op: { readonly creation: boolean },
    error: { readonly code: number; readonly text: string; readonly operation: string },
    counted?: "minute" | "day"
  ) => string
  /** The line's limiters themselves, the store of permits of `permitLimit` (the default when left out). */
  readonly limiters: (options?: { readonly permitLimit?: number }) => Promise<LimiterWorld>
  /**
   * A client of a real server (its `baseUrl`; the scripted server's address when left out, and its
   * fake token) over the line's `HttpClient` named, with fresh limiters, on the live clock.
   */
  readonly realClient: (options: RealClientOptions) => Promise<Client>
  readonly realPort: () => Promise<RealPortWorld>
  readonly live: () => Promise<LiveWorld>
  /** The line's `ConfigError` that `value` is: whether it tells of invalid data; undefined when it is none. */
  readonly configError: (value: unknown) => { readonly invalidData: boolean } | undefined
  /**
   * Makes `target` with `options` (see {@link OptionValue}; the client gets the scripted server's base
   * URL and a fake token unless they are given, a Redis store an unreachable `redis://` URL), built
   * for a scope closed at once: how it went (a refused option dies with `InvalidConfig`). Nothing is
   * sent: the client's `HttpClient` dies when used.
   */
  readonly tryOptions: (
    target: OptionsTarget,
    options: Readonly<Record<string, OptionValue>>
  ) => Promise<Outcome<"made">>
  /** Whether `value` is an instance of the line's `ClientError` class of this tag. */
  readonly isClientError: (value: unknown, tag: string) => boolean
  readonly readme: ReadmeHome
  /** `Target`'s variables, `Pacing.defaults`, `Pacing.global.settings`, `CreationQuota.defaults`. */
  readonly constants: {
    readonly targetVariables: ReadonlyArray<string>
    readonly pacingDefaults: { readonly limit: number; readonly windowMillis: number }
    readonly globalPacing: { readonly limit: number; readonly windowMillis: number }
    readonly quotaDefaults: { readonly perMinute: number; readonly perDay: number }
  }
  /**
   * Whether the limiters' services with no layer are the process-wide ones (`Pacing.global`,
   * `CreationQuota.global`), and those of a layer (`Pacing.layer({ limit: 3 })`, `CreationQuota.layer()`).
   */
  readonly limiterServices: () => Promise<{
    readonly pacingIsGlobal: boolean
    readonly quotaIsGlobal: boolean
    readonly layeredPacingIsGlobal: boolean
    readonly layeredPacingLimit: number
    readonly layeredQuotaIsGlobal: boolean
  }>
  readonly redis: (options?: { readonly clock?: "live" | "test" }) => Promise<RedisWorld>
  readonly limitsChild: LimitsChild
  /** Ends every world made since the last call (the runner calls it after each scenario). */
  readonly dispose: () => Promise<void>
}
