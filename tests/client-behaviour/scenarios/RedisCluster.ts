/**
 * The Redis store on a real Redis Cluster: three masters, each with a replica (`src/RedisCluster.ts`,
 * Debian's `redis-server` in cluster mode on loopback ports, started for the scenario that needs one),
 * reached through its `redis+cluster://` URL. Everything runs on the live clock. The scenarios of real
 * processes of one user on a cluster (their rate, a failover) stay in each line's
 * `RedisCluster.test.ts`: their child program is the line's own (`test/support/limitsChild.ts`).
 */
import { freePort } from "../src/Redis.js"
import * as RedisCluster from "../src/RedisCluster.js"
import { assert, failed, scenario, succeeded, suite } from "../src/Scenario.js"

export default suite("The Redis store on a Redis Cluster", [
  scenario(
    "L1 L2 users spread over the masters: each one's permits and creations taken and read back by slot, on every master",
    async (line) => {
      const cluster = await RedisCluster.start()
      try {
        // One user served by each master: the scripts go to the master of their user's slot.
        const prefix = "cluster-budget:"
        const byMaster = new Map<number, string>()
        for (let i = 0; byMaster.size < 3 && i < 100; i++) {
          const user = `user-${i}`
          const master = await cluster.masterOf(await cluster.slotOf(`${prefix}{${user}}:creations`))
          if (master !== undefined && !byMaster.has(master)) byMaster.set(master, user)
        }
        assert.equal(byMaster.size, 3)
        const users = [...byMaster.values()]
        const redis = await line.redis()
        const pacing = await redis.pacing({ url: cluster.url, prefix })
        const quota = await redis.quota({ url: cluster.url, prefix })
        const read: Array<[number, number]> = []
        for (const [i, user] of users.entries()) {
          // User i holds i + 1 permits while it reads, and counts i + 1 creations.
          for (let n = 0; n <= i; n++) await succeeded(pacing.withPermit(user))
          const permits = await pacing.budget(user)
          for (let n = 0; n <= i; n++) await succeeded(quota.acquire(user, "lists/create", "fail"))
          const creations = await succeeded(quota.budget(user))
          // The day's count, not the minute's: a minute may turn between the creations and the read.
          read.push([permits.used, creations.day.left])
        }
        assert.deepEqual(read, [[1, 199], [2, 198], [3, 197]])
      } finally {
        await line.dispose()
        await cluster.stop()
      }
    },
    120_000
  ),

  scenario(
    "a cluster that cannot be reached, or a cluster URL that cannot be read, fails each call typed, named without its password",
    async (line) => {
      const [closed, alsoClosed] = [await freePort(), await freePort()]
      const dead = `redis+cluster://app:s3cret-pw@127.0.0.1:${closed},127.0.0.1:${alsoClosed}`
      const unreadable = "redis+cluster://app:s3cret-pw,127.0.0.1:7000"
      const redis = await line.redis()
      const failures = []
      for (const url of [dead, unreadable]) {
        const pacing = await redis.pacing({ url, timeoutMillis: 300 })
        failures.push(await failed(pacing.withPermit("u")))
      }
      assert.deepEqual(failures.map((error) => [error._tag, error["limiter"], error["store"]]), [
        ["LimiterUnavailable", "pacing", `redis+cluster://127.0.0.1:${closed},127.0.0.1:${alsoClosed}`],
        ["LimiterUnavailable", "pacing", "redis cluster (an unreadable URL)"]
      ])
      for (const error of failures) assert.ok(!`${error.message} ${JSON.stringify(error)}`.includes("s3cret"))
      assert.equal(failures[1]!["reason"], "node 1 of the cluster URL is not host:port")
    },
    60_000
  )
])
