/**
 * A Redis that stalls: the scenario's own `redis-server` (`scripts/redis.mjs`), its process stopped
 * (SIGSTOP) and continued (SIGCONT), while the pacing permits are asked for. The connection keeps
 * what it sent: Redis runs it when it continues, replies or not. On a test clock: the store's timeout
 * is on the Effect clock, so the scenario decides when a call times out, and Redis, which keeps its own
 * time, says what it holds. What runs on the stalled connection runs in the order it was sent, so a
 * call of the store answered after the stall has seen every call sent before it.
 */
import type { RedisWorld } from "../src/Driver.js"
import { freshPrefix, redisCommand, sleep, stall, type Tracked, tracked, withRedis } from "../src/Redis.js"
import { assert, failed, scenario, succeeded, suite } from "../src/Scenario.js"

/** A turn of the event loop in real time: the answers of the real Redis come in meanwhile. */
const realTurn = () => sleep(10)

/**
 * Moves the clock on by 100 ms at a time until every call is done (the calls' timeouts start once
 * they are sent): bounded, so that a hang fails the scenario with what is left.
 */
const untilDone = async (redis: RedisWorld, calls: ReadonlyArray<Tracked<unknown>>) => {
  for (let step = 0; step < 300 && !calls.every((one) => one.done()); step++) {
    await redis.adjust(100)
    await realTurn()
  }
  assert.deepEqual(calls.map((one) => one.done()), calls.map(() => true))
}

/** Waits in real time for calls that wait on Redis alone (not on the clock), bounded against a hang. */
const settled = async <A>(calls: ReadonlyArray<Tracked<A>>): Promise<Array<A>> => {
  for (let turn = 0; turn < 1500 && !calls.every((one) => one.done()); turn++) await realTurn()
  assert.deepEqual(calls.map((one) => one.done()), calls.map(() => true))
  return Promise.all(calls.map((one) => succeeded(one.call)))
}

/** The names of the user's permits in flight in Redis. */
const inFlight = (port: number, prefix: string) =>
  redisCommand(port, "ZRANGE", `${prefix}{u}:permits:in-flight`, "0", "-1")

const store = async (redis: RedisWorld, url: string, prefix: string, limit: number) =>
  (await redis.connect({ url, prefix, timeoutMillis: 1000 })).permits({ limit, leaseMillis: 10_000 })

export default suite("A Redis that stalls", [
  scenario(
    "L1 a take that a stalled Redis runs late gives its permits back: only the permits in use are held, the waiters of the stall are served",
    withRedis(async (server, line) => {
      const redis = await line.redis({ clock: "test" })
      const prefix = freshPrefix("stall")
      const permits = await store(redis, server.url, prefix, 5)
      // Another process of the user, with a connection of its own.
      const other = await store(redis, server.url, prefix, 5)
      const resume = await stall(server.port)
      try {
        // Three waiters: one take of three, unanswered within the timeout, which fails them.
        const early = [1, 2, 3].map(() => tracked(permits.take("u")))
        await untilDone(redis, early)
        for (const one of early) assert.equal((await failed(one.call))._tag, "LimiterUnavailable")
        // Two more during the stall, then Redis continues: it runs the take of three (granting three
        // permits that nobody receives) and everything sent after it.
        const late = [1, 2].map(() => tracked(permits.take("u")))
        await realTurn()
        resume()
        const served = await settled(late)
        // Only the two permits in use are held: the take of three was given back.
        assert.deepEqual(
          [...await inFlight(server.port, prefix)].sort(),
          served.map((permit) => (permit as { readonly name?: string }).name).sort()
        )
        // The user's other process takes the three others at once, without waiting for a lease.
        await settled([1, 2, 3].map(() => tracked(other.take("u"))))
        assert.equal((await inFlight(server.port, prefix)).length, 5)
      } finally {
        resume()
      }
    }),
    60_000
  ),

  scenario(
    "L1 a stall longer than a take and its return: Redis runs both when it continues, and nothing is held",
    withRedis(async (server, line) => {
      const redis = await line.redis({ clock: "test" })
      const prefix = freshPrefix("stall")
      const permits = await store(redis, server.url, prefix, 5)
      const resume = await stall(server.port)
      try {
        await untilDone(redis, [1, 2, 3].map(() => tracked(permits.take("u"))))
        // The return sent after the failed take times out as well.
        await redis.adjust(1100)
        await realTurn()
        resume()
        // Read on the same connection: Redis has run the take and its return before it.
        const [read] = await settled([tracked(permits.budget("u"))])
        assert.deepEqual([read!.used, read!.left], [0, 5])
        assert.deepEqual(await inFlight(server.port, prefix), [])
      } finally {
        resume()
      }
    }),
    60_000
  ),

  scenario(
    "L1 a call in flight when Redis dies fails as the connection lost, and so do the calls after it",
    withRedis(async (server, line) => {
      const redis = await line.redis({ clock: "test" })
      const permits = await store(redis, server.url, freshPrefix("lost"), 5)
      await settled([tracked(permits.budget("u"))])
      const info = await redisCommand(server.port, "INFO", "server")
      const pid = Number(info.find((line) => line.startsWith("process_id:"))?.split(":")[1])
      // Stopped first, so that the take is surely sent and waiting for its answer when Redis dies.
      const resume = await stall(server.port)
      const inFlight = tracked(permits.take("u"))
      await realTurn()
      process.kill(pid, "SIGKILL")
      resume()
      for (let turn = 0; turn < 1500 && !inFlight.done(); turn++) await realTurn()
      const lost = await failed(inFlight.call)
      assert.equal(lost._tag, "LimiterUnavailable")
      assert.match(lost.message, /connection lost before the answer/)
      const next = await failed(permits.take("u"))
      assert.equal(next._tag, "LimiterUnavailable")
      assert.match(next.message, /connection lost/)
      assert.doesNotMatch(`${lost.message} ${next.message}`, /maxRetriesPerRequest|not connected yet/)
    }),
    60_000
  ),

  scenario(
    "a store closed while Redis is stalled closes its connection after the timeout, not when Redis wakes",
    withRedis(async (server, line) => {
      const redis = await line.redis({ clock: "test" })
      const connection = await redis.connect({ url: server.url, prefix: freshPrefix("stall"), timeoutMillis: 1000 })
      await connection.permits({ limit: 5, leaseMillis: 10_000 })
      const resume = await stall(server.port)
      try {
        // Redis never answers the QUIT while it is stopped.
        await untilDone(redis, [tracked(connection.close())])
      } finally {
        resume()
      }
    }),
    60_000
  )
])
