/**
 * How either Effect line's Redis store connects and what its failures say, "sans I/O": the client to
 * make for the URL (one server or a cluster, with the options that make a call fail at once while
 * Redis is not there), how long to wait for the first connection and for the QUIT, which events
 * carry the connection's errors, and the reason of each failure, named without the password
 * (`RedisUrl`); and the client itself, made by {@link open} over the driver's classes that the line
 * loads (`ioredis`'s `Redis` and `Cluster`; the core imports no driver). The line runs the calls with
 * its Effect and times them out.
 *
 * @since 0.1.0
 */
import type { Kind, TypeLambda } from "./RedisCounts.js"
import * as RedisScripts from "./RedisScripts.js"
import * as RedisUrl from "./RedisUrl.js"

/**
 * The options that make a client fail fast, as the driver (`ioredis`) reads them: a command while
 * disconnected fails at once instead of waiting in a queue (no request waits on a store that is not
 * there), and nothing connects before the line asks.
 *
 * @since 0.1.0
 * @category models
 */
export interface FastOptions {
  readonly enableOfflineQueue: false
  readonly lazyConnect: true
}

/**
 * The options of every node's connection, as the driver reads them.
 *
 * @since 0.1.0
 * @category models
 */
export interface NodeOptions {
  readonly maxRetriesPerRequest: 0
  readonly connectTimeout: number
}

/**
 * The client to make: of one server (its URL, read by the driver), of a cluster (its nodes), or none
 * (a cluster URL that cannot be read: every call fails with `reason`).
 *
 * @since 0.1.0
 * @category models
 */
export type Client =
  | {
    readonly _tag: "Server"
    readonly url: string
    readonly options: FastOptions & NodeOptions & { readonly retryStrategy: (times: number) => number }
  }
  | {
    readonly _tag: "Cluster"
    readonly nodes: ReadonlyArray<RedisUrl.Node>
    readonly options: FastOptions & {
      readonly clusterRetryStrategy: (times: number) => number
      readonly retryDelayOnFailover: 0
      readonly retryDelayOnClusterDown: 0
      readonly slotsRefreshTimeout: number
      readonly redisOptions: NodeOptions & {
        readonly username?: string
        readonly password?: string
        readonly tls?: {}
      }
    }
  }
  | { readonly _tag: "Unreadable"; readonly reason: string }

/**
 * One store's connection as the line carries it out.
 *
 * @since 0.1.0
 * @category models
 */
export interface RedisConnection {
  /** The store as errors name it, without credentials. */
  readonly store: string
  readonly client: Client
  /** The client's events that carry a connection error, to {@link RedisConnection.noteError}. */
  readonly errorEvents: ReadonlyArray<"error" | "node error">
  /** How long the first connection is waited for; `undefined`: until it connects or fails. */
  readonly connectWaitMillis: number | undefined
  /** How long the QUIT at the scope's end is waited for before the connection is closed. */
  readonly quitWaitMillis: number
  /** How long one call is waited for. */
  readonly callTimeoutMillis: number
  /**
   * Keeps a connection error, as the reason of the calls refused until the client is ready; a failed
   * `SELECT` of the URL's database, as the reason of every call (the store is unavailable: its
   * scripts would otherwise run on database 0).
   */
  readonly noteError: (error: Error) => void
  /** Notes that the client was ready once, so that a refusal after it says the connection was lost. */
  readonly noteReady: () => void
  /**
   * Why a call is refused before it is sent, or `undefined` when the client is `ready` and its
   * database was selected.
   */
  readonly refusal: (status: string) => string | undefined
  /** Why a call failed, from the driver's error. */
  readonly failure: (error: unknown) => string
  /** Why a call failed that got no answer in time. */
  readonly timedOut: string
}

/** How long to wait before connecting again after the `times`-th failure in a row. */
const reconnectDelay = (times: number) => Math.min(100 * times, 2_000)

/** The client of one server or of a cluster, failing fast, or why there is none. */
const clientOf = (url: string, timeoutMillis: number): Client => {
  const target = RedisUrl.parse(url)
  const fast: FastOptions = { enableOfflineQueue: false, lazyConnect: true }
  // No `commandTimeout`: a call's timeout is on the line's clock, so that tests can stall a real
  // Redis under a test clock. Either way a call that timed out stays sent: a stalled Redis still
  // runs it when it wakes.
  const node: NodeOptions = { maxRetriesPerRequest: 0, connectTimeout: timeoutMillis }
  switch (target._tag) {
    case "Unreadable":
      return target
    case "Server":
      return { _tag: "Server", url, options: { ...fast, ...node, retryStrategy: reconnectDelay } }
    case "Cluster":
      return {
        _tag: "Cluster",
        nodes: target.nodes,
        options: {
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
        }
      }
  }
}

/**
 * The connection to the store at `url`, each call waited for `timeoutMillis`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (url: string, timeoutMillis: number): RedisConnection => {
  const scrub = RedisUrl.scrubber(url)
  const client = clientOf(url, timeoutMillis)
  let lastError: string | undefined
  // Before the first connection a call waits for it, refused with what failed; after it, the
  // connection was there and was lost, which a person reads differently.
  let wasReady = false
  let databaseError: string | undefined
  return {
    store: RedisUrl.describeUrl(url),
    client: client._tag === "Unreadable" ? { _tag: "Unreadable", reason: scrub(client.reason) } : client,
    // A cluster's own errors are about the cluster; those of one node come apart.
    errorEvents: client._tag === "Cluster" ? ["error", "node error"] : ["error"],
    // The first connection is waited for (within the timeout), so that the first calls do not fail
    // for a store that is merely still connecting. A cluster's takes three answers: a node's, its
    // slots', and its state's.
    connectWaitMillis: client._tag === "Cluster" ? timeoutMillis * 3 : undefined,
    // A stalled Redis may never answer the QUIT (no `commandTimeout`): closed after the timeout.
    quitWaitMillis: timeoutMillis,
    callTimeoutMillis: timeoutMillis,
    noteError: (error) => {
      lastError = scrub(error.message)
      const command = (error as { readonly command?: { readonly name?: unknown; readonly args?: unknown } }).command
      if (command?.name === "select") {
        databaseError = scrub(`database ${String(command.args)} of the URL cannot be selected: ${error.message}`)
      }
    },
    noteReady: () => {
      wasReady = true
    },
    refusal: (status) => {
      if (databaseError !== undefined) return databaseError
      if (status === "ready") return undefined
      const why = wasReady
        ? `connection lost${lastError === undefined ? "" : `: ${lastError}`}`
        : lastError ?? "not connected yet"
      return scrub(`${why} (connection ${status})`)
    },
    failure: (error) =>
      scrub(
        // ioredis fails a call in flight when the connection drops (no retry of it: `maxRetriesPerRequest`
        // is 0) with words about its own option; a person reads that the connection was lost.
        error instanceof Error && error.name === "MaxRetriesPerRequestError"
          ? `connection lost before the answer${lastError === undefined ? "" : `: ${lastError}`}`
          : error instanceof Error
          ? error.message
          : String(error)
      ),
    timedOut: scrub(`no answer within ${timeoutMillis} ms`)
  }
}

/**
 * What the store uses of a client of the driver (`ioredis`'s `Redis` and `Cluster` both are one).
 *
 * @since 0.1.0
 * @category models
 */
export interface DriverClient {
  readonly status: string
  on(event: "error" | "node error", listener: (error: Error) => void): unknown
  on(event: "ready", listener: () => void): unknown
  defineCommand(name: string, definition: RedisScripts.Definition): unknown
  connect(): Promise<unknown>
  ping(): Promise<unknown>
  quit(): Promise<unknown>
  disconnect(): unknown
}

/**
 * The driver's classes of a client of one server and of a cluster.
 *
 * @since 0.1.0
 * @category models
 */
export interface Driver {
  readonly Redis: new(url: string, options: Extract<Client, { _tag: "Server" }>["options"]) => DriverClient
  readonly Cluster: new(
    nodes: Array<RedisUrl.Node>,
    options: Extract<Client, { _tag: "Cluster" }>["options"]
  ) => DriverClient
}

/**
 * An open client with the scripts defined.
 *
 * @since 0.1.0
 * @category models
 */
export interface Open {
  /** The client's state: a call is sent only while it is `ready` ({@link RedisConnection.refusal}). */
  readonly status: () => string
  /** Sends the call of a script. */
  readonly send: (call: RedisScripts.Call) => Promise<RedisScripts.Reply>
  /**
   * Connects the first time, and, when the URL names a database, waits for a first answer (a `PING`),
   * so that a failed `SELECT` of it is known before any call; never rejects (the client keeps trying in the background).
   */
  readonly connect: () => Promise<void>
  /** Quits, or closes the connection when the QUIT fails; never rejects. */
  readonly quit: () => Promise<void>
  /** Closes the connection at once. */
  readonly disconnect: () => void
}

/** Whether the client is of one server whose URL names a database other than 0 (a `SELECT` on connecting). */
const namesDatabase = (target: Client): boolean => {
  if (target._tag !== "Server") return false
  try {
    return /^\/0*[1-9]/.test(new URL(target.url).pathname)
  } catch {
    return false
  }
}

/**
 * Makes the client of `connection` with the driver's classes, the scripts defined and its errors
 * noted; or, for a URL that cannot be read, why there is none.
 *
 * @since 0.1.0
 * @category constructors
 */
export const open = (driver: Driver, connection: RedisConnection): Open | string => {
  const target = connection.client
  if (target._tag === "Unreadable") return target.reason
  const client = target._tag === "Server"
    ? new driver.Redis(target.url, target.options)
    : new driver.Cluster([...target.nodes], target.options)
  // Without a listener the library prints every connection error; the calls report them.
  for (const event of connection.errorEvents) client.on(event, connection.noteError)
  client.on("ready", connection.noteReady)
  for (const [name, definition] of Object.entries(RedisScripts.scripts)) client.defineCommand(name, definition)
  // The scripts defined are methods of the client, by their names.
  const commands = client as unknown as Record<
    RedisScripts.Script,
    (...args: ReadonlyArray<string | number>) => Promise<RedisScripts.Reply>
  >
  return {
    status: () => client.status,
    send: ({ args, keys, script }) => commands[script](...keys, ...args),
    connect: () =>
      client.connect().then(() => namesDatabase(target) ? client.ping() : undefined).then(
        () => undefined,
        () => undefined
      ),
    quit: () => client.quit().then(() => undefined, () => void client.disconnect()),
    disconnect: () => void client.disconnect()
  }
}

/**
 * A store's client as a line drives it: the client of {@link open}, or, for a URL that cannot be
 * read, none, whose every call is refused with why (and nothing to connect or quit).
 *
 * @since 0.1.0
 * @category models
 */
export interface Link {
  /** Why a call is refused now, before it is sent ({@link RedisConnection.refusal}), or `undefined`. */
  readonly refusal: () => string | undefined
  /** Sends the call of a script (only when not refused); a failure's reason is {@link RedisConnection.failure}'s. */
  readonly send: (call: RedisScripts.Call) => Promise<RedisScripts.Reply>
  /**
   * Sends the call of a script unless it is refused now: Redis's reply, or rejected with the reason
   * of the refusal or of the failure (a string, named without credentials).
   */
  readonly request: (call: RedisScripts.Call) => Promise<RedisScripts.Reply>
  /** Connects the first time ({@link Open.connect}); never rejects. */
  readonly connect: () => Promise<void>
  /** Quits, or closes the connection when the QUIT fails; never rejects. */
  readonly quit: () => Promise<void>
  /** Closes the connection at once. */
  readonly disconnect: () => void
}

const nothing = (): Promise<void> => Promise.resolve()

/**
 * The link of `connection`: its client made with the driver's classes ({@link open}), or none for a
 * URL that cannot be read.
 *
 * @since 0.1.0
 * @category constructors
 */
export const link = (driver: Driver, connection: RedisConnection): Link => {
  const client = open(driver, connection)
  const linked: Omit<Link, "request"> = typeof client === "string"
    ? {
      refusal: () => client,
      send: () => Promise.reject(new Error(client)),
      connect: nothing,
      quit: nothing,
      disconnect: () => undefined
    }
    : { ...client, refusal: () => connection.refusal(client.status()) }
  const failed = (error: unknown): Promise<never> => Promise.reject(connection.failure(error))
  return {
    ...linked,
    request: (call) => {
      const refusal = linked.refusal()
      return refusal === undefined ? linked.send(call).catch(failed) : Promise.reject(refusal)
    }
  }
}

/**
 * Where and how a line connects: its URL (`U`, a line's `Redacted`), the prefix of the keys and the
 * timeout of a call.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<U> {
  readonly url: U
  readonly prefix: string
  readonly timeoutMillis: number
}

/**
 * A line's connection to Redis with the scripts loaded, whose `run` (of the line's effect type
 * `Run`) runs a script for a limiter `L`, failing when Redis is not there or slow.
 *
 * @since 0.1.0
 * @category models
 */
export interface Connected<Run, L> {
  /** The store as errors name it, without credentials. */
  readonly store: string
  readonly prefix: string
  readonly run: (limiter: L, call: RedisScripts.Call) => Run
}

/**
 * What {@link connect} needs of a line: its effects `F` of the connection for a scope (never failing)
 * and `Run` of a call (failing with its `LimiterUnavailable` `U`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda, Run extends TypeLambda, U> {
  /** What `acquire` gives, for the scope; `release`d at its end. */
  readonly scoped: <A>(acquire: () => A, release: (a: A) => Kind<F, void>) => Kind<F, A>
  /** Waits for `promise`, interruptibly; with `millis`, at most so long, then calls `late`. */
  readonly await: (promise: () => Promise<void>, millis: number | undefined, late: () => void) => Kind<F, void>
  /** What `promise` gives, or fails with `failed` of its rejection, or of none after `millis`. */
  readonly request: <A>(promise: () => Promise<A>, millis: number, failed: (reason?: unknown) => U) => Kind<Run, A>
  readonly flatMap: <A, B>(effect: Kind<F, A>, f: (a: A) => Kind<F, B>) => Kind<F, B>
  readonly map: <A, B>(effect: Kind<F, A>, f: (a: A) => B) => Kind<F, B>
}

/**
 * Connects to Redis for the scope with the driver's classes, and quits at its end (closing the
 * connection when the QUIT takes longer than it may). Never fails: when Redis cannot be reached the
 * client keeps trying to connect in the background, and each call fails at once meanwhile with the
 * line's `unavailable` of the limiter, the store named without credentials, and why.
 *
 * @since 0.1.0
 * @category constructors
 */
export const connect = <F extends TypeLambda, Run extends TypeLambda, U, L extends string>(
  effects: Effects<F, Run, U>,
  driver: Driver,
  options: Options<string>,
  unavailable: (fields: { readonly limiter: L; readonly store: string; readonly reason: string }) => U
): Kind<F, Connected<Kind<Run, RedisScripts.Reply>, L>> =>
  effects.flatMap(
    effects.scoped(() => {
      const plan = make(options.url, options.timeoutMillis)
      return { plan, link: link(driver, plan) }
    }, ({ link, plan }) => effects.await(link.quit, plan.quitWaitMillis, link.disconnect)),
    ({ link, plan }) =>
      effects.map(effects.await(link.connect, plan.connectWaitMillis, () => undefined), () => ({
        store: plan.store,
        prefix: options.prefix,
        run: (limiter: L, call: RedisScripts.Call) =>
          effects.request(
            () => link.request(call),
            plan.callTimeoutMillis,
            (reason) =>
              unavailable({ limiter, store: plan.store, reason: reason === undefined ? plan.timedOut : String(reason) })
          )
      }))
  )
