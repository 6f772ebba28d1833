/**
 * The lease of the pacing's permits in Redis, through a client of the reference server in this process
 * whose pacing is `Pacing.layerRedis` over one real `redis-server`, built as a service builds its
 * layers. A zero lease let every permit lapse as it was taken, which switched pacing off without a
 * word: 120 calls arrived in one second and the sandbox answered error 5 to 180 requests (issue 37).
 * Now a lease that is not greater than zero is refused where it is given, before Redis is reached or a
 * request is sent, and the default lease paces the same burst within the rate.
 *
 * On the live clock, as Redis keeps its own time (no test clock reaches it): the burst takes a little
 * over three windows. Nothing is asserted on how fast it goes; the counts are the server's own log, which answers
 * a 31st request in any window with error 5.
 */
import * as Limits from "@community-api/core/Limits"
import { freshPrefix, redisCommand, withRedis } from "../src/Redis.js"
import { assert, scenario, succeeded, suite } from "../src/Scenario.js"

/** The user key of every client here. */
const user = "lease-user"

/** A client fails a call on error 5 rather than waiting it out: each one would show. */
const noRetry = { userKey: user, retry: { delays: [], limitRetries: 0 } } as const

/** How many connections the `redis-server` at `port` has accepted, this one reading it included. */
const connectionsReceived = async (port: number) => {
  const stats = await redisCommand(port, "INFO", "stats")
  return Number(stats.find((line) => line.startsWith("total_connections_received:"))?.split(":")[1])
}

export default suite("The lease of the pacing's permits in Redis, through a client", [
  scenario(
    "L1 a zero or negative lease given to Pacing.layerRedis is refused naming the lease, before Redis is reached or a request is sent",
    withRedis(async (server, line) => {
      const api = await (await line.redis()).reference()
      const before = await connectionsReceived(server.port)
      for (const leaseMillis of [0, -1]) {
        const made = await api.layered({ url: server.url, prefix: freshPrefix("lease"), leaseMillis }, noRetry)
        assert.equal(made._tag, "Defect", `the client with a lease of ${leaseMillis} ms was ${made._tag}`)
        const error = (made as { readonly defect: { readonly [field: string]: unknown } }).defect
        assert.ok(line.isClientError(error, "InvalidConfig"), String(error))
        assert.equal(error["option"], "lease", String(error["message"]))
        // Effect 3 reads a negative duration as zero: either way refused.
        assert.match(String(error["reason"]), /^must be a duration greater than zero, not (-1|0) millis$/)
      }
      // Nothing reached Redis (the one connection since is the reading's own) and the server counted no request.
      assert.equal(await connectionsReceived(server.port), before + 1)
      assert.equal(api.answered.length, 0)
    })
  ),

  scenario(
    "L1 with the default lease, 120 calls of one user made at once through Pacing.layerRedis arrive at most 30 in any second, and the server answers none with error 5",
    withRedis(async (server, line) => {
      const api = await (await line.redis()).reference()
      // The lease left to its default, as the issue compared. A lease of tens of milliseconds, which the
      // options take, can lapse while its request is in flight (a renewal late on a busy event loop):
      // that one does not pace, and is not what this proves.
      const client = await succeeded(api.layered({ url: server.url, prefix: freshPrefix("lease") }, noRetry))
      const outcomes = await Promise.all(Array.from({ length: 120 }, () => client.call("users/me")))
      // The server's own count: every request admitted, none answered with error 5.
      assert.equal(api.answered.filter((entry) => entry.outcome === 5).length, 0)
      assert.deepEqual(outcomes.filter((outcome) => outcome._tag !== "Success"), [])
      assert.equal(api.answered.length, 120)
      // Paced: no 31 arrivals within a window (the server's own rule, on its log's times).
      const arrivals = api.answered.map((entry) => entry.at).sort((a, b) => a - b)
      const { requestsPerWindow: limit, rateWindowMillis: windowMillis } = Limits
      for (let i = limit; i < arrivals.length; i++) {
        assert.ok(
          arrivals[i]! - arrivals[i - limit]! >= windowMillis,
          `arrivals at ${arrivals.map((at) => at - arrivals[0]!).join(" ")} ms`
        )
      }
    }),
    60_000
  )
])
