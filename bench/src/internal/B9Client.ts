/**
 * The client process of B9, started with `--expose-gc` so that each heap reading follows a full
 * collection: one client per token (`CommunityApiClient.make`, over undici or `fetch`), every one of them on
 * one shared `Pacing` over one memory `PermitStore` and one `CreationQuota` over one memory
 * `CountStore`, as a platform acting for many accounts runs them. Its CPU and heap are the client's
 * alone: the server runs in a process of its own.
 *
 * It gets its {@link Setup} as the first message, builds the clients, says `ready`, then answers each
 * {@link Command} by its `id`: `saturate` (users each calling `users/me` from several fibers in a loop)
 * or `spread` (users each calling once per period, their phases spread evenly over the period, with
 * heap readings before, while they call and once they are idle again). Times are
 * `ReferenceChild.now()` values, comparable with the server's log.
 */
import { CommunityApiClient, CountStore, CreationQuota, Pacing, PermitStore } from "@community-api/client"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Data, Deferred, Duration, Effect, Exit, Fiber, Layer, Queue, Redacted } from "effect"
import * as Profile from "./B9Profile.js"
import * as Memory from "./Memory.js"
import { now } from "./ReferenceChild.js"
import { quantile } from "./Stats.js"

/** The `HttpClient` of the clients: undici's dispatcher (`NodeHttpClient.layerUndici`), or `fetch`. */
export type Transport = "undici" | "fetch"

/** The first message: where the server is, the users' tokens (one client each), and the transport. */
export interface Setup {
  readonly baseUrl: string
  readonly tokens: ReadonlyArray<string>
  readonly transport: Transport
}

/**
 * The process's global undici dispatcher (the one `fetch` uses too), so that nothing is closed when the
 * clients are made: the clients live as long as the process.
 */
const transports: Record<Transport, Layer.Layer<HttpClient.HttpClient>> = {
  undici: Layer.provide(NodeHttpClient.layerUndiciWithoutDispatcher, NodeHttpClient.dispatcherLayerGlobal),
  fetch: FetchHttpClient.layer
}

/** A command of the parent. */
export type Command =
  | {
    readonly id: number
    readonly command: "saturate"
    /** The first `users` clients call. */
    readonly users: number
    /** Fibers per user, each calling in a loop. */
    readonly fibers: number
    readonly startAt: number
    readonly millis: number
  }
  | {
    readonly id: number
    readonly command: "spread"
    /** The first `users` clients call, each once per `periodMillis`, user `i` at phase `i / users`. */
    readonly users: number
    readonly periodMillis: number
    readonly startAt: number
    /** A whole number of periods: every user calls `millis / periodMillis` times. */
    readonly millis: number
    /**
     * At most this many calls in flight at once, as a service bounds its outgoing calls (and its
     * sockets): a call due while they are all taken waits its turn, for at most a period.
     */
    readonly maxInFlight: number
    /** When to read the heap while they call, in milliseconds from `startAt`. */
    readonly readingsAt: ReadonlyArray<number>
    /** How long to wait after the last answer before the idle reading. */
    readonly idleMillis: number
    /** Where to write a CPU profile of the point (a diagnostic run), if anywhere. */
    readonly profileFile?: string | undefined
  }

/** How many users the client's memory stores hold state for. */
export interface Holding {
  /** `PermitStore.Memory.users`: users with a permit taken, waited for or held. */
  readonly permitStore: number
  /** `Pacing.Service.users`: users with a call waiting or in flight. */
  readonly pacing: number
  /** `CountStore.Memory.users`: users with creation counts. */
  readonly countStore: number
}

/** A reading of the heap after a full collection, and what the stores hold at that moment. */
export interface Reading {
  readonly heapUsedMiB: number
  readonly rssMiB: number
  readonly holding: Holding
  /** Calls in the client, not settled yet. */
  readonly inFlight: number
  /** Calls due and waiting for one of the `maxInFlight` senders. */
  readonly queued: number
}

/** Settled calls: answered ok, or failed (by error tag). */
export interface Tally {
  ok: number
  readonly failures: Record<string, number>
}

/** The child's messages. */
export type Message =
  | {
    readonly _tag: "ready"
    readonly clients: number
    /** Heap before and after the clients were made (after full collections). */
    readonly beforeClients: Reading
    readonly withClients: Reading
    readonly buildMillis: number
  }
  | {
    readonly _tag: "saturated"
    readonly id: number
    readonly tally: Tally
    /** CPU of this process (user + system) from the start to the last answer. */
    readonly cpuMicros: number
    readonly wallMillis: number
  }
  | {
    readonly _tag: "spread"
    readonly id: number
    readonly calls: number
    readonly tally: Tally
    /** CPU of this process from the start to the last answer, less the collections of the readings. */
    readonly cpuMicros: number
    readonly wallMillis: number
    /** From when a call was due to its answer, in milliseconds. */
    readonly lagMillis: { readonly p50: number; readonly p99: number; readonly max: number }
    readonly before: Reading
    readonly during: ReadonlyArray<Reading>
    readonly afterIdle: Reading
  }

/** A call of `spread` that found no free sender within a period of when it was due, and was not sent. */
class NotSentInTime extends Data.TaggedError("NotSentInTime") {}

/** One for all: an error captures a stack trace when made, and the client's CPU is what is measured. */
const notSentInTime = Exit.fail(new NotSentInTime())

const send = (message: Message) => process.send?.(message)

const sleepUntil = (at: number) => Effect.suspend(() => Effect.sleep(Duration.millis(Math.max(0, at - now()))))

const cpuMicros = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return used.user + used.system
}

const tallyOf = (tally: Tally) => (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit)) tally.ok++
  else {
    const tag = exit.cause._tag === "Fail" ? String((exit.cause.error as { _tag?: string })._tag) : "defect"
    tally.failures[tag] = (tally.failures[tag] ?? 0) + 1
  }
}

const make = (setup: Setup) =>
  Effect.gen(function*() {
    const permits = PermitStore.unsafeMakeMemory()
    const counts = CountStore.unsafeMakeMemory()
    const pacing = yield* Effect.provideService(Pacing.makeFromStore(), PermitStore.PermitStore, permits)
    const quota = yield* Effect.provideService(CreationQuota.makeFromStore, CountStore.CountStore, counts)
    let inFlight = 0
    /** Calls of `spread` due and not settled (waiting for a sender or in the client). */
    let pending = 0
    const holding = Effect.all({ permitStore: permits.users, pacing: pacing.users, countStore: counts.users })
    /** A reading after full collections; the CPU they take is added to `gcMicros`. */
    const read = Effect.map(holding, (holding): Reading & { readonly gcMicros: number } => {
      const started = process.cpuUsage()
      const memory = Memory.readRetained()
      return { ...memory, holding, inFlight, queued: pending - inFlight, gcMicros: cpuMicros(started) }
    })
    const withoutCost = ({ gcMicros: _, ...reading }: Reading & { readonly gcMicros: number }): Reading => reading

    const beforeClients = withoutCost(yield* read)
    const built = now()
    const clients = yield* Effect.forEach(
      setup.tokens,
      (token) => CommunityApiClient.make({ baseUrl: setup.baseUrl, token: Redacted.make(token) })
    ).pipe(
      Effect.provideService(Pacing.Pacing, pacing),
      Effect.provideService(CreationQuota.CreationQuota, quota),
      Effect.provide(transports[setup.transport])
    )
    const buildMillis = now() - built
    const withClients = withoutCost(yield* read)

    const call = (client: CommunityApiClient.Client) =>
      Effect.suspend(() => {
        inFlight++
        return client.users.me()
      }).pipe(Effect.ensuring(Effect.sync(() => inFlight--)))

    const saturate = (command: Extract<Command, { command: "saturate" }>) =>
      Effect.gen(function*() {
        const tally: Tally = { ok: 0, failures: {} }
        const end = command.startAt + command.millis
        yield* sleepUntil(command.startAt)
        const started = process.cpuUsage()
        const startedAt = now()
        const loop = (client: CommunityApiClient.Client) =>
          Effect.whileLoop({ while: () => now() < end, body: () => Effect.exit(call(client)), step: tallyOf(tally) })
        yield* Effect.forEach(
          clients.slice(0, command.users).flatMap((client) => Array.from({ length: command.fibers }, () => client)),
          loop,
          { concurrency: "unbounded", discard: true }
        )
        return {
          _tag: "saturated",
          id: command.id,
          tally,
          cpuMicros: cpuMicros(started),
          wallMillis: now() - startedAt
        } satisfies Message
      })

    const spread = (command: Extract<Command, { command: "spread" }>) =>
      Effect.gen(function*() {
        const { periodMillis, startAt, users } = command
        const calls = users * Math.round(command.millis / periodMillis)
        // Call `j` is user `j % users`'s call number `j / users`: in the order they are due.
        const dueAt = (j: number) =>
          startAt + Math.floor(j / users) * periodMillis + ((j % users) * periodMillis) / users
        // Made before the first reading, so that the readings compare the same arrays.
        const lags = new Float64Array(calls)
        const tally: Tally = { ok: 0, failures: {} }
        const counted = tallyOf(tally)
        const allSettled = yield* Deferred.make<void>()
        let settled = 0
        let gcMicros = 0
        const reading = Effect.map(read, (r) => {
          gcMicros += r.gcMicros
          return withoutCost(r)
        })
        const before = yield* reading
        const profiler = command.profileFile === undefined ? undefined : yield* Profile.start
        yield* sleepUntil(startAt)
        const started = process.cpuUsage()
        const during: Array<Reading> = []
        const readings = Effect.forEach(command.readingsAt, (at) =>
          Effect.zipRight(
            sleepUntil(startAt + at),
            Effect.flatMap(reading, (r) => Effect.sync(() => during.push(r)))
          ), { discard: true })
        const readingsFiber = yield* Effect.fork(readings)
        // The calls due, in order, taken by `maxInFlight` senders. Not one fiber per call waiting on a
        // semaphore: Effect 3's `Semaphore` wakes more waiters at each release the longer its queue (see
        // `docs/bench.md`, B9), so a long queue on one would cost the driver, not the client, the CPU.
        const due = yield* Queue.unbounded<number>()
        const settle = (j: number, exit: Exit.Exit<unknown, unknown>) => {
          pending--
          lags[j] = now() - dueAt(j)
          counted(exit)
          if (++settled === calls) Deferred.unsafeDone(allSettled, Exit.void)
        }
        // A call still waiting for a sender a period after it was due is never sent (`NotSentInTime`): a
        // client that falls behind the demand then holds at most a period of it, and the point ends in
        // time. A call sent runs to its end: cutting it short would close its connection, and every later
        // call would pay for a new one.
        const sender = Effect.forever(
          Effect.flatMap(Queue.take(due), (j) =>
            now() > dueAt(j) + periodMillis
              ? Effect.sync(() => settle(j, notSentInTime))
              : Effect.flatMap(Effect.exit(call(clients[j % users]!)), (exit) => Effect.sync(() => settle(j, exit))))
        )
        const senders = yield* Effect.forEach(
          Array.from({ length: command.maxInFlight }),
          () => Effect.fork(sender)
        )
        // One driver queues each call when it is due.
        let next = 0
        while (next < calls) {
          const at = now()
          while (next < calls && dueAt(next) <= at) {
            pending++
            Queue.unsafeOffer(due, next++)
          }
          if (next < calls) yield* Effect.sleep(Duration.millis(Math.max(1, dueAt(next) - now())))
        }
        yield* Deferred.await(allSettled)
        yield* Fiber.interruptAll(senders)
        const cpu = cpuMicros(started) - gcMicros
        const wallMillis = now() - startAt
        if (profiler !== undefined) yield* profiler.stop(command.profileFile!)
        yield* Effect.fromFiber(readingsFiber)
        yield* Effect.sleep(Duration.millis(command.idleMillis))
        const afterIdle = yield* reading
        const sampled = Array.from(lags)
        return {
          _tag: "spread",
          id: command.id,
          calls,
          tally,
          cpuMicros: cpu,
          wallMillis,
          lagMillis: {
            p50: quantile(sampled, 0.5),
            p99: quantile(sampled, 0.99),
            max: sampled.reduce((a, b) => Math.max(a, b), 0)
          },
          before,
          during,
          afterIdle
        } satisfies Message
      })

    return { clients: clients.length, beforeClients, withClients, buildMillis, saturate, spread }
  })

// The parent gone, nothing is left to do.
process.on("disconnect", () => process.exit(0))

/** A failure ends the process: the parent then fails the benchmark with its exit code. */
const fail = (error: unknown) => {
  process.stderr.write(`[bench] B9 client: ${String(error)}\n`)
  process.exit(1)
}

process.once("message", (setup: Setup) => {
  void Effect.runPromise(make(setup)).then((client) => {
    process.on("message", (command: Command) => {
      const reply: Effect.Effect<Message> = command.command === "saturate"
        ? client.saturate(command)
        : client.spread(command)
      void Effect.runPromise(reply).then(send, fail)
    })
    send({
      _tag: "ready",
      clients: client.clients,
      beforeClients: client.beforeClients,
      withClients: client.withClients,
      buildMillis: client.buildMillis
    })
  }, fail)
})
