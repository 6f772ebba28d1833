/**
 * Priority lanes on the Redis store, against a real `redis-server` started for this file: in one
 * process an interactive waiter takes the next permit ahead of the process's batch waiters; across
 * processes, while an interactive call waited within the last window, batch calls leave the kept share
 * free for it, and lend it back once none waited. The live clock (Redis keeps its own time); the one
 * wait for a window to pass is a lower bound, which a slow machine cannot break.
 */
import * as RedisKeys from "@community-api/core/RedisKeys"
import * as RedisScripts from "@community-api/core/RedisScripts"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
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
  get url(): string {
    if (redis === undefined) throw new Error("the redis-server of these tests is not running")
    return redis.url
  }
}

let prefixes = 0
/** A prefix of its own for each test, so that no test sees another's permits. */
const freshPrefix = () => `lanes-${++prefixes}-${Date.now()}:`

const connect = (prefix: string) =>
  RedisInternal.connect({ url: Redacted.make(server.url), prefix, timeoutMillis: 2000 })

const unused = { afterAnswerMillis: 0, afterTakeMillis: 0 }

describe("Priority lanes on Redis", () => {
  it.live("L1 in one process an interactive waiter takes the next permit ahead of three batch waiters queued before it", () =>
    Effect.scoped(Effect.gen(function*() {
      const store = yield* RedisInternal.permitStore(yield* connect(freshPrefix()), { limit: 2, leaseMillis: 10_000 })
      const held = [yield* store.take("u", "batch"), yield* store.take("u", "batch")]
      const order: Array<string> = []
      const waiter = (name: string, lane: "batch" | "interactive") =>
        Effect.forkScoped(Effect.flatMap(store.take("u", lane), (permit) => {
          order.push(name)
          return store.release(permit, unused)
        }))
      const fibers = [
        yield* waiter("batch-1", "batch"),
        yield* waiter("batch-2", "batch"),
        yield* waiter("batch-3", "batch"),
        yield* waiter("interactive", "interactive")
      ]
      // All four wait while both permits are held.
      yield* Effect.sleep("100 millis")
      expect(order).toEqual([])
      yield* store.release(held[0]!, unused)
      yield* store.release(held[1]!, unused)
      yield* Effect.forEach(fibers, Fiber.join, { discard: true })
      expect(order[0]).toBe("interactive")
      expect(order.slice(1)).toEqual(["batch-1", "batch-2", "batch-3"])
    })))

  it.live(
    "L1 across processes: while an interactive call waited within the window batch takes leave the kept share free; a batch-only fleet takes every permit",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const prefix = freshPrefix()
        const connection = yield* connect(prefix)
        const keys = RedisKeys.keysOf(prefix, "u")
        let calls = 0
        const take = (count: number, interactive: number) =>
          Effect.map(
            connection.run(
              "pacing",
              RedisScripts.takePermits(keys, {
                limit: 10,
                leaseMillis: 10_000,
                namePrefix: `t${++calls}`,
                pollMillis: 50,
                count,
                leadMillis: 0,
                interactive,
                kept: 3,
                windowMillis: 500
              })
            ),
            (reply) => RedisScripts.readTake(reply).granted.map(({ name }) => name)
          )
        const giveBack = (names: ReadonlyArray<string>) =>
          Effect.forEach(names, (name) => connection.run("pacing", RedisScripts.releasePermit(keys, name, unused)), {
            discard: true
          })
        // Batch calls alone: every permit.
        const batch = yield* take(12, 0)
        expect(batch).toHaveLength(10)
        // An interactive call finds none free: it waited.
        expect(yield* take(1, 1)).toHaveLength(0)
        yield* giveBack(batch.slice(0, 5))
        // Five free: batch calls may take two, leaving the three kept; the interactive call takes one.
        const lent = yield* take(5, 0)
        expect(lent).toHaveLength(2)
        expect(yield* take(1, 1)).toHaveLength(1)
        expect(yield* take(5, 0)).toHaveLength(0)
        // One take with both lanes: the interactive waiters first.
        expect(yield* take(3, 2)).toHaveLength(2)
        // A window with no interactive call waiting: the kept share is lent again.
        yield* Effect.sleep("600 millis")
        yield* giveBack(lent)
        expect(yield* take(5, 0)).toHaveLength(2)
      }))
  )
})
