/**
 * The connection to Redis: `ioredis` with the scripts defined, connected for a scope, and every call
 * failing at once with `LimiterUnavailable` (named without credentials) while Redis is not there. One
 * server (`redis://`) or a cluster (`redis+cluster://`, `@community-api/core/RedisUrl`): on a cluster
 * each script goes to the master of its user's slot, as every key of one call shares the user's tag.
 *
 * @internal
 */
import * as RedisScripts from "@community-api/core/RedisScripts"
import * as RedisUrl from "@community-api/core/RedisUrl"
import { Duration, Effect, Redacted } from "effect"
import type { Scope } from "effect"
import { Cluster, Redis } from "ioredis"
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

/** How long to wait before connecting again after the `times`-th failure in a row. */
const reconnectDelay = (times: number) => Math.min(100 * times, 2_000)

/** The client of one server or of a cluster, failing fast, or why there is none. */
const makeClient = (url: string, timeoutMillis: number): Redis | Cluster | string => {
  const target = RedisUrl.parse(url)
  const fast = {
    // A command while disconnected fails at once instead of waiting in a queue: no request
    // waits on a store that is not there.
    enableOfflineQueue: false,
    lazyConnect: true
  } as const
  // No `commandTimeout`: a call's timeout is on the Effect clock (`run` below), so that tests can
  // stall a real Redis under `TestClock`. Either way a call that timed out stays sent: a stalled
  // Redis still runs it when it wakes.
  const node = { maxRetriesPerRequest: 0, connectTimeout: timeoutMillis } as const
  switch (target._tag) {
    case "Unreadable":
      return target.reason
    case "Server":
      return new Redis(url, { ...fast, ...node, retryStrategy: reconnectDelay })
    case "Cluster":
      return new Cluster([...target.nodes], {
        ...fast,
        clusterRetryStrategy: reconnectDelay,
        // A command whose master went away mid-call may have run: it fails (the permits it might
        // have taken lapse within the lease) rather than run twice. A cluster without a master for
        // the slot fails the call at once too; a redirection (MOVED, ASK, TRYAGAIN) ran nothing and
        // is followed, within the command's timeout.
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
        slotsRefreshTimeout: timeoutMillis,
        redisOptions: {
          ...node,
          ...(target.username === undefined ? {} : { username: target.username }),
          ...(target.password === undefined ? {} : { password: target.password }),
          ...(target.tls ? { tls: {} } : {})
        }
      })
  }
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
    const unavailable = (limiter: ClientError.LimiterUnavailable["limiter"], reason: string) =>
      new ClientError.LimiterUnavailable({ limiter, store, reason: scrub(reason) })
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const client = makeClient(url, options.timeoutMillis)
        if (typeof client === "string") return client
        // Without a listener the library prints every connection error; the calls report them.
        client.on("error", (error: Error) => {
          lastError = scrub(error.message)
        })
        // A cluster's own errors are about the cluster; those of one node come apart.
        if (client instanceof Cluster) {
          client.on("node error", (error: Error) => {
            lastError = scrub(error.message)
          })
        }
        for (const [name, definition] of Object.entries(RedisScripts.scripts)) client.defineCommand(name, definition)
        return client
      }),
      // A stalled Redis may never answer the QUIT (no `commandTimeout`): closed after the timeout
      // (the wait made interruptible, as a release runs uninterruptibly).
      (client) =>
        typeof client === "string" ? Effect.void : Effect.interruptible(
          Effect.promise(() => client.quit().catch(() => client.disconnect()))
        ).pipe(
          Effect.timeout(Duration.millis(options.timeoutMillis)),
          Effect.catchAll(() => Effect.sync(() => client.disconnect()))
        )
    )
    if (typeof client === "string") {
      return {
        store,
        prefix: options.prefix,
        run: (limiter) => Effect.fail(unavailable(limiter, client))
      }
    }
    // The first connection is waited for (within the timeout), so that the first calls do not fail
    // for a store that is merely still connecting. A cluster's takes three answers: a node's, its
    // slots', and its state's.
    const connecting = Effect.promise(() => client.connect().catch(() => undefined))
    yield* client instanceof Cluster
      ? Effect.asVoid(Effect.timeoutOption(connecting, options.timeoutMillis * 3))
      : connecting
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
