/**
 * Priority lanes across processes at the level a service meets them: clients of one user, each with
 * the pacing of its own process over one real `redis-server` (a `Pacing.makeRedis` of its own: its own
 * connection, its own store and its own waiters, all that a second process would have), calling the
 * reference server in this process, which answers a 31st request in any window with error 5. The
 * script-level share is in `RedisLanes.test.ts`, the order in one process under `TestClock` in
 * `Lanes.test.ts`.
 *
 * On the live clock, as Redis keeps its own time: the bounds are a window plus the margin plus a
 * stated slack for a busy machine (a wait is never less than the rule allows, only later), and the
 * counts are those of the server's own log.
 */
import * as CoreLane from "@community-api/core/Lane"
import * as Demo from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Either, Fiber, Layer, Stream } from "effect"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Lane from "../src/Lane.js"
import * as Pacing from "../src/Pacing.js"
import * as RedisServer from "./support/RedisServer.js"
import * as Reference from "./support/Reference.js"

const server = RedisServer.forTests()

let prefixes = 0
/** A prefix of its own for each test, so that no test sees another's permits. */
const freshPrefix = () => `lanes-pacing-${++prefixes}-${Date.now()}:`

/** The user key of every client here: one user, whatever process it runs in. */
const user = "lanes-user"

/** When each request reached the server, and how it was answered. */
interface Logged {
  readonly at: number
  readonly outcome: number | "ok" | "dropped"
}

/** The reference server in this process, with its request log. */
const referenceServer = Effect.gen(function*() {
  const log: Array<Logged> = []
  const http = yield* Layer.build(ReferenceServer.layerTest({
    onRequest: (entry) => log.push({ at: entry.at, outcome: entry.outcome })
  }))
  return { http, log }
})

/**
 * One process of the user: its own pacing over Redis and a client of it. `waits` receives how long
 * each of its calls waited for its permit, from asking to sending.
 */
const processOf = (
  http: Context.Context<HttpClient.HttpClient>,
  prefix: string,
  options: { readonly lane?: Lane.Lane; readonly waits?: Array<number> } = {}
) =>
  Effect.gen(function*() {
    const pacing = yield* Pacing.makeRedis({ url: server.url, prefix })
    const timed: Pacing.Service = {
      ...pacing,
      withPermit: (key, lane) => (send) =>
        Effect.flatMap(Clock.currentTimeMillis, (askedAt) =>
          pacing.withPermit(key, lane)(Effect.flatMap(Clock.currentTimeMillis, (sentAt) => {
            options.waits?.push(sentAt - askedAt)
            return send
          })))
    }
    const client = yield* CommunityApiClient.make(Reference.config(Demo.tokens.owner, {
      userKey: user,
      lane: options.lane,
      // An error 5 fails the call: none may come.
      retry: { limitRetries: 0 }
    })).pipe(
      Effect.provide(
        Layer.mergeAll(Layer.succeedContext(http), Layer.succeed(Pacing.Pacing, timed), CreationQuota.layer())
      )
    )
    return { client, pacing }
  })

/** A busy two-core machine may wake a fiber, or answer Redis, this much later than due. */
const slackMillis = 300

describe("Priority lanes across processes, through their clients", () => {
  it.live(
    "L1 with one process's batch stream saturating the user on Redis, another process's interactive calls each wait within one window, the calls after a wait take the kept share, and together they stay within the rate",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const api = yield* referenceServer
        const prefix = freshPrefix()
        const jobs = yield* processOf(api.http, prefix)
        const waits: Array<number> = []
        const pages = yield* processOf(api.http, prefix, { waits })
        const { limit, marginMillis, windowMillis } = pages.pacing.settings
        const kept = CoreLane.reserved(limit, Lane.defaults.interactiveShare)
        // The job: a stream of calls marked batch, 16 at a time, for as long as the test runs.
        const batchDone: Array<number> = []
        const batchFailed: Array<string> = []
        const job = yield* Effect.fork(Stream.runDrain(Lane.batch(
          Stream.iterate(1, (n) => n + 1).pipe(
            Stream.mapEffect(() =>
              Effect.flatMap(Effect.either(jobs.client.users.me()), (result) =>
                Effect.sync(() =>
                  Either.isRight(result) ? batchDone.push(Date.now()) : batchFailed.push(result.left._tag)
                )), { concurrency: 16 })
          )
        )))
        // Past the first window: the job has taken every permit, and takes each again as it comes back.
        yield* Effect.sleep(Duration.millis(windowMillis + marginMillis + 300))
        expect(batchDone.length).toBeGreaterThanOrEqual(limit)
        // The person's calls, unmarked (interactive), one at a time. The first finds every permit lent to
        // the job: it waits, and from then on the job leaves the kept share free. The sixth comes after a
        // pause longer than a window, when no interactive call waited in the last window: it waits again.
        const startedAt = Date.now()
        for (const pause of [100, 100, 100, 100, windowMillis + 100, 100, 100, 100, 100, 0]) {
          const me = yield* pages.client.users.me()
          expect(me.user_id).toBe(Demo.userIds.owner)
          yield* Effect.sleep(Duration.millis(pause))
        }
        const endedAt = Date.now()
        yield* Fiber.interrupt(job)
        expect(waits).toHaveLength(10)
        // Each waited for its permit at most a window and the margin (and the slack of a busy machine).
        for (const wait of waits) {
          expect(wait).toBeLessThanOrEqual(windowMillis + marginMillis + slackMillis)
        }
        // The calls that follow a wait within the window take the kept permits, which the job leaves free
        // as they come back: one of each run may still wait, when the call before it took the last of the
        // permits coming back together, but no more, as the next ones fill the share. (With no share kept,
        // every other call or so waits hundreds of milliseconds for permits the job takes first.)
        for (const following of [waits.slice(1, 5), waits.slice(6)]) {
          expect(
            following.filter((wait) =>
              wait > slackMillis
            ).length,
            `waits ${waits.join(", ")} ms`
          )
            .toBeLessThanOrEqual(1)
        }
        // The job kept going meanwhile: at least half of what the share leaves it (24 a window).
        const during = batchDone.filter((at) => at >= startedAt && at <= endedAt).length
        expect(during).toBeGreaterThanOrEqual(((endedAt - startedAt) / windowMillis) * (limit - kept) / 2)
        // Together never past the rate: the server, which answers a 31st request in any window with
        // error 5, admitted every one.
        expect(batchFailed).toEqual([])
        expect(api.log.filter((entry) => entry.outcome !== "ok")).toEqual([])
      }))
  )

  it.live("L1 a batch-only fleet of two processes on Redis reaches the full rate: the kept share is lent to it", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* referenceServer
      const prefix = freshPrefix()
      // Two processes whose clients serve jobs: every call batch, 8 at a time in each.
      const fleet = [
        yield* processOf(api.http, prefix, { lane: "batch" }),
        yield* processOf(api.http, prefix, { lane: "batch" })
      ]
      const { limit, marginMillis, windowMillis } = fleet[0]!.pacing.settings
      const failed: Array<string> = []
      const loop = (client: CommunityApiClient.Client) =>
        Effect.forever(
          Effect.flatMap(Effect.either(client.users.me()), (result) =>
            Effect.sync(() => Either.isLeft(result) && failed.push(result.left._tag)))
        )
      const calls = yield* Effect.fork(Effect.all(
        fleet.flatMap(({ client }) => Array.from({ length: 8 }, () => loop(client))),
        { concurrency: "unbounded", discard: true }
      ))
      // Past the first window the permits held are those taken again as they came back: with the share
      // kept the fleet could hold no more than 24 of them.
      const cycleMillis = windowMillis + marginMillis
      yield* Effect.sleep(Duration.millis(cycleMillis + 300))
      const arrivals = () => api.log.map((entry) => entry.at).sort((a, b) => a - b)
      // The full rate: each permit taken again as it comes back, so that the 90th request arrives within
      // two windows (and the slack) of the 30th. With the share kept, 24 a window, it would come half a
      // window later.
      const thirtieth = arrivals()[limit - 1]!
      const held: Array<number> = []
      while (Date.now() <= thirtieth + 2 * cycleMillis + slackMillis) {
        held.push((yield* fleet[0]!.pacing.budget(user)).used)
        yield* Effect.sleep(Duration.millis(20))
      }
      yield* Fiber.interrupt(calls)
      expect(Math.max(...held)).toBe(limit)
      const all = arrivals()
      expect(all.length, `arrivals at ${all.map((at) => at - all[0]!).join(" ")} ms`).toBeGreaterThanOrEqual(3 * limit)
      expect(all[3 * limit - 1]! - thirtieth).toBeLessThanOrEqual(2 * cycleMillis + slackMillis)
      // And never past it: the server admitted every request.
      expect(failed).toEqual([])
      expect(api.log.filter((entry) => entry.outcome !== "ok")).toEqual([])
    })))
})
