/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * A Redis that stalls: the test's own `redis-server` (`scripts/redis.mjs`), its process stopped
 * (SIGSTOP) and continued (SIGCONT), while the pacing permits are asked for. The connection keeps
 * what it sent: Redis runs it when it continues, replies or not. Under `TestClock`: the store's
 * timeout is on the Effect clock, so the test decides when a call times out, and Redis, which keeps
 * its own time, says what it holds. What runs on the stalled connection runs in the order it was
 * sent, so a call of the store answered after the stall has seen every call sent before it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Redacted, Scope } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll } from "vitest"
import { redisCommand } from "../../../scripts/redis-cli.mjs"
import { type RedisServer, startRedisServer } from "../../../scripts/redis.mjs"
import * as RedisInternal from "../src/internal/redis.js"

let redis: RedisServer | undefined
beforeAll(async () => {
  redis = await startRedisServer()
}, 60_000)
afterAll(async () => {
  await redis?.stop()
})
/** The `redis-server` of this file, once it runs. */
const server = {
  get port(): number {
    if (redis === undefined) throw new Error("the redis-server of these tests is not running")
    return redis.port
  },
  get url(): string {
    if (redis === undefined) throw new Error("the redis-server of these tests is not running")
    return redis.url
  }
}

let prefixes = 0
/** A prefix of its own for each test, so that no test sees another's permits. */
const freshPrefix = () => `stall-${++prefixes}-${Date.now()}:`

/** A turn of the event loop in real time: the answers of the real Redis come in meanwhile. */
const realTurn = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 10)))

/** The `redis-server` stopped for the scope (continued at its end, or by the effect returned). */
const stall = Effect.gen(function*() {
  const info = yield* Effect.promise(() => redisCommand(server.port, "INFO", "server"))
  const pid = Number(info.find((line) => line.startsWith("process_id:"))?.split(":")[1])
  expect(pid).toBeGreaterThan(0)
  const resume = Effect.sync(() => void process.kill(pid, "SIGCONT"))
  yield* Effect.acquireRelease(Effect.sync(() => void process.kill(pid, "SIGSTOP")), () => resume)
  return resume
})

const allDone = (fibers: ReadonlyArray<Fiber.Fiber<unknown, unknown>>) =>
  fibers.every((fiber) => fiber.pollUnsafe() !== undefined)

/**
 * Moves the clock on by 100 ms at a time until every fiber is done (the calls' timeouts start once
 * they are sent): bounded, so that a hang fails the test with what is left.
 */
const untilDone = <A, E>(fibers: ReadonlyArray<Fiber.Fiber<A, E>>) =>
  Effect.gen(function*() {
    for (let step = 0; step < 300 && !allDone(fibers); step++) {
      yield* TestClock.adjust("100 millis")
      yield* realTurn
    }
    expect(allDone(fibers)).toBe(true)
  })

/** Waits in real time for fibers that wait on Redis alone (not on the clock), bounded against a hang. */
const settled = <A, E>(fibers: ReadonlyArray<Fiber.Fiber<A, E>>) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 1500 && !allDone(fibers); turn++) yield* realTurn
    expect(allDone(fibers)).toBe(true)
    return yield* Effect.forEach(fibers, Fiber.join)
  })

/** The names of the user's permits in flight in Redis. */
const inFlight = (prefix: string) =>
  Effect.promise(() => redisCommand(server.port, "ZRANGE", `${prefix}{u}:permits:in-flight`, "0", "-1"))

const store = (prefix: string, limit: number) =>
  Effect.flatMap(
    RedisInternal.connect({ url: Redacted.make(server.url), prefix, timeoutMillis: 1000 }),
    (connection) => RedisInternal.permitStore(connection, { limit, leaseMillis: 10_000 })
  )

describe("A Redis that stalls", () => {
  it.effect(
    "L1 a take that a stalled Redis runs late gives its permits back: only the permits in use are held, the waiters of the stall are served",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const prefix = freshPrefix()
        const permits = yield* store(prefix, 5)
        // Another process of the user, with a connection of its own.
        const other = yield* store(prefix, 5)
        const resume = yield* stall
        // Three waiters: one take of three, unanswered within the timeout, which fails them.
        const early = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(permits.take("u")))
        yield* untilDone(early)
        for (const fiber of early) expect((yield* Effect.flip(Fiber.join(fiber)))._tag).toBe("LimiterUnavailable")
        // Two more during the stall, then Redis continues: it runs the take of three (granting three
        // permits that nobody receives) and everything sent after it.
        const late = yield* Effect.forEach([1, 2], () => Effect.forkChild(permits.take("u")))
        yield* realTurn
        yield* resume
        const served = yield* settled(late)
        // Only the two permits in use are held: the take of three was given back.
        expect([...(yield* inFlight(prefix))].sort()).toEqual(
          served.map((permit) => (permit as { readonly name?: string }).name).sort()
        )
        // The user's other process takes the three others at once, without waiting for a lease.
        const others = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(other.take("u")))
        yield* settled(others)
        expect(yield* inFlight(prefix)).toHaveLength(5)
      })),
    60_000
  )

  it.effect(
    "L1 a stall longer than a take and its return: Redis runs both when it continues, and nothing is held",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const prefix = freshPrefix()
        const permits = yield* store(prefix, 5)
        const resume = yield* stall
        const early = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(permits.take("u")))
        yield* untilDone(early)
        // The return sent after the failed take times out as well.
        yield* TestClock.adjust("1100 millis")
        yield* realTurn
        yield* resume
        // Read on the same connection: Redis has run the take and its return before it.
        const budget = yield* Effect.forkChild(permits.budget("u"))
        const [read] = yield* settled([budget])
        expect(read).toMatchObject({ used: 0, left: 5 })
        expect(yield* inFlight(prefix)).toEqual([])
      })),
    60_000
  )

  it.effect(
    "a store closed while Redis is stalled closes its connection after the timeout, not when Redis wakes",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const scope = yield* Scope.make()
        yield* Scope.provide(store(freshPrefix(), 5), scope)
        yield* stall
        // Redis never answers the QUIT while it is stopped.
        const closing = yield* Effect.forkChild(Scope.close(scope, Exit.void))
        yield* untilDone([closing])
      })),
    60_000
  )
})
