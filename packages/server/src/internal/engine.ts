/**
 * The request pipeline, derived from the contract. The order of checks, for a request routed to an
 * operation:
 *
 * 1. faults: latency (on the `Clock`), then a dropped connection;
 * 2. HTTP method: only POST (else 1);
 * 3. parameters read from the query and the body (C2); a body that cannot be read is remembered;
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
 * 11. the handler; E17 operations not modelled answer 6;
 * 12. after-action faults (101 or a dropped connection, the action done).
 *
 * Steps 4 to 11 run under one lock, so every change of state, counter and window is atomic.
 *
 * @internal
 */
import { ApiError, Envelope, Operations } from "@community-api/schema"
import type { Operation } from "@community-api/schema"
import { Effect, Either, Option, Schema } from "effect"
import type * as Faults from "../Faults.js"
import * as Fixture from "../Fixture.js"
import { credentialOf, TokenCache } from "./auth.js"
import type { Caller } from "./context.js"
import { allows, relation, RequestContext } from "./context.js"
import * as Decode from "./decode.js"
import type { Decision } from "./faults.js"
import { FaultState } from "./faults.js"
import type { Handlers } from "./handler.js"
import { handlers } from "./handlers.js"
import { CreationCounters, RateWindows } from "./limits.js"
import type { RequestParams } from "./params.js"
import type { Store } from "./store.js"
import * as StoreModule from "./store.js"
import * as Texts from "./texts.js"

/** What the server answers: a body, or no answer at all (a dropped connection). */
export type Outcome =
  | { readonly _tag: "Body"; readonly body: unknown; readonly code: number | "ok" }
  | { readonly _tag: "Drop" }

/** One line of the request log. */
export interface LogEntry {
  readonly path: string
  readonly outcome: number | "ok" | "dropped"
  readonly millis: number
}

const logSize = 1000

const errorBody = (code: number, text: string): Outcome => ({
  _tag: "Body",
  body: Envelope.encodeError({ code, text }),
  code
})

const dropped: Outcome = { _tag: "Drop" }

class Refused {
  constructor(readonly outcome: Outcome) {}
}

const refuse = (code: number, text: string) => Effect.fail(new Refused(errorBody(code, text)))

const decodePair = Schema.decodeUnknownEither(Schema.Struct(Operations.CommunityRef))

const successEncoders = new WeakMap<Operation.Any, (value: unknown) => Either.Either<unknown, unknown>>()

/** The success body of an operation, encoded with an encoder made once per operation. */
const encodeSuccess = (op: Operation.Any, value: unknown): Either.Either<unknown, unknown> => {
  let encode = successEncoders.get(op)
  if (encode === undefined) {
    encode = Schema.encodeEither(Envelope.successEnvelope(op)) as (value: unknown) => Either.Either<unknown, unknown>
    successEncoders.set(op, encode)
  }
  return encode(op.hasResponse ? { status: "ok", response: value } : { status: "ok" })
}

const handlerOf = (op: Operation.Any) => (handlers as Record<string, Handlers[keyof Handlers]>)[op.path]

/** The request of one operation, as the pipeline needs it. */
export interface Incoming {
  readonly op: Operation.Any
  readonly version: "v1" | "v2"
  readonly method: string
  readonly authorization: string | undefined
  readonly params: Effect.Effect<RequestParams>
}

export class Engine {
  store: Store
  private fixture: Fixture.Fixture
  private faults = new FaultState({})
  private readonly tokens = new TokenCache()
  private readonly rate = new RateWindows()
  private readonly creations = new CreationCounters()
  /** The last `logSize` entries, a ring: `logNext` is where the next one goes. */
  private readonly log: Array<LogEntry> = []
  private logNext = 0
  requestCount = 0

  constructor(
    fixture: Fixture.Fixture,
    private readonly lock: Effect.Semaphore,
    private readonly logLine: ((entry: LogEntry) => void) | undefined
  ) {
    this.fixture = fixture
    this.store = StoreModule.fromFixture(fixture)
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

  reset(): Effect.Effect<void> {
    return this.locked(Effect.sync(() => {
      this.store = StoreModule.fromFixture(this.fixture)
      this.faults = new FaultState({})
      this.tokens.clear()
      this.rate.clear()
      this.creations.clear()
      this.log.length = 0
      this.logNext = 0
      this.requestCount = 0
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

  get faultSettings(): Faults.FaultSettings {
    return this.faults.settings
  }

  snapshot(): Effect.Effect<Fixture.Fixture> {
    return this.locked(Effect.sync(() => StoreModule.toFixture(this.store)))
  }

  /** Runs `f` on the store under the lock. */
  modify<A>(f: (store: Store) => A): Effect.Effect<A> {
    return this.locked(Effect.sync(() => f(this.store)))
  }

  recentRequests(): ReadonlyArray<LogEntry> {
    return this.log.length < logSize
      ? [...this.log]
      : [...this.log.slice(this.logNext), ...this.log.slice(0, this.logNext)]
  }

  private record(entry: LogEntry): void {
    this.requestCount++
    // A ring of the last `logSize` entries: no copying per request once it is full.
    if (this.log.length < logSize) this.log.push(entry)
    else this.log[this.logNext] = entry
    this.logNext = (this.logNext + 1) % logSize
    this.logLine?.(entry)
  }

  /** Answers a request outside any operation (unknown path, version, section or method). */
  routingError(path: string, code: 1 | 3, text: string): Effect.Effect<Outcome> {
    return Effect.sync(() => {
      this.record({ path, outcome: code, millis: 0 })
      return errorBody(code, text)
    })
  }

  /** Answers a request routed to an operation. */
  handle(incoming: Incoming, path: string): Effect.Effect<Outcome> {
    return Effect.clockWith((clock) => {
      const started = clock.unsafeCurrentTimeMillis()
      const latency = this.faults.latency()
      const answered = Effect.map(Effect.suspend(() => this.answer(incoming)), (outcome) => {
        this.record({
          path,
          outcome: outcome._tag === "Drop" ? "dropped" : outcome.code,
          millis: clock.unsafeCurrentTimeMillis() - started
        })
        return outcome
      })
      return latency > 0 ? Effect.zipRight(Effect.sleep(latency), answered) : answered
    })
  }

  /** The faults drawn after the latency, the HTTP method, then the checks under the lock. */
  private answer(incoming: Incoming): Effect.Effect<Outcome> {
    const decision = this.faults.decide(incoming.op.path)
    if (decision.drop === "before") return Effect.succeed(dropped)
    if (incoming.method !== "POST") return Effect.succeed(errorBody(1, Texts.notPost(incoming.method)))
    return Effect.flatMap(incoming.params, (read) =>
      this.locked(
        Effect.clockWith((clock) => this.process(incoming, read, decision, clock.unsafeCurrentTimeMillis()))
      ).pipe(Effect.catchAll((refused) => Effect.succeed(refused.outcome))))
  }

  /** Steps 4 to 8 (see the top of this file), as plain checks: most requests end or pass here at once. */
  private process(
    incoming: Incoming,
    read: RequestParams,
    decision: Decision,
    now: number
  ): Effect.Effect<Outcome, Refused> {
    if (decision.keyServiceUnavailable) return refuse(9, Texts.keyServiceUnavailable)
    const credential = credentialOf(incoming.authorization, read.params.api_key)
    if (credential === undefined) return refuse(4, Texts.tokenMissing)
    const validated = this.tokens.validate(this.store, credential, now, incoming.version)
    if (Either.isLeft(validated)) return refuse(4, validated.left)
    const caller = validated.right
    if (!this.rate.admit(caller.user_id, now)) return refuse(5, Texts.tooManyRequests)
    if (decision.internalError === "before") return refuse(101, Texts.internalError)
    if (read.bodyError !== undefined) return refuse(7, read.bodyError)
    const { api_key: _, ...params } = read.params
    return Effect.flatMap(
      this.communityStage(incoming.op, caller, params, now),
      (community) => this.act(incoming.op, caller, params, community, decision, now)
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
  ): Effect.Effect<Outcome, Refused> {
    if (op.creation && community !== undefined) {
      const taken = this.creations.take(caller.user_id, now)
      if (taken !== "ok") return refuse(5, taken === "day" ? Texts.tooManyCreationsDay : Texts.tooManyCreationsMinute)
    }
    // A reserved parameter is a wrong parameter: checked with the others, after the creation is counted (L3).
    const reserved = Object.keys(params).find((key) => key.startsWith("_"))
    if (reserved !== undefined) return refuse(7, Texts.reservedParameter(reserved))
    const success = this.run(op, handlerOf(op), params, new RequestContext(op, this.store, caller, now, community))
    if (decision.internalError === "after") return Effect.flatMap(success, () => refuse(101, Texts.internalError))
    if (decision.drop === "after") return Effect.as(success, dropped)
    return success
  }

  private communityStage(op: Operation.Any, caller: Caller, params: Record<string, unknown>, now: number) {
    if (op.roleGroup === "none") return Effect.succeed(undefined)
    const pair = decodePair(params)
    if (Either.isLeft(pair)) return Effect.succeed(undefined)
    const ctx = new RequestContext(op, this.store, caller, now, undefined)
    return ctx.communityAt(pair.right.channel, pair.right.group_id).pipe(
      Effect.mapError((error) => new Refused(errorBody(error.code, error.text)))
    )
  }

  private run(
    op: Operation.Any,
    handler: Handlers[keyof Handlers] | undefined,
    params: Record<string, unknown>,
    ctx: RequestContext
  ): Effect.Effect<Outcome, Refused> {
    if (handler === undefined) return refuse(3, Texts.unknownMethod(op.section, op.method))
    if (typeof handler !== "function" && handler._tag === "NotModelled") {
      // Without a named community the caller must hold the section's role in some community (A9).
      if (ctx.community === undefined && !this.opensSomewhere(op, ctx.caller)) return refuse(8, Texts.noRole)
      return refuse(6, Texts.notModelled(op.path))
    }
    const schema = typeof handler === "function" ? op.payload : handler.payload
    const body = typeof handler === "function"
      ? (value: unknown) =>
        (handler as (p: unknown, c: RequestContext) => Effect.Effect<unknown, ApiError.ApiError>)(value, ctx)
      : (value: unknown) => handler.run(value, ctx)
    return Either.match(Decode.payload(schema, params), {
      onLeft: (text) => refuse(7, text),
      onRight: (value) =>
        body(value).pipe(
          Effect.mapError((error) => new Refused(errorBody(error.code, error.text))),
          Effect.flatMap((result) => {
            if (typeof handler !== "function") {
              return Effect.succeed<Outcome>({
                _tag: "Body",
                body: op.hasResponse ? { status: "ok", response: result } : { status: "ok" },
                code: "ok"
              })
            }
            const encoded = encodeSuccess(op, result)
            return Either.isRight(encoded)
              ? Effect.succeed<Outcome>({ _tag: "Body", body: encoded.right, code: "ok" })
              : refuse(101, Texts.internalError)
          })
        )
    })
  }

  private opensSomewhere(op: Operation.Any, caller: Caller): boolean {
    for (const community of this.store.communities.values()) {
      if (allows(op.roleGroup, relation(this.store, caller.user_id, community))) return true
    }
    return false
  }
}

/** Never lets a defect reach the wire: any failure becomes error 101 with no internals (X1). */
export const internalErrorBody: Outcome = errorBody(101, Texts.internalError)
