/**
 * Priority lanes across processes at the level a service meets them: clients of one user, each with
 * the pacing of its own process over one real `redis-server` (a `Pacing.makeRedis` of its own: its own
 * connection, its own store and its own waiters, all that a second process would have), calling the
 * reference server in this process, which answers a 31st request in any window with error 5. The
 * script-level share is in `RedisLanes.ts`, the order in one process on a test clock in `Lanes.ts`.
 *
 * On the live clock, as Redis keeps its own time: the bounds are a window plus the margin plus a
 * stated slack for a busy machine (a wait is never less than the rule allows, only later), and the
 * counts are those of the server's own log.
 */
import { userIds } from "@community-api/core/DemoData"
import * as CoreLane from "@community-api/core/Lane"
import type { Call, Client, ClientOptions, Line, RedisPacing } from "../src/Driver.js"
import { freshPrefix, sleep, withRedis } from "../src/Redis.js"
import { assert, scenario, succeeded, suite } from "../src/Scenario.js"

/** The user key of every client here: one user, whatever process it runs in. */
const user = "lanes-user"

/** A busy two-core machine may wake a fiber, or answer Redis, this much later than due. */
const slackMillis = 300

/**
 * The reference server in this process, with its log, and the processes of the user: each its own
 * pacing over Redis and a client of it.
 */
const fleet = async (line: Line, url: string) => {
  const redis = await line.redis()
  const api = await redis.reference()
  const prefix = freshPrefix("lanes-pacing")
  const processOf = async (options: ClientOptions = {}) => {
    const pacing = await redis.pacing({ url, prefix })
    // An error 5 fails the call: none may come.
    const client = await api.client(pacing, { ...options, userKey: user, retry: { delays: [], limitRetries: 0 } })
    return { client, pacing }
  }
  return { api, processOf }
}

/** Calls `users/me` of `client` over and over, `concurrency` at a time, until stopped (the calls under way interrupted). */
const loop = (
  client: Client,
  concurrency: number,
  lane: "batch" | undefined,
  onEnd: (ok: boolean, tag: string) => void
) => {
  let stopped = false
  const current = new Set<Call>()
  const one = async () => {
    while (!stopped) {
      const call = client.call("users/me", {}, lane === undefined ? {} : { lane })
      current.add(call)
      const outcome = await call
      current.delete(call)
      if (outcome._tag === "Interrupted" && stopped) return
      onEnd(outcome._tag === "Success", outcome._tag === "Failure" ? outcome.error._tag : outcome._tag)
    }
  }
  const running = Promise.all(Array.from({ length: concurrency }, one))
  return async () => {
    stopped = true
    await Promise.all([...current].map((call) => call.interrupt()))
    await running
  }
}

export default suite("Priority lanes across processes, through their clients", [
  scenario(
    "L1 with one process's batch stream saturating the user on Redis, another process's interactive calls each wait within one window, the calls after a wait take the kept share, and together they stay within the rate",
    withRedis(async (server, line) => {
      const { api, processOf } = await fleet(line, server.url)
      const jobs = await processOf()
      const pages = await processOf()
      const { limit, marginMillis, windowMillis } = pages.pacing.settings
      const kept = CoreLane.reserved(limit, CoreLane.defaults.interactiveShare)
      // The job: calls marked batch, 16 at a time, for as long as the scenario runs.
      const batchDone: Array<number> = []
      const batchFailed: Array<string> = []
      const stop = loop(
        jobs.client,
        16,
        "batch",
        (ok, tag) => ok ? batchDone.push(Date.now()) : batchFailed.push(tag)
      )
      // Past the first window: the job has taken every permit, and takes each again as it comes back.
      await sleep(windowMillis + marginMillis + 300)
      assert.ok(batchDone.length >= limit, `${batchDone.length} done`)
      // The person's calls, unmarked (interactive), one at a time. The first finds every permit lent to
      // the job: it waits, and from then on the job leaves the kept share free. The sixth comes after a
      // pause longer than a window, when no interactive call waited in the last window: it waits again.
      const startedAt = Date.now()
      for (const pause of [100, 100, 100, 100, windowMillis + 100, 100, 100, 100, 100, 0]) {
        const me = (await succeeded(pages.client.call("users/me"))) as { readonly user_id: number }
        assert.equal(me.user_id, userIds.owner)
        await sleep(pause)
      }
      const endedAt = Date.now()
      await stop()
      const waits = pages.pacing.waits
      assert.equal(waits.length, 10)
      // Each waited for its permit at most a window and the margin (and the slack of a busy machine).
      for (const wait of waits) {
        assert.ok(wait <= windowMillis + marginMillis + slackMillis, `waits ${waits.join(", ")} ms`)
      }
      // The calls that follow a wait within the window take the kept permits, which the job leaves free
      // as they come back: one of each run may still wait, when the call before it took the last of the
      // permits coming back together, but no more, as the next ones fill the share. (With no share kept,
      // every other call or so waits hundreds of milliseconds for permits the job takes first.)
      for (const following of [waits.slice(1, 5), waits.slice(6)]) {
        assert.ok(
          following.filter((wait) => wait > slackMillis).length <= 1,
          `waits ${waits.join(", ")} ms`
        )
      }
      // The job kept going meanwhile: at least half of what the share leaves it (24 a window).
      const during = batchDone.filter((at) => at >= startedAt && at <= endedAt).length
      assert.ok(during >= ((endedAt - startedAt) / windowMillis) * (limit - kept) / 2, `${during} during`)
      // Together never past the rate: the server, which answers a 31st request in any window with
      // error 5, admitted every one.
      assert.deepEqual(batchFailed, [])
      assert.deepEqual(api.answered.filter((entry) => entry.outcome !== "ok"), [])
    })
  ),

  scenario(
    "L1 a batch-only fleet of two processes on Redis reaches the full rate: the kept share is lent to it",
    withRedis(async (server, line) => {
      const { api, processOf } = await fleet(line, server.url)
      // Two processes whose clients serve jobs: every call batch, 8 at a time in each.
      const processes = [await processOf({ lane: "batch" }), await processOf({ lane: "batch" })]
      const pacing: RedisPacing = processes[0]!.pacing
      const { limit } = pacing.settings
      const failed: Array<string> = []
      const stops = processes.map(({ client }) => loop(client, 8, undefined, (ok, tag) => ok || failed.push(tag)))
      // The full rate: the fleet comes to hold every permit of the window at once, where with the share
      // kept it could hold no more than 24. Read from Redis until it does, or for a time no machine
      // however busy needs (the bound is for a broken build, not a measure of speed).
      const held: Array<number> = []
      const giveUpAt = Date.now() + 20_000
      while (Date.now() <= giveUpAt && !held.includes(limit)) {
        held.push((await pacing.budget(user)).used)
        await sleep(20)
      }
      await Promise.all(stops.map((stop) => stop()))
      assert.equal(Math.max(...held), limit)
      // And never past it: the server admitted every request.
      assert.deepEqual(failed, [])
      assert.deepEqual(api.answered.filter((entry) => entry.outcome !== "ok"), [])
    })
  )
])
