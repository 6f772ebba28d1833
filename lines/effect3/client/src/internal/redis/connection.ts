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

/**
 * Connects to Redis for the scope, and quits at its end. Never fails: when Redis cannot be reached the
 * client keeps trying to connect in the background, and each script fails at once meanwhile.
 *
 * @internal
 */
export const connect = (options: ConnectOptions): Effect.Effect<Connection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const plan = RedisConnection.make(Redacted.value(options.url), options.timeoutMillis)
    const unavailable = (limiter: ClientError.LimiterUnavailable["limiter"], reason: string) =>
      new ClientError.LimiterUnavailable({ limiter, store: plan.store, reason })
    const link = yield* Effect.acquireRelease(
      Effect.sync(() => RedisConnection.link({ Redis, Cluster }, plan)),
      // The wait made interruptible, as a release runs uninterruptibly.
      (link) =>
        Effect.interruptible(Effect.promise(link.quit)).pipe(
          Effect.timeout(Duration.millis(plan.quitWaitMillis)),
          Effect.catchAll(() => Effect.sync(link.disconnect))
        )
    )
    const connecting = Effect.promise(link.connect)
    yield* plan.connectWaitMillis === undefined
      ? connecting
      : Effect.asVoid(Effect.timeoutOption(connecting, plan.connectWaitMillis))
    return {
      store: plan.store,
      prefix: options.prefix,
      run: (limiter, call) =>
        Effect.tryPromise({
          try: () => link.request(call),
          catch: (reason) => unavailable(limiter, reason as string)
        }).pipe(Effect.timeoutFail({
          duration: Duration.millis(plan.callTimeoutMillis),
          onTimeout: () => unavailable(limiter, plan.timedOut)
        }))
    }
  })
