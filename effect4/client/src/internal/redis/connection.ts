/**
 * The connection of a Redis store: one `ioredis` client per store, with the core's scripts defined
 * on it (`@community-api/core/RedisScripts`, the same as the Effect 3 line's, so processes of both
 * lines count together). A command while disconnected fails at once; every reason is scrubbed of
 * the password.
 */
import * as RedisScripts from "@community-api/core/RedisScripts"
import { describeUrl, scrubber } from "@community-api/core/RedisUrl"
import { Duration, Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { Redis } from "ioredis"
import * as ClientError from "../../ClientError.js"

/** A connected store. */
export interface Connection {
  readonly store: string
  readonly prefix: string
  readonly run: (
    limiter: ClientError.LimiterUnavailable["limiter"],
    call: RedisScripts.Call
  ) => Effect.Effect<RedisScripts.Reply, ClientError.LimiterUnavailable>
}

/** Where and how to connect. */
export interface ConnectOptions {
  readonly url: Redacted.Redacted<string>
  readonly prefix: string
  readonly timeoutMillis: number
}

/** Connects for the scope; the connection is closed with it. */
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
          // A command while disconnected fails at once instead of waiting in a queue.
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
          Effect.catch(() => Effect.sync(() => redis.disconnect()))
        )
    )
    // The first connection is waited for (within the timeout).
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
          }).pipe(Effect.timeoutOrElse({
            duration: Duration.millis(options.timeoutMillis),
            orElse: () => Effect.fail(unavailable(limiter, `no answer within ${options.timeoutMillis} ms`))
          }))
          : Effect.fail(unavailable(limiter, `${lastError} (connection ${client.status})`))
    }
  })
