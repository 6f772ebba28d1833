/**
 * The connection to Redis: `ioredis` with the scripts defined, connected for a scope, and every call
 * failing at once with `LimiterUnavailable` (named without credentials) while Redis is not there. One
 * server (`redis://`) or a cluster (`redis+cluster://`, `@community-api/core/RedisUrl`): on a cluster
 * each script goes to the master of its user's slot, as every key of one call shares the user's tag.
 * What to connect to, how long to wait and what a failure says are the core's
 * (`@community-api/core/RedisConnection`); this module makes the client and times the calls.
 *
 * @internal
 */
import * as RedisConnection from "@community-api/core/RedisConnection"
import * as RedisScripts from "@community-api/core/RedisScripts"
import { Duration, Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { Cluster, Redis } from "ioredis"
import * as ClientError from "../../ClientError.js"

/** A connection to Redis with the scripts loaded. @internal */
export interface Connection {
  /** The store as errors name it, without credentials. */
  readonly store: string
  readonly prefix: string
  /** Runs a script; fails with `LimiterUnavailable` for `limiter` when Redis is not there or slow. */
  readonly run: (
    limiter: ClientError.LimiterUnavailable["limiter"],
    call: RedisScripts.Call
  ) => Effect.Effect<RedisScripts.Reply, ClientError.LimiterUnavailable>
}

/** @internal */
export interface ConnectOptions {
  readonly url: Redacted.Redacted<string>
  readonly prefix: string
  readonly timeoutMillis: number
}

type Commands = Record<RedisScripts.Script, (...args: ReadonlyArray<string | number>) => Promise<RedisScripts.Reply>>

/** The client the core says to make, with the scripts defined, or why there is none. */
const open = (plan: RedisConnection.RedisConnection): Redis | Cluster | string => {
  const target = plan.client
  if (target._tag === "Unreadable") return target.reason
  const client = target._tag === "Server"
    ? new Redis(target.url, target.options)
    : new Cluster([...target.nodes], target.options)
  // Without a listener the library prints every connection error; the calls report them.
  for (const event of plan.errorEvents) client.on(event, plan.noteError)
  for (const [name, definition] of Object.entries(RedisScripts.scripts)) client.defineCommand(name, definition)
  return client
}

/**
 * Connects to Redis for the scope, and quits at its end. Never fails: when Redis cannot be reached the
 * client keeps trying to connect in the background, and each script fails at once meanwhile.
 *
 * @internal
 */
export const connect = (options: ConnectOptions): Effect.Effect<Connection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const plan = RedisConnection.make(Redacted.value(options.url), options.timeoutMillis)
    const { store } = plan
    const prefix = options.prefix
    const unavailable = (limiter: ClientError.LimiterUnavailable["limiter"], reason: string) =>
      new ClientError.LimiterUnavailable({ limiter, store, reason })
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => open(plan)),
      // The wait made interruptible, as a release runs uninterruptibly.
      (client) =>
        typeof client === "string" ? Effect.void : Effect.interruptible(
          Effect.promise(() => client.quit().catch(() => client.disconnect()))
        ).pipe(
          Effect.timeout(Duration.millis(plan.quitWaitMillis)),
          Effect.catchAll(() => Effect.sync(() => client.disconnect()))
        )
    )
    if (typeof client === "string") {
      return {
        store,
        prefix,
        run: (limiter) => Effect.fail(unavailable(limiter, client))
      }
    }
    const connecting = Effect.promise(() => client.connect().catch(() => undefined))
    yield* plan.connectWaitMillis === undefined
      ? connecting
      : Effect.asVoid(Effect.timeoutOption(connecting, plan.connectWaitMillis))
    const commands = client as unknown as Commands
    return {
      store,
      prefix,
      run: (limiter, { args, keys, script }) => {
        const refusal = plan.refusal(client.status)
        return refusal !== undefined ? Effect.fail(unavailable(limiter, refusal)) : Effect.tryPromise({
          try: () => commands[script](...keys, ...args),
          catch: (error) => unavailable(limiter, plan.failure(error))
        }).pipe(Effect.timeoutFail({
          duration: Duration.millis(plan.callTimeoutMillis),
          onTimeout: () => unavailable(limiter, plan.timedOut)
        }))
      }
    }
  })
