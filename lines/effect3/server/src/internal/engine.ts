/**
 * The request pipeline, derived from the contract. The order of checks, for a request routed to an
 * operation:
 *
 * 1. faults: latency (on the pace clock: see `paceClock`), then a dropped connection;
 * 2. HTTP method: only POST (else 1);
 * 3. parameters read from the query and the body (C2); a source that cannot be read is remembered.
 *    With an `Authorization` header this step comes after 4 and 5: the header is the credential
 *    (A3), so a caller refused there never has the body read;
 * 4. authentication: key-check fault (9), credential from the header or `api_key` (A3), validation
 *    with the 60 s cache (4);
 * 5. request rate per user (L1, 5);
 * 6. internal-error fault before the action (101);
 * 7. the unreadable body (7);
 * 8. the community named by (`group_id`, `channel`), when the parameters name one that decodes:
 *    7 when it does not exist, 8 when the caller may not use this section there (A8–A12);
 * 9. creation limit, for creation operations in that accessible community (L2–L5, 5): taken before the
 *    parameters are checked, so an attempt with wrong parameters counts (L3);
 * 10. reserved `_` parameters (7, C3), then payload decoding (7, with a Russian text naming the parameter);
 * 11. the handler; E17 operations not modelled answer 6, or the body declared for them (`answers.ts`);
 * 12. after-action faults (101 or a dropped connection, the action done).
 *
 * Steps 4 to 11 run under one lock (4 and 5 under a lock of their own when the header comes first),
 * so every change of state, counter and window is atomic. Every refusal is the contract's tagged
 * error of its code (`ApiError`), from the check or handler that decides it to the envelope;
 * successes and errors are written by the contract's `Envelope`.
 *
 * @internal
 */
import * as CoreClock from "@community-api/core/Clock"
import * as Drift from "@community-api/core/Drift"
import { Envelope, Operations } from "@community-api/schema"
import type { ApiError, Operation } from "@community-api/schema"
import type { HttpApp } from "@effect/platform"
import type { Clock } from "effect"
import { Duration, Effect, Either, Option, Redacted, Schema } from "effect"
import * as DemoFixture from "../DemoFixture.js"
import type * as Faults from "../Faults.js"
import type * as Fixture from "../Fixture.js"
import type { JournalFilter, Options, RequestJournal, RequestLogEntry, UserLimits } from "../ReferenceServer.js"
import * as Answers from "./answers.js"
import { credentialOf, TokenCache } from "./auth.js"
import * as Clocks from "./clock.js"
import type { Caller } from "./context.js"
import { allows, relation, RequestContext } from "./context.js"
import { ControlToken, demoControlToken } from "./control.js"
import * as Decode from "./decode.js"
import type { Decision } from "./faults.js"
import { FaultState } from "./faults.js"
import { handlerOf } from "./handlers/index.js"
import * as Journal from "./journal.js"
import { counted, CreationCounters, RateWindows, usage } from "./limits.js"
import type { RequestParams } from "./params.js"
import * as Refusal from "./refusal.js"
import type { Store } from "./store.js"
import * as StoreModule from "./store.js"
import * as Tenants from "./tenants.js"
import * as Texts from "./texts.js"

/** What the server answers: a body, or no answer at all (a dropped connection). */
export type Outcome =
  | { readonly _tag: "Body"; readonly body: unknown; readonly code: number | "ok" }
  | { readonly _tag: "Drop" }

/** The answer to a refusal: its error envelope (C6). */
const refusal = (error: ApiError.ApiError): Outcome => ({
  _tag: "Body",
  body: Envelope.encodeError(error),
  code: error.code
})

const dropped: Outcome = { _tag: "Drop" }

/** Refuses a request to `op` with the tagged error of `code`. */
const refuse = <C extends ApiError.ErrorCode>(
  op: Operation.Any,
  code: C,
  text: string
): Effect.Effect<never, ApiError.ErrorOf<C>> => Refusal.fail(code, text, op.path)

/** The success envelope of `op` (C5); a result its schema cannot encode is an internal error (101). */
const success = (op: Operation.Any, result: unknown): Effect.Effect<Outcome, ApiError.ErrorOf<101>> =>
  Effect.mapBoth(Envelope.encodeSuccess(op)(result), {
    onFailure: () => Refusal.make(101, Texts.internalError, op.path),
    onSuccess: (body): Outcome => ({ _tag: "Body", body, code: "ok" })
  })

const decodePair = Schema.decodeUnknownEither(Schema.Struct(Operations.CommunityRef))

/** What the pipeline learns of a request for its journal entry: the caller, the parameters (masked). */
interface Seen {
  user?: number
  params?: Record<string, unknown>
}

/** The request of one operation, as the pipeline needs it. */
export interface Incoming {
  readonly op: Operation.Any
  readonly version: "v1" | "v2"
  readonly method: string
  readonly authorization: string | undefined
  readonly params: Effect.Effect<RequestParams>
}

/** A tenant's world: its engine and the HTTP app over it. */
export interface Tenant {
  readonly engine: Engine
  readonly app: HttpApp.Default
}

/**
 * The server's state and request pipeline. Internal: the public `ReferenceServer` service exposes its
 * control operations and its HTTP app (`app.ts`), both made over one engine.
 */
export class Engine {
  private store: Store
  private fixture: Fixture.Fixture
  private faults = new FaultState({})
  private readonly tokens = new TokenCache()
  private readonly rate = new RateWindows()
  private readonly creations = new CreationCounters()
  /** The request log, read by the printed lines, `recentRequests` and the journal route. */
  private readonly log = new Journal.Ring()
  private answered = 0

  constructor(
    fixture: Fixture.Fixture,
    private readonly lock: Effect.Semaphore,
    private readonly logLine: ((entry: RequestLogEntry) => void) | undefined,
    /** The credential of the control routes. */
    readonly control: ControlToken,
    /** The clock given from outside; the fiber's own `Clock` (so `TestClock`) when `undefined`. */
    private readonly clock: Clock.Clock | undefined,
    /**
     * The clock of a request's pace when it is not the server's (`Options.rateClock`): the per-second
     * request rate (L1), the injected latency and the log's milliseconds. A sandbox whose clock is
     * turned by hand keeps these on the real time, so that clients pacing on the real time still work.
     */
    private readonly paceClock?: Clock.Clock,
    /** The server's clock when it is a manual one: what `POST /_sandbox/clock` turns. */
    readonly manualClock?: CoreClock.ManualClock
  ) {
    this.fixture = fixture
    this.store = StoreModule.fromFixture(fixture)
  }

  /**
   * Runs `f` with the server's clock: every reading of the time and every wait of the pipeline goes
   * through here, so that a clock given from outside drives all of them.
   */
  private clockWith<A, E>(f: (clock: Clock.Clock) => Effect.Effect<A, E>): Effect.Effect<A, E> {
    return this.clock === undefined ? Effect.clockWith(f) : f(this.clock)
  }

  /** The current time on the server's clock, in milliseconds. */
  now(): Effect.Effect<number> {
    return this.clockWith((clock) => clock.currentTimeMillis)
  }

  /** The current time on the clock of the request rate (the server's unless it has its own), in milliseconds. */
  rateNow(): Effect.Effect<number> {
    return this.paceClock === undefined ? this.now() : this.paceClock.currentTimeMillis
  }

  /** Whether the request rate, the latency and the log's milliseconds run on a clock of their own. */
  get rateOnOwnClock(): boolean {
    return this.paceClock !== undefined
  }

  /**
   * Runs `effect` holding the lock. A free lock is taken at once (`withPermitsIfAvailable` is
   * synchronous); only a busy one is waited for, which costs a suspension of the fiber.
   */
  private locked<A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> {
    return Effect.flatMap(
      this.lock.withPermitsIfAvailable(1)(effect),
      Option.match({ onNone: () => this.lock.withPermits(1)(effect), onSome: Effect.succeed })
    )
  }

  /**
   * The tenants of this sandbox ({@link Tenants}), each an engine of its own made by {@link makeTenant};
   * `undefined` in a tenant's own engine, which holds none.
   */
  tenants: Tenants.Tenants<Tenant> | undefined
  /** Makes the engine of a new tenant: the fixture this one serves, afresh, on a clock of its own. */
  makeTenant: (() => Effect.Effect<Engine>) | undefined

  /** The fixture this engine serves, as loaded (not its state now). */
  servedFixture(): Fixture.Fixture {
    return this.fixture
  }

  reset(): Effect.Effect<void> {
    return this.locked(Effect.sync(() => {
      this.store = StoreModule.fromFixture(this.fixture)
      this.faults = new FaultState({})
      this.tokens.clear()
      this.rate.clear()
      this.creations.clear()
      this.log.clear()
      this.answered = 0
    }))
  }

  load(fixture: Fixture.Fixture): Effect.Effect<void> {
    return Effect.suspend(() => {
      this.fixture = fixture
      return this.reset()
    })
  }

  setFaults(settings: Faults.FaultSettings): Effect.Effect<void> {
    return this.locked(Effect.sync(() => {
      this.faults = new FaultState(settings)
    }))
  }

  faultSettings(): Faults.FaultSettings {
    return this.faults.settings
  }

  snapshot(): Effect.Effect<Fixture.Fixture> {
    return this.locked(Effect.sync(() => StoreModule.toFixture(this.store)))
  }

  /** Runs `f` on the store under the lock. */
  modify<A>(f: (store: Store) => A): Effect.Effect<A> {
    return this.locked(Effect.sync(() => f(this.store)))
  }

  /** Requests answered since the last reset. */
  requestCount(): number {
    return this.answered
  }

  recentRequests(): ReadonlyArray<RequestLogEntry> {
    return this.log.all()
  }

  /** The journal (`GET /_sandbox/requests`): the entries kept that pass `filter`, newest last. */
  journal(filter: JournalFilter): RequestJournal {
    return { size: Journal.size, dropped: this.log.dropped, entries: this.log.all().filter(Journal.matches(filter)) }
  }

  /** Empties the journal (`DELETE /_sandbox/requests`); the count of requests answered stays. */
  clearJournal(): void {
    this.log.clear()
  }

  /**
   * The limits of `user` now (`GET /_sandbox/limits`), or of every user with something counted: the
   * second on the request rate's clock, the minute and the day on the server's.
   */
  limits(user: number | undefined): Effect.Effect<{ readonly now: number; readonly users: ReadonlyArray<UserLimits> }> {
    return Effect.zipWith(this.now(), this.rateNow(), (now, rateNow) => {
      const of = (id: number) => usage(this.rate, this.creations, id, now, rateNow)
      if (user !== undefined) return { now, users: [of(user)] }
      const ids = [...new Set([...this.rate.users(), ...this.creations.users()])].sort((a, b) => a - b)
      return { now, users: ids.map(of).filter(counted) }
    })
  }

  private record(entry: RequestLogEntry): void {
    this.answered++
    this.log.add(entry)
    this.logLine?.(entry)
  }

  /** What a request's entry says of its parameters: the secrets it may carry (see journal.ts). */
  private secretsOf(incoming: Incoming, read: RequestParams): Journal.Secrets {
    return {
      credential: credentialOf(incoming.authorization, read.params.api_key),
      isToken: (text) => this.store.tokens.has(text)
    }
  }

  /** Answers a request outside any operation (unknown path, version, section or method: 1 or 3). */
  routingError(path: string, error: ApiError.ErrorOf<1 | 3>): Effect.Effect<Outcome> {
    return this.clockWith((clock) =>
      Effect.sync(() => {
        this.record({ at: clock.unsafeCurrentTimeMillis(), path, outcome: error.code, millis: 0 })
        return refusal(error)
      })
    )
  }

  /** The declared drift of this world's answers (`Options.drift`); none by default. */
  drift: Drift.Drift = Drift.none

  /** The declared answers of undocumented reading operations not modelled (`Options.undocumentedAnswers`). */
  answers: ReadonlyMap<string, unknown> = new Map()

  /** `outcome` as the drift alters the answers of `operation`. */
  private drifted(operation: string, outcome: Outcome): Outcome {
    if (outcome._tag === "Drop" || !Drift.operations(this.drift).includes(operation)) return outcome
    const body = Drift.apply(this.drift, operation, outcome.body as Parameters<typeof Drift.apply>[2])
    const code =
      typeof body === "object" && body !== null && "error_code" in body && typeof body.error_code === "number"
        ? body.error_code
        : outcome.code
    return { _tag: "Body", body, code }
  }

  /** Answers a request routed to an operation. */
  handle(incoming: Incoming, path: string): Effect.Effect<Outcome> {
    return this.clockWith((serverClock) => {
      const clock = this.paceClock ?? serverClock
      const started = clock.unsafeCurrentTimeMillis()
      const at = serverClock.unsafeCurrentTimeMillis()
      const seen: Seen = {}
      const latency = this.faults.latency()
      const answered = Effect.map(Effect.suspend(() => this.answer(incoming, seen)), (served) => {
        const outcome = this.drifted(incoming.op.path, served)
        this.record({
          at,
          path,
          operation: incoming.op.path,
          ...seen,
          outcome: outcome._tag === "Drop" ? "dropped" : outcome.code,
          millis: clock.unsafeCurrentTimeMillis() - started
        })
        return outcome
      })
      return latency > 0 ? Effect.zipRight(clock.sleep(Duration.millis(latency)), answered) : answered
    })
  }

  /**
   * The faults drawn after the latency, the HTTP method, then the checks under the lock. A request with
   * an `Authorization` header is authenticated (and counted against the rate) before its body is read:
   * the header decides the credential (A3), so a wrong token is refused without reading or parsing the
   * body. Without the header the credential may be `api_key` in the body, which has to be read first.
   */
  private answer(incoming: Incoming, seen: Seen): Effect.Effect<Outcome> {
    const { op } = incoming
    const decision = this.faults.decide(op.path)
    if (decision.drop === "before") return Effect.succeed(dropped)
    if (incoming.method !== "POST") {
      return Effect.succeed(refusal(Refusal.make(1, Texts.notPost(incoming.method), op.path)))
    }
    // The journal keeps what was sent, secrets masked (`admit` notes who sent it).
    const params = Effect.tap(incoming.params, (read) =>
      Effect.sync(() => {
        seen.params = Journal.maskParams(read.params, this.secretsOf(incoming, read))
      }))
    const checked = incoming.authorization !== undefined
      ? Effect.flatMap(
        this.locked(this.admit(incoming, undefined, decision, seen)),
        (caller) => Effect.flatMap(params, (read) => this.locked(this.process(incoming, read, decision, caller)))
      )
      : Effect.flatMap(params, (read) =>
        this.locked(
          Effect.flatMap(
            this.admit(incoming, read.params.api_key, decision, seen),
            (caller) => this.process(incoming, read, decision, caller)
          )
        ))
    return Effect.catchAll(checked, (error) => Effect.succeed(refusal(error)))
  }

  /** Steps 4 and 5 (see the top of this file): the key-check fault, the credential and the request rate. */
  private admit(
    incoming: Incoming,
    apiKey: unknown,
    decision: Decision,
    seen: Seen
  ): Effect.Effect<Caller, ApiError.ApiError> {
    return this.clockWith((clock): Effect.Effect<Caller, ApiError.ApiError> => {
      const { op } = incoming
      const now = clock.unsafeCurrentTimeMillis()
      if (decision.keyServiceUnavailable) return refuse(op, 9, Texts.keyServiceUnavailable)
      const credential = credentialOf(incoming.authorization, apiKey)
      if (credential === undefined) return refuse(op, 4, Texts.tokenMissing)
      const validated = this.tokens.validate(this.store, credential, now, incoming.version)
      if (Either.isLeft(validated)) return refuse(op, 4, validated.left)
      const caller = validated.right
      // Known from here, the journal's entry names the caller, the rate's refusal included.
      seen.user = caller.user_id
      if (!this.rate.admit(caller.user_id, (this.paceClock ?? clock).unsafeCurrentTimeMillis())) {
        return refuse(op, 5, Texts.tooManyRequests)
      }
      return Effect.succeed(caller)
    })
  }

  /** Steps 6 to 8, as plain checks: most requests end or pass here at once. */
  private process(
    incoming: Incoming,
    read: RequestParams,
    decision: Decision,
    caller: Caller
  ): Effect.Effect<Outcome, ApiError.ApiError> {
    return this.clockWith((clock): Effect.Effect<Outcome, ApiError.ApiError> => {
      const { op } = incoming
      const now = clock.unsafeCurrentTimeMillis()
      if (decision.internalError === "before") return refuse(op, 101, Texts.internalError)
      if (read.bodyError !== undefined) return refuse(op, 7, read.bodyError)
      const { api_key: _, ...params } = read.params
      return Effect.flatMap(
        this.communityStage(op, caller, params, now),
        (community) => this.act(op, caller, params, community, decision, now)
      )
    })
  }

  /** Step 8: the community the parameters name, when they name one that decodes (7, 8). */
  private communityStage(
    op: Operation.Any,
    caller: Caller,
    params: Record<string, unknown>,
    now: number
  ): Effect.Effect<StoreModule.Community | undefined, ApiError.ErrorOf<7 | 8>> {
    if (op.roleGroup === "none") return Effect.succeed(undefined)
    const pair = decodePair(params)
    if (Either.isLeft(pair)) return Effect.succeed(undefined)
    return new RequestContext(op, this.store, caller, now, undefined).communityAt(
      pair.right.channel,
      pair.right.group_id
    )
  }

  /** Steps 9 to 12: the creation limit, the parameters, the handler and the after-action faults. */
  private act(
    op: Operation.Any,
    caller: Caller,
    params: Record<string, unknown>,
    community: StoreModule.Community | undefined,
    decision: Decision,
    now: number
  ): Effect.Effect<Outcome, ApiError.ApiError> {
    if (op.creation && community !== undefined) {
      const taken = this.creations.take(caller.user_id, now)
      if (taken !== "ok") {
        return refuse(op, 5, taken === "day" ? Texts.tooManyCreationsDay : Texts.tooManyCreationsMinute)
      }
    }
    // A reserved parameter is a wrong parameter: checked with the others, after the creation is counted (L3).
    const reserved = Object.keys(params).find((key) => key.startsWith("_"))
    if (reserved !== undefined) return refuse(op, 7, Texts.reservedParameter(reserved))
    const done = this.run(op, params, new RequestContext(op, this.store, caller, now, community))
    if (decision.internalError === "after") return Effect.flatMap(done, () => refuse(op, 101, Texts.internalError))
    if (decision.drop === "after") return Effect.as(done, dropped)
    return done
  }

  /** Steps 10 and 11: the payload, decoded with the operation's schema, then the handler. */
  private run(
    op: Operation.Any,
    params: Record<string, unknown>,
    ctx: RequestContext
  ): Effect.Effect<Outcome, ApiError.ApiError> {
    const handler = handlerOf(op)
    if (handler === undefined) return refuse(op, 3, Texts.unknownMethod(op.section, op.method))
    if (typeof handler !== "function") {
      // Without a named community the caller must hold the section's role in some community (A9).
      if (ctx.community === undefined && !this.opensSomewhere(op, ctx.caller)) return refuse(op, 8, Texts.noRole)
      if (!this.answers.has(op.path)) return refuse(op, 6, Texts.notModelled(op.path))
    }
    const decoded = Decode.payload(op.payload, params)
    if (Either.isLeft(decoded)) return refuse(op, 7, decoded.left)
    if (typeof handler !== "function") return success(op, this.answers.get(op.path))
    return Effect.flatMap(handler(decoded.right, ctx), (result) => success(op, result))
  }

  private opensSomewhere(op: Operation.Any, caller: Caller): boolean {
    for (const community of this.store.communities.values()) {
      if (allows(op.roleGroup, relation(this.store, caller.user_id, community))) return true
    }
    return false
  }
}

/** The engine of a server with `options`, their defaults filled in. */
/** `options` without their faults: a new tenant starts without any. */
const withoutFaults = ({ faults: _faults, ...rest }: Options): Options => rest

export const make = (options: Options): Effect.Effect<Engine> =>
  Effect.gen(function*() {
    const controlToken = options.controlToken ?? demoControlToken
    const engine = new Engine(
      options.fixture ?? DemoFixture.demoFixture,
      yield* Effect.makeSemaphore(1),
      options.onRequest,
      new ControlToken(Redacted.isRedacted(controlToken) ? controlToken : Redacted.make(controlToken)),
      options.clock === undefined ? undefined : Clocks.fromCore(options.clock),
      options.rateClock === undefined ? undefined : Clocks.fromCore(options.rateClock),
      Clocks.manualOf(options.clock)
    )
    if (options.faults !== undefined) yield* engine.setFaults(options.faults)
    if (options.drift !== undefined) engine.drift = options.drift
    // Checked before anything is answered: a wrong operation is the maker's mistake, not a request's.
    if (options.undocumentedAnswers !== undefined) {
      engine.answers = yield* Effect.orDie(Answers.check(options.undocumentedAnswers))
    }
    engine.tenants = new Tenants.Tenants<Tenant>()
    engine.makeTenant = () =>
      Effect.flatMap(engine.now(), (now) =>
        Effect.map(
          make({
            ...withoutFaults(options),
            fixture: engine.servedFixture(),
            // A clock turned by hand is turned per tenant: each tenant's starts at the sandbox's time now.
            ...(engine.manualClock === undefined ? {} : { clock: CoreClock.manual(now) })
          }),
          (tenant) => {
            tenant.tenants = undefined
            tenant.makeTenant = undefined
            return tenant
          }
        ))
    return engine
  })

/** Never lets a defect reach the wire: any failure becomes error 101 with no internals (X1). */
export const internalErrorBody: Outcome = {
  _tag: "Body",
  body: Envelope.encodeError({ code: 101, text: Texts.internalError }),
  code: 101
}
