/**
 * The connection to Redis: `ioredis` with the scripts defined, connected for a scope, and every call
 * failing at once with `LimiterUnavailable` (named without credentials) while Redis is not there. One
 * server (`redis://`) or a cluster (`redis+cluster://`, `@community-api/core/RedisUrl`): on a cluster
 * each script goes to the master of its user's slot, as every key of one call shares the user's tag.
 * What to connect to, how long to wait and what a failure says are the core's
 * (`@community-api/core/RedisConnection`), and the client made over `ioredis` there; this module
 * connects it for the scope and runs and times the calls.
 *
 * @internal
 */
import * as RedisConnection from "@community-api/core/RedisConnection"
import type * as RedisCounts from "@community-api/core/RedisCounts"
import type * as RedisScripts from "@community-api/core/RedisScripts"
import { Duration, Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { Cluster, Redis } from "ioredis"
import * as ClientError from "../../ClientError.js"

/** What a store's effects are: of a result `A`, failing with `LimiterUnavailable` (see `RedisCounts.over`). @internal */
export interface Run extends RedisCounts.TypeLambda {
  readonly type: Effect.Effect<this["A"], ClientError.LimiterUnavailable>
}

/** A connection to Redis with the scripts loaded (see the core's `RedisConnection.Connected`). @internal */
export type Connection = RedisConnection.Connected<
  Effect.Effect<RedisScripts.Reply, ClientError.LimiterUnavailable>,
  ClientError.LimiterUnavailable["limiter"]
>

/** @internal */
export interface ConnectOptions extends RedisConnection.Options<Redacted.Redacted<string>> {}

/** This line's effects of the connection for a scope. */
interface Scoped extends RedisCounts.TypeLambda {
  readonly type: Effect.Effect<this["A"], never, Scope.Scope>
}

const effects: RedisConnection.Effects<Scoped, Run, ClientError.LimiterUnavailable> = {
  scoped: (acquire, release) => Effect.acquireRelease(Effect.sync(acquire), release),
  // The wait made interruptible, as a release runs uninterruptibly.
  await: (promise, millis, late) =>
    millis === undefined
      ? Effect.promise(promise)
      : Effect.interruptible(Effect.promise(promise)).pipe(
        Effect.timeout(Duration.millis(millis)),
        Effect.catchAll(() => Effect.sync(late))
      ),
  request: (promise, millis, failed) =>
    Effect.tryPromise({ try: promise, catch: failed }).pipe(
      Effect.timeoutFail({ duration: Duration.millis(millis), onTimeout: () => failed() })
    ),
  flatMap: (effect, f) => Effect.flatMap(effect, f),
  map: (effect, f) => Effect.map(effect, f)
}

/**
 * Connects to Redis for the scope, and quits at its end (the core's `RedisConnection.connect`).
 *
 * @internal
 */
export const connect = (options: ConnectOptions): Effect.Effect<Connection, never, Scope.Scope> =>
  RedisConnection.connect<Scoped, Run, ClientError.LimiterUnavailable, ClientError.LimiterUnavailable["limiter"]>(
    effects,
    { Redis, Cluster },
    { ...options, url: Redacted.value(options.url) },
    (fields) => new ClientError.LimiterUnavailable(fields)
  )
