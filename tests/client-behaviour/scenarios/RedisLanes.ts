/**
 * Priority lanes on the Redis store, against a real `redis-server` started for each scenario: in one
 * process an interactive waiter takes the next permit ahead of the process's batch waiters; across
 * processes, while an interactive call waited within the last window, batch calls leave the kept share
 * free for it, and lend it back once none waited. The live clock (Redis keeps its own time); the one
 * wait for a window to pass is a lower bound, which a slow machine cannot break.
 */
import * as RedisKeys from "@community-api/core/RedisKeys"
import * as RedisScripts from "@community-api/core/RedisScripts"
import { freshPrefix, sleep, withRedis } from "../src/Redis.js"
import { assert, scenario, succeeded, suite } from "../src/Scenario.js"

const unused = { afterAnswerMillis: 0, afterTakeMillis: 0 }

export default suite("Priority lanes on Redis", [
  scenario(
    "L1 in one process an interactive waiter takes the next permit ahead of three batch waiters queued before it",
    withRedis(async (server, line) => {
      const redis = await line.redis()
      const connection = await redis.connect({ url: server.url, prefix: freshPrefix("lanes"), timeoutMillis: 2000 })
      const store = await connection.permits({ limit: 2, leaseMillis: 10_000 })
      const held = [await succeeded(store.take("u", "batch")), await succeeded(store.take("u", "batch"))]
      const order: Array<string> = []
      const waiter = (name: string, lane: "batch" | "interactive") => {
        const taking = store.take("u", lane)
        return (async () => {
          const permit = await succeeded(taking)
          order.push(name)
          await store.release(permit, unused)
        })()
      }
      const waiters = [
        waiter("batch-1", "batch"),
        waiter("batch-2", "batch"),
        waiter("batch-3", "batch"),
        waiter("interactive", "interactive")
      ]
      // All four wait while both permits are held.
      await sleep(100)
      assert.deepEqual(order, [])
      await store.release(held[0], unused)
      await store.release(held[1], unused)
      await Promise.all(waiters)
      assert.equal(order[0], "interactive")
      assert.deepEqual(order.slice(1), ["batch-1", "batch-2", "batch-3"])
    })
  ),

  scenario(
    "L1 across processes: while an interactive call waited within the window batch takes leave the kept share free; a batch-only fleet takes every permit",
    withRedis(async (server, line) => {
      const prefix = freshPrefix("lanes")
      const redis = await line.redis()
      const connection = await redis.connect({ url: server.url, prefix, timeoutMillis: 2000 })
      const keys = RedisKeys.keysOf(prefix, "u")
      let calls = 0
      const take = async (count: number, interactive: number) =>
        RedisScripts.readTake(
          await connection.run(
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
          )
        ).granted.map(({ name }) => name)
      const giveBack = async (names: ReadonlyArray<string>) => {
        for (const name of names) await connection.run("pacing", RedisScripts.releasePermit(keys, name, unused))
      }
      // Batch calls alone: every permit.
      const batch = await take(12, 0)
      assert.equal(batch.length, 10)
      // An interactive call finds none free: it waited.
      assert.equal((await take(1, 1)).length, 0)
      await giveBack(batch.slice(0, 5))
      // Five free: batch calls may take two, leaving the three kept; the interactive call takes one.
      const lent = await take(5, 0)
      assert.equal(lent.length, 2)
      assert.equal((await take(1, 1)).length, 1)
      assert.equal((await take(5, 0)).length, 0)
      // One take with both lanes: the interactive waiters first.
      assert.equal((await take(3, 2)).length, 2)
      // A window with no interactive call waiting: the kept share is lent again.
      await sleep(600)
      await giveBack(lent)
      assert.equal((await take(5, 0)).length, 2)
    })
  )
])
