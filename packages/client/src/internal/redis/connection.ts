/**
 * The connection to Redis: `ioredis` with the scripts defined, connected for a scope, and every call
 * failing at once with `LimiterUnavailable` (named without credentials) while Redis is not there.
 *
 * @internal
 */
import * as RedisScripts from "@community-api/core/RedisScripts"
import { Duration, Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { Redis } from "ioredis"
import * as ClientError from "../../ClientError.js"
import { describeUrl, scrubber } from "./url.js"

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

/**
 * Connects to Redis for the scope, and quits at its end. Never fails: when Redis cannot be reached the
 * client keeps trying to connect in the background, and each script fails at once meanwhile.
 *
 * @internal
 */
export const connect = (options: ConnectOptions): Effect.Effect<Connection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const url = Redacted.value(options.url)
    const store = describeUrl(url)
    const scrub = scrubber(url)
    let lastError = "not connected yet"
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const redis = new Redis(url, {
          lazyConnect: true,
          // A command while disconnected fails at once instead of waiting in a queue: no request
          // waits on a store that is not there.
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          // No `commandTimeout`: a call's timeout is on the Effect clock (`run` below), so that tests
          // can stall a real Redis under `TestClock`. Either way a call that timed out stays sent: a
          // stalled Redis still runs it when it wakes.
          connectTimeout: options.timeoutMillis,
          retryStrategy: (times) => Math.min(100 * times, 2_000)
        })
        // Without a listener the library prints every connection error; the calls report them.
        redis.on("error", (error: Error) => {
          lastError = scrub(error.message)
        })
        for (const [name, definition] of Object.entries(RedisScripts.scripts)) redis.defineCommand(name, definition)
        return redis
      }),
      // A stalled Redis may never answer the QUIT (no `commandTimeout`): closed after the timeout
      // (the wait made interruptible, as a release runs uninterruptibly).
      (redis) =>
        Effect.interruptible(Effect.promise(() => redis.quit().catch(() => redis.disconnect()))).pipe(
          Effect.timeout(Duration.millis(options.timeoutMillis)),
          Effect.catchAll(() => Effect.sync(() => redis.disconnect()))
        )
    )
    // The first connection is waited for (within the timeout), so that the first calls do not fail
    // for a store that is merely still connecting.
    yield* Effect.promise(() => client.connect().catch(() => undefined))
    const unavailable = (limiter: ClientError.LimiterUnavailable["limiter"], reason: string) =>
      new ClientError.LimiterUnavailable({ limiter, store, reason: scrub(reason) })
    const commands = client as unknown as Record<
      RedisScripts.Script,
      (...args: ReadonlyArray<string | number>) => Promise<RedisScripts.Reply>
    >
    return {
      store,
      prefix: options.prefix,
      run: (limiter, { args, keys, script }) =>
        client.status === "ready"
          ? Effect.tryPromise({
            try: () => commands[script](...keys, ...args),
            catch: (error) => unavailable(limiter, error instanceof Error ? error.message : String(error))
          }).pipe(Effect.timeoutFail({
            duration: Duration.millis(options.timeoutMillis),
            onTimeout: () => unavailable(limiter, `no answer within ${options.timeoutMillis} ms`)
          }))
          : Effect.fail(unavailable(limiter, `${lastError} (connection ${client.status})`))
    }
  })
