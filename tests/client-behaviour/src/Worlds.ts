/**
 * What both lines' drivers build alike out of their own Effect, written once: each driver hands over a
 * {@link Kit} of its functions (its `Effect`, `Clock`, `Stream`, `TestClock`, `Paginate`, ...) and a
 * {@link Runner} per runtime; the compositions here are those functions put together, so a call is
 * still a fiber of the line's runtime on its test clock. `F` is the line's effect, `S` its stream:
 * this file sees neither type (no Effect import), the drivers do.
 */
import type * as Budget from "@community-api/core/Budget"
import { tokens } from "@community-api/core/DemoData"
import * as Limits from "@community-api/core/Limits"
import { defaultPrefix } from "@community-api/core/RedisKeys"
import type * as Driver from "./Driver.js"
import * as Lines from "./Lines.js"

/** A module of a line, its functions called by name. */
type Module = { readonly [name: string]: any }

/** The line's modules of the same names and functions on both lines, as the compositions call them. */
export interface Modules {
  readonly Clock: Module
  readonly Duration: Module
  readonly Effect: Module
  readonly Fiber: Module
  readonly Lane: Module
  readonly Layer: Module
  readonly Option: Module
  readonly Paginate: Module
  readonly Redacted: Module
  readonly Stream: Module
  readonly TestClock: Module
}

/** What differs between the lines, given by each. */
export interface Differences<F, S> {
  /** An exit read as an outcome, its cause rendered. */
  readonly outcomeOf: (exit: any) => Driver.Outcome<any>
  readonly collect: (stream: S) => F
  readonly forEachChunk: (stream: S, f: (chunk: ReadonlyArray<unknown>) => F) => F
  readonly dateTime: (epochMillis: number) => unknown
  readonly toJson: (budget: any, source: "memory", asks?: any) => Budget.Json
  readonly operations: object
}

/** The line's schemas of a budget's JSON, of its `Schema` and `Budget` modules. */
export const budgetSchemas = (line: { readonly Budget: Module; readonly Schema: Module }) =>
  ({
    decode: (value: unknown) => line.Schema.decodeUnknownSync(line.Budget.Json)(value),
    decodeWindow: (value: unknown) => line.Schema.decodeUnknownSync(line.Budget.WindowJson)(value),
    // The core's JSON is the line's schema's type: it encodes as it is.
    encode: (json: Budget.Json) => line.Schema.encodeSync(line.Budget.Json)(json)
  }) satisfies Driver.BudgetSchemas

/** A line's kit of its modules and its differences. */
export const kitOf = <F, S>(modules: Modules, differences: Differences<F, S>): Kit<F, S> => {
  const { Clock, Duration, Effect, Lane, Paginate, Stream, TestClock } = modules
  return {
    ...differences,
    modules,
    now: Clock.currentTimeMillis,
    succeed: Effect.succeed,
    sync: Effect.sync,
    flatMap: (self, f) => Effect.flatMap(self, f),
    sleep: (millis) => Effect.sleep(Duration.millis(millis)),
    never: Effect.never,
    die: Effect.die,
    fail: Effect.fail,
    outcome: (self) => Effect.map(Effect.exit(self), differences.outcomeOf),
    adjust: (millis) => TestClock.adjust(Duration.millis(millis)),
    setTime: (epochMillis) => TestClock.setTime(epochMillis),
    forEach: (stream, f) => Stream.runForEach(stream, f),
    take: (stream, count) => Stream.take(stream, count),
    withLane: (lane, self) => Lane.withLane(lane)(self),
    pages: (fetch, options) => Paginate.pages(fetch, options),
    paged: (fetch, options) => Paginate.stream(fetch, options)
  }
}

/** The functions of a line the compositions use (each named after the line's own). */
export interface Kit<F, S> extends Differences<F, S> {
  readonly modules: Modules
  /** `Clock.currentTimeMillis`. */
  readonly now: F
  readonly succeed: (value: unknown) => F
  readonly sync: (f: () => unknown) => F
  readonly flatMap: (self: F, f: (value: any) => F) => F
  readonly sleep: (millis: number) => F
  readonly never: F
  readonly die: (defect: unknown) => F
  readonly fail: (error: unknown) => F
  /** `Effect.exit` read as an outcome (its cause rendered), which it succeeds with. */
  readonly outcome: (self: F) => F
  /** `TestClock.adjust`, `TestClock.setTime`. */
  readonly adjust: (millis: number) => F
  readonly setTime: (epochMillis: number) => F
  readonly forEach: (stream: S, f: (element: any) => F) => F
  readonly take: (stream: S, count: number) => S
  /** `Lane.withLane(lane)` of an effect or a stream. */
  readonly withLane: (lane: "interactive" | "batch", self: F | S) => F | S
  /** `Paginate.pages`, `Paginate.stream`. */
  readonly pages: (fetch: (position?: Partial<Driver.Position>) => F, options?: Driver.PagesOptions) => S
  readonly paged: (fetch: (position?: Partial<Driver.Position>) => F, options?: Driver.PagesOptions) => S
}

/** A runtime of the line: its effects run as fibers (`fork`) or to a promise (`run`, rejecting on failure). */
export interface Runner<F> {
  readonly fork: <A>(self: F) => Driver.Call<A>
  readonly run: (self: F) => Promise<any>
}

/** A runtime's runner: each fork a fiber of it, as a thenable of its outcome and when it ended on its clock. */
export const runner = <F>(
  kit: Kit<F, any>,
  runtime: { readonly runFork: (self: F) => unknown; readonly runPromise: (self: F) => Promise<any> }
): Runner<F> => ({
  fork: (self) => {
    const { Effect, Fiber } = kit.modules
    let at: number | undefined
    const fiber = runtime.runFork(Effect.ensuring(self, Effect.map(kit.now, (now: number) => void (at = now))))
    return Lines.call(
      () =>
        runtime.runPromise(Fiber.await(fiber)).then((exit) => ({ ...kit.outcomeOf(exit), ...Lines.given("at", at) })),
      () => runtime.runPromise(Fiber.interrupt(fiber)).then(() => undefined)
    )
  },
  run: (self) => runtime.runPromise(self)
})

/** A target of the line's `Target.resolve` as plain data. */
export const targetView = (kit: Kit<any, any>, target: any): Driver.TargetView => {
  const { Option, Redacted } = kit.modules
  const revealed = (secret: unknown) => Option.getOrUndefined(Option.map(secret, Redacted.value))
  return target._tag === "Remote"
    ? {
      _tag: "Remote",
      baseUrl: target.baseUrl,
      token: Redacted.value(target.token),
      redisUrl: revealed(target.redisUrl),
      shown: String(target.token) + String(target.redisUrl)
    }
    : { _tag: "Embedded", token: revealed(target.token) }
}

/** A pacing service that records the lane of every request it lets in (`Lane.current`). */
export const recordingLanes = <P extends { readonly withPermit: (user: string, lane?: any) => (send: any) => any }>(
  kit: Kit<any, any>,
  pacing: P,
  lanes: Array<"interactive" | "batch">
): P => ({
  ...pacing,
  withPermit: (user: string, lane?: "interactive" | "batch") => (send: unknown) =>
    kit.flatMap(kit.modules.Lane.current(lane), (resolved) => {
      lanes.push(resolved)
      return pacing.withPermit(user, lane)(send)
    })
})

/** The line's `CommunityApiClient.Client`, as the compositions call it. */
type LineClient = any

/** An element taken as `consuming` says: after its time on the clock, told with the time then. */
const taken = <F>(kit: Kit<F, any>, element: unknown, consuming: Driver.Consuming<any> = {}): F =>
  kit.flatMap(
    consuming.millis === "never"
      ? kit.never
      : consuming.millis === undefined
      ? kit.succeed(undefined)
      : kit.sleep(consuming.millis),
    () => kit.flatMap(kit.now, (now) => kit.sync(() => consuming.each?.(element, now)))
  )

/** Calls made one after another in one fiber (`Client.serial`): every one's outcome and times. */
const serial = <F>(kit: Kit<F, any>, call: (i: number) => F, options: Driver.SerialOptions): F => {
  const ended: Array<Driver.Ended> = []
  const step = (i: number): F =>
    options.times !== undefined && i >= options.times ?
      kit.succeed(ended) :
      kit.flatMap(kit.now, (startedAt) =>
        options.while !== undefined && !options.while(startedAt)
          ? kit.succeed(ended)
          : kit.flatMap(kit.outcome(call(i)), ({ cause: _, ...outcome }: Driver.Outcome) =>
            kit.flatMap(kit.now, (at) => {
              ended.push({ ...outcome, startedAt, at })
              return options.pauseMillis === undefined
                ? step(i + 1)
                : kit.flatMap(kit.sleep(options.pauseMillis), () => step(i + 1))
            })))
  return kit.flatMap(kit.succeed(0), step)
}

/** The line's client as the scenarios call it. */
export const client = <F, S>(kit: Kit<F, S>, { fork, run }: Runner<F>, client: LineClient): Driver.Client => {
  const marked = <X extends F | S>(self: X, options?: Driver.CallOptions): X =>
    options?.lane === undefined ? self : kit.withLane(options.lane, self) as X
  const method = (path: string) => Lines.member<(params?: object) => F>(client, path)
  const stream = (path: string) => Lines.member<(params?: object) => S>(client.streams, path)
  const page = (path: string, params?: object) => (position?: Partial<Driver.Position>): F =>
    client.page(Lines.operation(kit.operations, path), params ?? {}, position)
  const all = (items: S) => fork<ReadonlyArray<any>>(kit.collect(items))
  return {
    call: (path, params, options) => fork(marked(method(path)(params), options)),
    callRaw: (path, params, options) => fork(marked(client.call(path, params ?? {}), options)),
    stream: (path, params, options) => {
      const items = marked(stream(path)(params), options)
      return all(options?.take === undefined ? items : kit.take(items, options.take))
    },
    page: (path, params, position) => fork(page(path, params)(position)),
    pages: (path, params, options) => all(kit.pages(page(path, params), options)),
    pagedItems: (path, params, options) => all(kit.paged(page(path, params), options)),
    streamOf: (path, params) => all(client.stream(Lines.operation(kit.operations, path), params ?? {})),
    consume: (path, params, consuming) =>
      fork(kit.forEachChunk(stream(path)(params), (chunk) => taken(kit, chunk, consuming))),
    budget: () => run(client.budget),
    estimateCreations: (count, by) => run(client.estimateCreations(count, kit.dateTime(by))),
    // The line's `Budget.Json` given as the core's: the types are one (the schemas' are checked both ways).
    budgetJson: (asks) =>
      run(kit.flatMap(client.budget, (budget) =>
        asks === undefined
          ? kit.succeed(kit.toJson(budget, "memory"))
          : kit.flatMap(
            client.estimateCreations(asks.creations, kit.dateTime(asks.by)),
            (estimate) => kit.succeed(kit.toJson(budget, "memory", { ...asks, by: kit.dateTime(asks.by), estimate }))
          ))),
    serial: (path, options) => fork(serial(kit, (i) => method(path)(options.params?.(i)), options))
  }
}

/** How making a line's client (`make`) ended: the client as the scenarios call it, or how it failed. */
export const tryClient = <F, S>(kit: Kit<F, S>, runner: Runner<F>, make: F): Promise<Driver.Outcome<Driver.Client>> =>
  runner.run(kit.outcome(make)).then((outcome: Driver.Outcome<LineClient>) =>
    outcome._tag === "Success" ? { _tag: "Success", value: client(kit, runner, outcome.value) } : outcome
  )

/**
 * A client of `make` over `context` and `layers` built for the scope of `within`, as a service's
 * runtime holds its layers: the client, or how building them or making it failed
 * (`RedisWorld.reference`'s `layered`).
 */
export const layeredClient = <F, S>(
  kit: Kit<F, S>,
  runner: Runner<F>,
  within: (effect: F) => F,
  context: unknown,
  layers: ReadonlyArray<unknown>,
  make: F
): Promise<Driver.Outcome<Driver.Client>> => {
  const { Effect, Layer } = kit.modules
  const built = Layer.build(Layer.mergeAll(Layer.succeedContext(context), ...layers))
  return tryClient(
    kit,
    runner,
    within(kit.flatMap(built, (services) => Effect.provide(make, Layer.succeedContext(services))))
  )
}

/** What every world offers over a runtime: its clients, its clock, `Paginate.pages` on it. */
export const world = <F, S>(
  kit: Kit<F, S>,
  runner: Runner<F>,
  made: {
    /** The line's `ClientConfig` of the world's client of these options. */
    readonly config: (options: Driver.ClientOptions) => unknown
    /** `CommunityApiClient.make`, and the client of `CommunityApiClient.layer`. */
    readonly make: (config: any) => F
    readonly layer: (config: any) => F
    /** A client made with limiters of its own (`ClientOptions.limiters`). */
    readonly own: (make: F) => F
    /** A client made recording what it sends, when the world observes. */
    readonly tap: (make: F) => F
    readonly observed: Lines.Observing
  }
): Pick<Driver.World, "client" | "tryClient" | "observed" | "adjust" | "now" | "pages"> => ({
  client: (options = {}) => {
    const make = made.tap(made.make(made.config(options)))
    return runner.run(options.limiters === "own" ? made.own(make) : make).then((built) => client(kit, runner, built))
  },
  tryClient: (options, via) => tryClient(kit, runner, (via === "make" ? made.make : made.layer)(made.config(options))),
  observed: made.observed,
  adjust: (millis) => runner.run(kit.adjust(millis)),
  now: () => runner.run(kit.now),
  pages: (fetch, options, consuming) => {
    const pages: Array<Driver.Page> = []
    const fetched = (position?: Partial<Driver.Position>) =>
      kit.flatMap(kit.now, (at) => {
        const answer = fetch(position as Driver.Position, at)
        return kit.flatMap(kit.sleep(answer.millis), () => kit.sync(answer.then))
      })
    return runner.fork(kit.flatMap(
      kit.forEach(
        kit.pages(fetched, options),
        (page) => kit.flatMap(kit.sync(() => pages.push(page)), () => taken(kit, page, consuming))
      ),
      () => kit.succeed(pages)
    ))
  }
})

/** A reply of a script carried out on the world's clock: `respond` makes the line's response. */
const answer = <F>(
  kit: Kit<F, any>,
  reply: Driver.Reply,
  respond: (response: Lines.Response) => F
): F => {
  switch (reply._tag) {
    case "Drop":
      return kit.die(reply.reason)
    case "Wait":
      return kit.flatMap(
        kit.sleep(reply.millis),
        () =>
          kit.flatMap(
            kit.now,
            (at) => answer(kit, typeof reply.then === "function" ? reply.then(at) : reply.then, respond)
          )
      )
    default:
      return respond(Lines.response(reply))
  }
}

/** A request to a scripted server recorded in `received` (when it came on the clock) and answered by `script`. */
export const serve = <F>(
  kit: Kit<F, any>,
  script: Driver.Script,
  received: Array<Driver.Received>,
  request: { readonly url: string; readonly text: string; readonly authorization: string | undefined },
  respond: (response: Lines.Response) => F
): F =>
  kit.flatMap(kit.now, (at) => {
    received.push(Lines.received(at, request))
    return answer(kit, script(received[received.length - 1]!, received.length - 1), respond)
  })

/** The reference server's controls: each of the line's `ReferenceServer` run to a promise. */
export const controls = (run: (self: any) => Promise<any>, server: any) =>
  ({
    setFaults: (faults) => run(server.setFaults(faults)),
    clearFaults: () => run(server.clearFaults),
    snapshot: () => run(server.snapshot),
    revokeToken: (token) => run(server.revokeToken(token)),
    requestCount: () => run(server.requestCount),
    recentRequests: () => run(server.recentRequests)
  }) satisfies Driver.ServerControls

/** A line's memory store of permits (`PermitStore.Service`), as the compositions use it. */
interface Permits<F> {
  readonly take: (user: string, lane?: "interactive" | "batch") => F
  readonly release: (permit: never, hold: { readonly afterAnswerMillis: number; readonly afterTakeMillis: number }) => F
  readonly block: (user: string, millis: number) => F
  readonly users: F
}

/** A line's memory store of counts (`CountStore.Service`), as the compositions use it. */
interface Counts<F> {
  readonly take: (user: string) => F
  readonly refund: (user: string, at: number) => F
  readonly users: F
}

/** A store of permits as the user's own: recording every call in `calls`, or failing every take with `unavailable`. */
export const ownPermits = <F, P extends Permits<F>>(
  kit: Kit<F, any>,
  inner: P,
  calls: Lines.StoreCalls,
  unavailable?: object
): P => {
  if (unavailable !== undefined) {
    calls.failure = unavailable as Driver.Failure
    return { ...inner, take: () => kit.fail(unavailable) }
  }
  const after = (record: () => unknown, self: F) => kit.flatMap(kit.sync(record), () => self)
  return {
    ...inner,
    take: (user: string) => after(() => calls.takes++, inner.take(user)),
    release: (permit: never, hold: Lines.StoreCalls["holds"][number]) =>
      after(() => calls.holds.push(hold), inner.release(permit, hold)),
    block: (user: string, millis: number) => after(() => calls.blocks.push(millis), inner.block(user, millis))
  }
}

/** A store of counts as the user's own, recording every verdict in `calls`. */
export const ownCounts = <F, C extends Counts<F>>(kit: Kit<F, any>, inner: C, calls: Lines.StoreCalls): C => ({
  ...inner,
  take: (user: string) =>
    kit.flatMap(
      inner.take(user),
      (verdict) => kit.flatMap(kit.sync(() => calls.verdicts.push(verdict._tag)), () => kit.succeed(verdict))
    )
})

/** The line's timers (`Timers.make`), each of their effects run to a promise. */
const timersOf = (run: (effect: any) => Promise<any>, timers: any): Driver.Timers => ({
  addAt: (at, onDue) => run(timers.addAt(at, onDue)),
  remove: (timer) => run(timers.remove(timer)),
  awaited: timers.awaited
})

/** The line's limiters themselves (`Driver.LimiterWorld`) over its memory stores, `pacing` made over `permits`. */
export const limiterWorld = <F>(
  kit: Kit<F, any>,
  { fork, run }: Runner<F>,
  stores: {
    readonly permits: Permits<F>
    readonly counts: Counts<F>
    readonly pacing: F
    readonly timers: () => unknown
  }
): Driver.LimiterWorld => {
  let pacing: Promise<Driver.PacingService> | undefined
  return {
    now: () => run(kit.now),
    adjust: (millis) => run(kit.adjust(millis)),
    setTime: (epochMillis) => run(kit.setTime(epochMillis)),
    timers: () => timersOf(run, stores.timers()),
    pacing: () =>
      pacing ??= run(stores.pacing).then((service) => ({
        settings: service.settings,
        withPermit: (user, millis = 0) =>
          fork(service.withPermit(user)(millis === 0 ? kit.succeed(undefined) : kit.sleep(millis))),
        users: () => run(service.users)
      })),
    permits: {
      take: (user) => run(stores.permits.take(user)),
      release: (permit, hold) => run(stores.permits.release(permit as never, hold)),
      block: (user, millis) => run(stores.permits.block(user, millis)),
      users: () => run(stores.permits.users)
    },
    counts: {
      take: (user) => run(stores.counts.take(user)).then((verdict) => verdict._tag),
      refund: (user, at) => run(stores.counts.refund(user, at)),
      users: () => run(stores.counts.users)
    }
  }
}

/** A pacing service of the line (`Pacing.Service`), as the compositions use it. */
interface PacingService<F> {
  readonly settings: { readonly limit: number; readonly windowMillis: number; readonly marginMillis: number }
  readonly withPermit: (user: string, lane?: "interactive" | "batch") => (send: F) => F
  readonly penalize: (user: string) => F
  readonly budget: (user: string) => F
}

/**
 * A pacing service over Redis as a handle (`Driver.RedisPacing`), and the service timed: every
 * permit taken through it records how long it waited, from asking to sending.
 */
export const redisPacing = <F, P extends PacingService<F>>(kit: Kit<F, any>, { fork, run }: Runner<F>, service: P) => {
  const waits: Array<number> = []
  const timed: P = {
    ...service,
    withPermit: (user: string, lane?: "interactive" | "batch") => (send: F) =>
      kit.flatMap(kit.now, (askedAt) =>
        service.withPermit(user, lane)(kit.flatMap(kit.now, (sentAt) => {
          waits.push(sentAt - askedAt)
          return send
        })))
  }
  const { limit, marginMillis, windowMillis } = service.settings
  const handle: Driver.RedisPacing = {
    settings: { limit, windowMillis, marginMillis },
    withPermit: (user, { lane, millis = 0 } = {}) =>
      fork(
        timed.withPermit(user, lane)(kit.flatMap(kit.now, (sentAt) =>
          kit.flatMap(
            millis > 0 ? kit.sleep(millis) : kit.succeed(undefined),
            () => kit.flatMap(kit.now, (answeredAt) => kit.succeed({ sentAt, answeredAt }))
          )))
      ),
    penalize: (user) => run(service.penalize(user)),
    budget: (user) => run(service.budget(user)),
    waits
  }
  return { handle, timed }
}

/** A creation quota over Redis (`CreationQuota.makeRedis`) as a handle. */
export const redisQuota = <F>({ fork, run }: Runner<F>, service: any): Driver.RedisQuota => ({
  acquire: (user, operation, onExhausted) => fork(service.acquire(user, operation, onExhausted)),
  confirm: (user, operation, taken) => fork(service.confirm(user, operation, taken)),
  refund: (user, taken) => run(service.refund(user, taken)),
  exhaustDay: (user) => run(service.exhaustDay(user)),
  usedUp: (user) => run(service.usedUp(user)),
  budget: (user) => fork(service.budget(user))
})

/** A connection to Redis (`RedisInternal.connect`) as a handle: `permits` makes a store over it, `close` ends it. */
export const redisConnection = <F>(
  { fork, run }: Runner<F>,
  connection: any,
  made: {
    readonly counts: any
    readonly permits: (store: { limit: number; leaseMillis: number }) => F
    readonly close: F
  }
): Driver.RedisConnection => ({
  permits: async (store) => {
    const permits = await run(made.permits(store))
    return {
      take: (user, lane) => fork(permits.take(user, lane)),
      release: (permit, hold) => run(permits.release(permit, hold)),
      budget: (user) => fork(permits.budget(user))
    }
  },
  counts: {
    take: (user) => run(made.counts.take(user)).then((verdict) => verdict._tag),
    budget: (user) => run(made.counts.budget(user))
  },
  run: (limiter, script) => run(connection.run(limiter, script)),
  close: () => fork(made.close)
})

/** What the worlds of Redis (`redisWorld`) and `tryOptions` need of a line beyond its kit, each named after the line's own. */
export interface LineParts<F> {
  /** The line's modules of these names (`RedisInternal` is `internal/redis`). */
  readonly effect: { readonly [name in "Config" | "Context" | "Exit" | "Layer" | "ManagedRuntime" | "Scope"]: Module }
  readonly client: {
    readonly [
      name in
        | "ClientError"
        | "CommunityApiClient"
        | "CountStore"
        | "CreationQuota"
        | "Pacing"
        | "PermitStore"
        | "Timers"
    ]: Module
  }
  readonly redis: { readonly [name in "RedisInternal" | "RedisStore"]: Module }
  readonly ReferenceServer: Module
  /** A memory store of permits, and of counts, made at once (`unsafeMakeMemory`, `makeMemoryUnsafe`). */
  readonly memory: { readonly permits: (options: object) => any; readonly counts: (options: object) => any }
  /** Registers what `dispose` ends. */
  readonly open: (world: { readonly dispose: () => Promise<void> }) => void
  /** How the line makes the values of a client's configuration. */
  readonly makers: Lines.Makers<unknown, unknown, unknown>
  /** A scripted server as the context's `HttpClient` (a layer), recording every request in `received`. */
  readonly scriptedHttp: (script: Driver.Script, received: Array<Driver.Received>) => unknown
  /** An `HttpClient` that dies when used, as a layer. */
  readonly unsent: unknown
  /** The layer of the line's test clock. */
  readonly testClock: unknown
  /** `Scope.extend` (Effect 3) or `Scope.provide` (Effect 4). */
  readonly extend: (self: F, scope: unknown) => F
  /** A logger recording the message of every warning in `warnings`, as a layer. */
  readonly warnings: (warnings: Array<string>) => unknown
  /** `env` as the environment (`ConfigProvider`): of a layer, and of an effect. */
  readonly envLayer: (env: Readonly<Record<string, string>>) => unknown
  readonly inEnv: (env: Readonly<Record<string, string>>) => (self: F) => F
  /** The service of a tag, as an effect. */
  readonly service: (tag: unknown) => F
}

/**
 * The line's limiters over a real Redis (`Driver.RedisWorld`): services made with `makeRedis` (or over
 * `RedisStore`'s layers), each in a scope of its own with a connection of its own as another process
 * would have, stores over one connection, and clients whose limiters are the Redis store.
 */
export const redisWorld = async <F>(
  kit: Kit<F, any>,
  line: LineParts<F>,
  options: { readonly clock?: "live" | "test" }
): Promise<Driver.RedisWorld> => {
  const { Context, Exit, Layer, ManagedRuntime, Scope } = line.effect
  const { CommunityApiClient, CreationQuota, Pacing } = line.client
  const { RedisInternal, RedisStore } = line.redis
  const { ReferenceServer } = line
  const make = line.makers
  const runtime = ManagedRuntime.make(options.clock === "test" ? line.testClock : Layer.empty)
  const runtimes: Array<{ readonly dispose: () => Promise<void> }> = [runtime]
  const scopes: Array<unknown> = []
  line.open({
    dispose: async () => {
      for (const scope of scopes.splice(0).reverse()) await runtime.runPromise(Scope.close(scope, Exit.void))
      await Promise.all(runtimes.splice(0).map((one) => one.dispose()))
    }
  })
  const main = runner(kit, runtime)
  /** Makes `effect` in a scope of its own, closed when the world ends (or before). */
  const scoped = async (effect: F) => {
    const scope = await main.run(Scope.make())
    scopes.push(scope)
    const within = (effect: F) => line.extend(effect, scope)
    return { value: await main.run(within(effect)), within, close: Scope.close(scope, Exit.void) as F }
  }
  const worldScope = await scoped(kit.succeed(undefined))
  /** The services behind the handles of `pacing`, timed: a client of `reference` takes its permits there. */
  const services = new WeakMap<Driver.RedisPacing, unknown>()
  const clientIn = async (layer: unknown, made: F) => {
    const clientRuntime = ManagedRuntime.make(layer)
    runtimes.push(clientRuntime)
    return client(kit, runner(kit, clientRuntime), await clientRuntime.runPromise(made))
  }
  const made = (defaults: { baseUrl: string; token: string }, options: Driver.ClientOptions = {}) =>
    CommunityApiClient.make(Lines.configOf(defaults, options, make))
  /** A limiter of `layer` (`layerFromStore` over a Redis store of its own), the store's URL read from the environment. */
  const fromStores = (tag: unknown, layer: unknown, settings: Driver.RedisPacingOptions) =>
    line.inEnv({ COMMUNITY_API_REDIS_URL: settings.url })(
      kit.flatMap(Layer.build(layer), (context) => kit.succeed(Context.get(context, tag)))
    )
  const storeOptions = (settings: Driver.RedisPacingOptions) =>
    Lines.defined({ prefix: settings.prefix, limit: settings.limit })
  return {
    now: () => main.run(kit.now),
    adjust: (millis) =>
      options.clock === "test" ? main.run(kit.adjust(millis)) : new Promise((resolve) => setTimeout(resolve, millis)),
    pacing: async (settings) => {
      const service = settings.via === "stores"
        ? fromStores(
          Pacing.Pacing,
          Layer.provide(Pacing.layerFromStore(), RedisStore.layerPermitsConfig(storeOptions(settings))),
          settings
        )
        : Pacing.makeRedis(Lines.redisPacingOptions(settings, make))
      const { handle, timed } = redisPacing(kit, main, (await scoped(service)).value)
      services.set(handle, timed)
      return handle
    },
    quota: async (settings) => {
      const service = settings.via === "stores"
        ? fromStores(
          CreationQuota.CreationQuota,
          Layer.provide(CreationQuota.layerFromStore, RedisStore.layerCountsConfig(storeOptions(settings))),
          settings
        )
        : CreationQuota.makeRedis(Lines.redisOptions(settings, make))
      return redisQuota(main, (await scoped(service)).value)
    },
    connect: async ({ prefix, timeoutMillis, url }) => {
      const { close, value: connection, within } = await scoped(RedisInternal.connect({
        url: make.secret(url),
        prefix: prefix ?? defaultPrefix,
        timeoutMillis: timeoutMillis ?? 1000
      }))
      return redisConnection(main, connection, {
        counts: RedisInternal.countStore(connection, Limits.creationDefaults),
        permits: (store) => within(RedisInternal.permitStore(connection, store)),
        close
      })
    },
    scripted: async (script, limiters) => {
      const warnings: Array<string> = []
      const received: Array<Driver.Received> = []
      const [pacing, quota] = Lines.redisLayers(limiters, make, { Pacing, CreationQuota })
      const layer = Layer.mergeAll(
        line.scriptedHttp(script, received),
        Layer.provide(Layer.mergeAll(pacing, quota), line.envLayer({ COMMUNITY_API_REDIS_URL: limiters.url })),
        line.warnings(warnings)
      )
      const configured = kit.modules.Effect.provide(
        line.service(CommunityApiClient.CommunityApiClient),
        CommunityApiClient.layerConfig()
      )
      return {
        client: (options) => clientIn(layer, made(Lines.scriptedServer, options)),
        clientFromEnv: (env) => clientIn(layer, line.inEnv(env)(configured)),
        received,
        warnings
      }
    },
    reference: async () => {
      const answered: Array<{ at: number; outcome: number | "ok" | "dropped" }> = []
      const http = await main.run(worldScope.within(
        Layer.build(ReferenceServer.layerTest({
          onRequest: (entry: any) => void answered.push({ at: entry.at, outcome: entry.outcome })
        }))
      ))
      const defaults = { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner }
      return {
        answered,
        client: (handle, options) => {
          const timed = services.get(handle)
          if (timed === undefined) throw new Error("a pacing of another world")
          return clientIn(
            Layer.mergeAll(Layer.succeedContext(http), Layer.succeed(Pacing.Pacing, timed), CreationQuota.layer()),
            made(defaults, options)
          )
        },
        layered: (settings, options = {}) => {
          const pacing = Pacing.layerRedis(Lines.redisPacingOptions(settings, make))
          return layeredClient(
            kit,
            main,
            worldScope.within,
            http,
            [pacing, CreationQuota.layer()],
            made(defaults, options)
          )
        }
      }
    }
  }
}

/** `Line.tryOptions`: `target` made with the options (see `Lines.optionsLayer`), built for a scope closed at once. */
export const tryOptions = <F>(
  kit: Kit<F, any>,
  line: LineParts<F>,
  target: Driver.OptionsTarget,
  given: Readonly<Record<string, Driver.OptionValue>>
): Promise<Driver.Outcome<"made">> => {
  const { Config, Layer } = line.effect
  const { CommunityApiClient, CreationQuota, Pacing } = line.client
  const options = Lines.optionsOf(target, given, line.makers)
  const layer = Lines.optionsLayer(target, options, {
    client: (config) => Layer.provide(Layer.effectDiscard(CommunityApiClient.make(config)), line.unsent),
    clientConfig: (mapped) =>
      Layer.provide(
        CommunityApiClient.layerConfig(Config.map(CommunityApiClient.configFromEnv, (config: object) => ({
          ...config,
          ...mapped
        }))),
        line.unsent
      ),
    Pacing,
    CreationQuota
  })
  const { Effect } = kit.modules
  const built = kit.flatMap(Effect.scoped(Layer.build(layer)), () => kit.succeed("made"))
  return Effect.runPromise(kit.outcome(line.inEnv(Lines.optionsEnv(target, options))(built)))
}

/**
 * A world's limiters, fresh, as a layer: the line's, or over stores through their seams as `options.stores`
 * says, their pacing recording the lane of every request it lets in.
 */
export const limiters = <F>(
  kit: Kit<F, any>,
  line: LineParts<F>,
  options: Driver.LimiterOptions = {},
  lanes: Array<"interactive" | "batch"> = [],
  calls: Lines.StoreCalls = Lines.storeCalls()
): unknown => {
  const { Layer } = line.effect
  const { ClientError, CountStore, CreationQuota, Pacing, PermitStore } = line.client
  const { counts, permits } = options.stores ?? {}
  const limit = Lines.given("limit", permits?.limit)
  const perMinute = Lines.given("perMinute", counts?.perMinute)
  const pacing = permits === undefined
    ? Pacing.layer(Lines.pacingOptions(options))
    : Layer.provide(
      Pacing.layerFromStore(
        permits.marginMillis === undefined ? {} : { margin: line.makers.millis(permits.marginMillis) }
      ),
      permits.via === "own"
        ? Layer.succeed(
          PermitStore.PermitStore,
          ownPermits(
            kit,
            line.memory.permits(limit),
            calls,
            permits.fails && new ClientError.LimiterUnavailable(permits.fails)
          )
        )
        : PermitStore.layerMemory(limit)
    )
  const quota = counts === undefined
    ? CreationQuota.layer(Lines.given("perMinute", options.quotaPerMinute))
    : Layer.provide(
      CreationQuota.layerFromStore,
      counts.via === "own"
        ? Layer.succeed(CountStore.CountStore, ownCounts(kit, line.memory.counts(perMinute), calls))
        : CountStore.layerMemory(perMinute)
    )
  const recording = kit.flatMap(line.service(Pacing.Pacing), (inner) => kit.succeed(recordingLanes(kit, inner, lanes)))
  return Layer.mergeAll(Layer.provide(Layer.effect(Pacing.Pacing, recording), pacing), quota)
}

/** The line's own machinery on the live clock (`Driver.LiveWorld`): Effect's default services, as a script runs it. */
export const liveWorld = async <F>(kit: Kit<F, any>, line: LineParts<F>): Promise<Driver.LiveWorld> => {
  const { Effect } = kit.modules
  const { Pacing, PermitStore, Timers } = line.client
  // Effect's default services: the live clock, the only one the timers may leave unreferenced.
  const runtime = line.effect.ManagedRuntime.make(line.effect.Layer.empty)
  line.open(runtime)
  const { fork } = runner(kit, runtime)
  const run = (effect: F) => runtime.runPromise(Effect.orDie(effect))
  // `Effect.yieldNow`: a function on Effect 3, an effect on Effect 4.
  const yieldNow = typeof Effect.yieldNow === "function" ? Effect.yieldNow() : Effect.yieldNow
  return {
    now: () => run(kit.now),
    settle: () => run(Effect.forEach(Array.from({ length: 20 }), () => yieldNow, { discard: true })),
    timers: (options) => timersOf(run, Timers.make(options)),
    pacing: async ({ limit, marginMillis, windowMillis }) => {
      const store = line.memory.permits({ limit })
      const window = { window: line.makers.millis(windowMillis), margin: line.makers.millis(marginMillis) }
      const pacing = await run(Effect.provideService(Pacing.makeFromStore(window), PermitStore.PermitStore, store))
      return {
        withPermit: (user) => fork(pacing.withPermit(user)(kit.succeed(undefined))),
        budget: (user) => run(pacing.budget(user)),
        users: () => run(pacing.users),
        storeUsers: () => run(store.users)
      }
    }
  }
}

/** What a line's driver gives {@link lineOf}: its modules and what it does its own way, each named after its own. */
export interface Own<F> extends Omit<LineParts<F>, "open" | "envLayer" | "inEnv" | "service"> {
  readonly name: Driver.Line["name"]
  readonly more: { readonly [name in "ApiError" | "DateTime" | "Embedded" | "Retry" | "Schema" | "Target"]: Module }
  /** The line's `Budget` module. */
  readonly Budget: Module
  /** The service of a tag, as an effect. */
  readonly service: (tag: unknown) => F
  /** `env` as the environment (`ConfigProvider`), as `World.clientFromEnv` reads it. */
  readonly provider: (env: Readonly<Record<string, string>>, options?: Driver.EnvOptions) => unknown
  /** A provider as a layer, and around an effect. */
  readonly providerLayer: (provider: unknown) => unknown
  readonly withProvider: (provider: unknown) => (self: F) => F
  /** `configFromEnv`, the `userKey` read from a variable too when told. */
  readonly envConfig: (options: Driver.EnvOptions) => unknown
  /** A recording tracer and a logger of every level, into `observed`, as a layer. */
  readonly observing: (observed: Lines.Observing) => unknown
  /** `make` with every request URL its client sends recorded in `observed`. */
  readonly tapUrls: (observed: Lines.Observing, make: F) => F
  /** The reference server in process as a layer, telling `answer` of each answer and when it was made on the world's clock. */
  readonly referenceLayer: (options: object, answer: (at: number, entry: any) => void) => unknown
  /** The world's `Random` of a seed, shared by its fibers; the world's metrics on a port, as layers. */
  readonly random: (seed: string) => unknown
  readonly prometheus: (port: number) => unknown
  /** `ReferenceWorld.advance`, when the line moves its clock otherwise than by one adjust. */
  readonly advance?: (runtime: { readonly runPromise: (self: F) => Promise<any> }, millis: number) => Promise<void>
  /** The line's `HttpClient` named (`Line.realClient`), as a layer. */
  readonly transport: (options: Driver.RealClientOptions) => unknown
  readonly realPort: (deps: Deps) => Promise<Driver.RealPortWorld>
  readonly fixed: Pick<Driver.Line, "configError" | "readme" | "limitsChild">
}

/** What `Own.realPort` borrows of the line: its worlds over a runtime, and the runtimes it ends. */
export interface Deps {
  readonly world: (runtime: any, defaults: { readonly baseUrl: string; readonly token: string }) => Driver.World
  readonly open: (runtime: { readonly dispose: () => Promise<void> }) => void
}

/** A line as the scenarios drive it, of its kit and what it gives: each world a runtime of it over its test clock. */
export const lineOf = <F>(kit: Kit<F, any>, own: Own<F>): Driver.Line => {
  const { Effect, Layer, Option, Redacted } = kit.modules
  const { ManagedRuntime } = own.effect
  const { CommunityApiClient, CreationQuota, Pacing, PermitStore } = own.client
  const { ApiError, DateTime, Embedded, Retry, Target } = own.more
  const { ReferenceServer } = own
  type Runtime = { readonly runFork: (self: F) => unknown; readonly runPromise: (self: F) => Promise<any> }
  const open: Array<{ readonly dispose: () => Promise<void> }> = []
  /** A runtime of `layer` over the line's test clock, ended with the world. */
  const made = (layer: unknown): Runtime & { readonly dispose: () => Promise<void> } => {
    const runtime = ManagedRuntime.make(Layer.provideMerge(layer, own.testClock))
    open.push(runtime)
    return runtime
  }
  const parts: LineParts<F> = {
    ...own,
    open: (world) => void open.push(world),
    envLayer: (env) => own.providerLayer(own.provider(env)),
    inEnv: (env) => own.withProvider(own.provider(env))
  }
  const limitersOf = (
    options?: Driver.LimiterOptions,
    lanes?: Array<"interactive" | "batch">,
    calls?: Lines.StoreCalls
  ) => limiters(kit, parts, options, lanes, calls)
  const ownLimiters = () => Layer.merge(Pacing.layer(), CreationQuota.layer())
  const lineWorld = (
    runtime: Runtime,
    defaults: { readonly baseUrl: string; readonly token: string },
    observed: Lines.Observing = Lines.observed(),
    observe = false
  ): Driver.World => {
    const main = runner(kit, runtime)
    const tap = (make: F) => observe ? own.tapUrls(observed, make) : make
    return {
      ...world(kit, main, {
        config: (options) => Lines.configOf(defaults, options, own.makers),
        make: CommunityApiClient.make,
        layer: (config) =>
          Effect.provide(own.service(CommunityApiClient.CommunityApiClient), CommunityApiClient.layer(config)),
        own: (make) => Effect.provide(make, ownLimiters()),
        tap,
        observed
      }),
      clientFromEnv: (env, options = {}) =>
        tryClient(
          kit,
          main,
          own.withProvider(own.provider(env, options))(tap(Effect.provide(
            own.service(CommunityApiClient.CommunityApiClient),
            CommunityApiClient.layerConfig(own.envConfig(options))
          )))
        )
    }
  }
  const observing = (observe: boolean | undefined, observed: Lines.Observing) =>
    observe === true ? own.observing(observed) : Layer.empty
  return {
    name: own.name,
    reference: async (
      { metricsPerUser, observe, pacingLimit, prometheusPort, quotaPerMinute, randomSeed, stores, ...options } = {}
    ) => {
      const answered: Array<Driver.ReferenceWorld["answered"][number]> = []
      const observed = Lines.observed()
      const runtime = made(Layer.mergeAll(
        own.referenceLayer(options, (at, entry) => {
          answered.push({ at, path: entry.path, outcome: entry.outcome })
          if (observe === true) observed.serverLog.push(JSON.stringify(entry))
        }),
        limitersOf(Lines.defined({ pacingLimit, metricsPerUser, quotaPerMinute, stores })),
        randomSeed === undefined ? Layer.empty : own.random(randomSeed),
        observing(observe, observed),
        prometheusPort === undefined ? Layer.empty : own.prometheus(prometheusPort)
      ))
      const server = await runtime.runPromise(own.service(ReferenceServer.ReferenceServer))
      return {
        ...lineWorld(runtime, { baseUrl: ReferenceServer.inProcessBaseUrl, token: tokens.owner }, observed, observe),
        server: controls((effect) => runtime.runPromise(effect), server),
        answered,
        advance: (millis) =>
          own.advance === undefined ? runtime.runPromise(kit.adjust(millis)) : own.advance(runtime, millis)
      }
    },
    scripted: async (script, options) => {
      const received: Array<Driver.Received> = []
      const lanes: Array<"interactive" | "batch"> = []
      const stores = Lines.storeCalls()
      const observed = Lines.observed()
      const runtime = made(Layer.mergeAll(
        own.scriptedHttp(script, received),
        observing(options?.observe, observed),
        limitersOf(options, lanes, stores)
      ))
      const { settings: pacingSettings } = await runtime.runPromise(own.service(Pacing.Pacing))
      return {
        ...lineWorld(runtime, Lines.scriptedServer, observed, options?.observe === true),
        received,
        lanes,
        pacingSettings,
        stores
      }
    },
    decide: (op, error) => Retry.decide(op, error),
    isDateTime: (value) => DateTime.isDateTime(value),
    keyOf: kit.modules.Paginate.keyOf,
    resolveTarget: (env) =>
      Effect.runPromise(kit.outcome(parts.inEnv(env)(Target.resolve))).then((outcome: Driver.Outcome) =>
        outcome._tag === "Success" ? { ...outcome, value: targetView(kit, outcome.value) } : outcome
      ),
    targetClient: async (target, options = {}) => {
      const { baseUrl: _, token: __, ...config } = Lines.configOf({ baseUrl: "", token: "" }, options, own.makers)
      const layer = target._tag === "Embedded"
        ? Layer.provide(
          Target.layer({
            _tag: "Embedded",
            token: target.token === undefined ? Option.none() : Option.some(Redacted.make(target.token))
          }, { client: config, sandbox: Effect.succeed(Embedded) }),
          Layer.merge(own.unsent, ownLimiters())
        )
        : Layer.provide(
          Target.layer({
            _tag: "Remote",
            baseUrl: target.baseUrl ?? ReferenceServer.inProcessBaseUrl,
            token: Redacted.make(target.token),
            redisUrl: Option.none()
          }, { client: config, sandbox: Effect.die("the sandbox was loaded") }),
          Layer.merge(ReferenceServer.layerTest(), ownLimiters())
        )
      const runtime = made(layer)
      return client(
        kit,
        runner(kit, runtime),
        await runtime.runPromise(own.service(CommunityApiClient.CommunityApiClient))
      )
    },
    budgetSchemas: budgetSchemas({ Budget: own.Budget, Schema: own.more.Schema }),
    epochMillis: (value) => DateTime.toEpochMillis(value),
    refusalOf: (op, error, counted) =>
      Retry.refusalOf(op, ApiError.make(error.code, error.text, error.operation), counted),
    limiters: async ({ permitLimit } = {}) => {
      const runtime = made(Layer.empty)
      const store = own.memory.permits(Lines.given("limit", permitLimit))
      return limiterWorld(kit, runner(kit, runtime), {
        permits: store,
        counts: own.memory.counts({}),
        pacing: Effect.provideService(Pacing.makeFromStore(), PermitStore.PermitStore, store),
        timers: () => own.client.Timers.make()
      })
    },
    realClient: (options) => {
      const runtime = ManagedRuntime.make(Layer.mergeAll(own.transport(options), ownLimiters()))
      open.push(runtime)
      return lineWorld(runtime, Lines.scriptedServer).client(options)
    },
    constants: {
      targetVariables: [Target.baseUrlVariable, Target.tokenVariable, Target.redisUrlVariable],
      pacingDefaults: {
        limit: Pacing.defaults.limit,
        windowMillis: kit.modules.Duration.toMillis(Pacing.defaults.window)
      },
      globalPacing: Pacing.global.settings,
      quotaDefaults: CreationQuota.defaults
    },
    limiterServices: () =>
      Effect.runPromise(Effect.map(
        Effect.all({
          pacing: own.service(Pacing.Pacing),
          quota: own.service(CreationQuota.CreationQuota),
          layered: Effect.provide(own.service(Pacing.Pacing), Pacing.layer({ limit: 3 })),
          layeredQuota: Effect.provide(own.service(CreationQuota.CreationQuota), CreationQuota.layer())
        }),
        ({ layered, layeredQuota, pacing, quota }: any) => ({
          pacingIsGlobal: pacing === Pacing.global,
          quotaIsGlobal: quota === CreationQuota.global,
          layeredPacingIsGlobal: layered === Pacing.global,
          layeredPacingLimit: layered.settings.limit,
          layeredQuotaIsGlobal: layeredQuota === CreationQuota.global
        })
      )),
    realPort: () => own.realPort({ world: lineWorld, open: (runtime) => void open.push(runtime) }),
    live: () => liveWorld(kit, parts),
    tryOptions: (target, options) => tryOptions(kit, parts, target, options),
    redis: (options = {}) => redisWorld(kit, parts, options),
    isClientError: (value, tag) => {
      const error = own.client.ClientError[tag]
      return typeof error === "function" && value instanceof error
    },
    ...own.fixed,
    dispose: async () => {
      await Promise.all(open.splice(0).map((runtime) => runtime.dispose()))
    }
  }
}
