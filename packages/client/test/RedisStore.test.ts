/**
 * The Redis store of the limiters in one process, against a real `redis-server` started for this file
 * on a free loopback port (`scripts/redis.mjs`). Several services made with `makeRedis` each have
 * their own connection, as separate processes would. The live clock: Redis keeps its own time, so the
 * assertions are lower bounds (a permit never comes back early), which a slow machine cannot break,
 * and exact counts.
 */
import { Limits } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Context, Duration, Effect, Exit, Layer, Logger, Redacted, Schedule } from "effect"
import { Redis } from "ioredis"
import { freePort, startRedisServer } from "../../../scripts/redis.mjs"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as RedisInternal from "../src/internal/redis.js"
import * as Pacing from "../src/Pacing.js"
import * as RedisStore from "../src/RedisStore.js"
import * as Calendar from "./support/Calendar.js"
import * as FakeServer from "./support/FakeServer.js"
import * as RedisServer from "./support/RedisServer.js"

const server = RedisServer.forTests()

let prefixes = 0
/** A prefix of its own for each test, so that no test sees another's permits or counts. */
const freshPrefix = () => `test-${++prefixes}-${Date.now()}:`

const me = { user_id: 7, auth: "token", client_id: "app" }

describe("The Redis store of the limiters", () => {
  it.live(
    "L1 two processes' services on one Redis let at most `limit` requests of a user start in any window plus the margin",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const prefix = freshPrefix()
        const settings = {
          url: server.url,
          prefix,
          limit: 3,
          window: Duration.millis(300),
          margin: Duration.millis(20)
        }
        const services = [yield* Pacing.makeRedis(settings), yield* Pacing.makeRedis(settings)]
        const starts: Array<number> = []
        yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => services[i % 2]!),
          (pacing) =>
            Effect.forEach(
              Array.from({ length: 3 }),
              () => pacing.withPermit("u")(Effect.sync(() => starts.push(Date.now()))),
              { discard: true }
            ),
          { concurrency: "unbounded", discard: true }
        )
        const sorted = [...starts].sort((a, b) => a - b)
        expect(sorted).toHaveLength(24)
        // Of any 4 requests two shared a permit: the later one started at least 320 ms after the earlier
        // one's answer (Date.now() drops the fraction of a millisecond: 1 ms of slack).
        sorted.forEach((at, i) => {
          if (i >= 3) expect(at - sorted[i - 3]!).toBeGreaterThanOrEqual(320 - 1)
        })
      }))
  )

  it.live("L1 a permit given back is held until the later of the answer plus afterAnswer and the take plus afterTake", () =>
    Effect.scoped(Effect.gen(function*() {
      const connection = yield* RedisInternal.connect({
        url: Redacted.make(server.url),
        prefix: freshPrefix(),
        timeoutMillis: 1000
      })
      const store = yield* RedisInternal.permitStore(connection, { limit: 1, leaseMillis: 10_000 })
      // Held by the take: back 500 ms after it, although given back at once.
      const takenAt = Date.now()
      yield* store.release(yield* store.take("u"), { afterAnswerMillis: 0, afterTakeMillis: 500 })
      yield* store.take("u").pipe(
        Effect.flatMap((permit) => {
          const waited = Date.now() - takenAt
          expect(waited).toBeGreaterThanOrEqual(500 - 1)
          expect(waited).toBeLessThan(500 + 2000)
          // Held by the answer: back 300 ms after it, 200 ms after the take.
          const answeredAt = Date.now()
          return Effect.zipRight(
            Effect.zipRight(
              Effect.sleep(Duration.millis(100)),
              store.release(permit, { afterAnswerMillis: 300, afterTakeMillis: 200 })
            ),
            Effect.map(store.take("u"), () => Date.now() - answeredAt)
          )
        }),
        Effect.map((waited) => {
          expect(waited).toBeGreaterThanOrEqual(100 + 300 - 1)
          expect(waited).toBeLessThan(400 + 2000)
        })
      )
    })))

  it.live("L1 after an error 5 in one process the user's other processes wait a whole window plus the margin", () =>
    Effect.scoped(Effect.gen(function*() {
      const prefix = freshPrefix()
      const first = yield* Pacing.makeRedis({ url: server.url, prefix })
      const second = yield* Pacing.makeRedis({ url: server.url, prefix })
      const refusedAt = Date.now()
      yield* first.penalize("u")
      const sentAt = yield* second.withPermit("u")(Effect.sync(() => Date.now()))
      expect(sentAt - refusedAt).toBeGreaterThanOrEqual(1000 + 20 - 1)
    })))

  it.live("L1 a request slower than the lease keeps its permit: renewed, it is not given to another process", () =>
    Effect.scoped(Effect.gen(function*() {
      const options = { url: server.url, prefix: freshPrefix(), limit: 1, lease: Duration.millis(600) }
      const slow = yield* Pacing.makeRedis(options)
      const other = yield* Pacing.makeRedis(options)
      let answeredAt = 0
      const slowRequest = yield* Effect.fork(
        slow.withPermit("u")(
          Effect.zipRight(Effect.sleep(Duration.millis(2000)), Effect.sync(() => (answeredAt = Date.now())))
        )
      )
      yield* Effect.sleep(Duration.millis(100))
      const sentAt = yield* other.withPermit("u")(Effect.sync(() => Date.now()))
      yield* slowRequest.await
      expect(answeredAt).toBeGreaterThan(0)
      expect(sentAt - answeredAt).toBeGreaterThanOrEqual(1000 + 20 - 1)
    })))

  it.live(
    "L2 L4 three processes' quotas on one Redis count exactly 20 creations in a calendar minute; the 21st fails with the minute's end",
    () =>
      // Redis counts per calendar minute (its clock is this machine's): the 30 takes and the refund must
      // fall in one minute, else they count in two and neither is used up. A try that a minute boundary
      // split is tried again, with a prefix of its own, from the start of the new minute.
      Calendar.inOneWindowEffect("minute", ({ begin }) =>
        Effect.scoped(Effect.gen(function*() {
          const prefix = freshPrefix()
          const quotas = [
            yield* CreationQuota.makeRedis({ url: server.url, prefix }),
            yield* CreationQuota.makeRedis({ url: server.url, prefix }),
            yield* CreationQuota.makeRedis({ url: server.url, prefix })
          ]
          yield* begin
          const exits = yield* Effect.forEach(
            Array.from({ length: 30 }, (_, i) => quotas[i % 3]!),
            (quota) => Effect.exit(quota.acquire("u", "lists/create", "fail")),
            { concurrency: "unbounded" }
          )
          const taken = exits.flatMap((exit) => Exit.isSuccess(exit) ? [exit.value] : [])
          expect(taken).toHaveLength(Limits.creationsPerMinute)
          const minute = Limits.minuteOf(taken[0]!)
          expect(taken.map(Limits.minuteOf)).toEqual(taken.map(() => minute))
          const errors = exits.flatMap((exit) =>
            Exit.isFailure(exit) && exit.cause._tag === "Fail" ? [exit.cause.error] : []
          )
          expect(errors).toHaveLength(10)
          for (const error of errors) {
            expect(error._tag).toBe("CreationQuotaExceeded")
            if (error._tag === "CreationQuotaExceeded") {
              expect(error.window).toBe("minute")
              expect(error.resetsAt.epochMillis).toBe(Limits.nextMinute(taken[0]!))
            }
          }
          // Given back (error 9), a creation can be counted again in the same minute; confirmed in its minute,
          // a creation keeps its count.
          yield* quotas[0]!.refund("u", taken[0]!)
          const again = yield* quotas[1]!.acquire("u", "lists/create", "fail")
          expect(yield* quotas[2]!.confirm("u", "lists/create", again)).toBe(again)
          expect(yield* quotas[2]!.usedUp("u")).toBe("minute")
        })), { room: 5_000 }),
    180_000
  )

  it.live("L2 L4 a day used up in one process fails the others at once, up to the next 03:00 Moscow time", () =>
    // The day used up and the refusal must fall in one day: at 00:00 UTC the day's count starts again.
    Calendar.inOneWindowEffect("day", () =>
      Effect.scoped(Effect.gen(function*() {
        const prefix = freshPrefix()
        const one = yield* CreationQuota.makeRedis({ url: server.url, prefix })
        const other = yield* CreationQuota.makeRedis({ url: server.url, prefix })
        yield* one.exhaustDay("u")
        const now = Date.now()
        const error = yield* Effect.flip(other.acquire("u", "vars/create", "wait"))
        expect(error._tag).toBe("CreationQuotaExceeded")
        if (error._tag === "CreationQuotaExceeded") {
          expect(error.window).toBe("day")
          expect(error.resetsAt.epochMillis).toBe(Limits.nextDay(now))
        }
        expect(yield* other.usedUp("u")).toBe("day")
      }))))

  it.live(
    "L1 L2 a Redis that cannot be reached fails every call with LimiterUnavailable, sends nothing, and names the store without its password",
    () =>
      Effect.gen(function*() {
        const port = yield* Effect.promise(() => freePort())
        const password = "s3cret-Pa55word"
        const url = Redacted.make(`redis://:${password}@127.0.0.1:${port}/2`)
        const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
        const errors = yield* Effect.gen(function*() {
          const client = yield* CommunityApiClient.make(FakeServer.config())
          return [
            yield* Effect.flip(client.users.me()),
            yield* Effect.flip(client.call("lists/create", { group_id: 1, channel: "VK", name: "list" }))
          ]
        }).pipe(
          Effect.provide(Layer.mergeAll(
            fake.http,
            Pacing.layerRedis({ url, timeout: Duration.millis(300) }),
            CreationQuota.layerRedis({ url, timeout: Duration.millis(300) })
          ))
        )
        expect(fake.received).toHaveLength(0)
        expect(errors.map((error) => error._tag)).toEqual(["LimiterUnavailable", "LimiterUnavailable"])
        expect(errors.map((error) => (error as { limiter?: string }).limiter)).toEqual(["pacing", "creation quota"])
        for (const error of errors) {
          expect(error.message).toContain(`redis://127.0.0.1:${port}/2`)
          expect(error.message).toContain("nothing was sent")
          expect(JSON.stringify(error)).not.toContain(password)
          expect(error.message).not.toContain(password)
        }
      })
  )

  it.live("L1 a Redis that goes away fails the calls typed meanwhile, and they go through again once it is back", () =>
    Effect.scoped(Effect.gen(function*() {
      const own = yield* Effect.acquireRelease(
        Effect.promise(() => startRedisServer()),
        (redis) => Effect.promise(() => redis.stop())
      )
      const pacing = yield* Pacing.makeRedis({ url: own.url, prefix: freshPrefix() })
      const call = pacing.withPermit("u")(Effect.succeed("sent"))
      expect(yield* call).toBe("sent")
      yield* Effect.promise(() => own.stop())
      expect((yield* Effect.flip(call))._tag).toBe("LimiterUnavailable")
      const back = yield* Effect.acquireRelease(
        Effect.promise(() => startRedisServer({ port: own.port })),
        (redis) => Effect.promise(() => redis.stop())
      )
      expect(back.port).toBe(own.port)
      // The client reconnects by itself, within about 2 s of trying.
      const sent = yield* call.pipe(
        Effect.retry({ schedule: Schedule.spaced(Duration.millis(200)), times: 50 })
      )
      expect(sent).toBe("sent")
    })))

  it.live("with onUnavailable \"fallback\" the calls go through on this process's own limiters and one warning is logged", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(() => freePort())
      const url = `redis://:s3cret@127.0.0.1:${port}`
      const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
      const warnings: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel._tag === "Warning") warnings.push(String(message))
      })
      yield* Effect.gen(function*() {
        const client = yield* CommunityApiClient.make(FakeServer.config())
        yield* Effect.forEach(Array.from({ length: 5 }), () => client.users.me(), { discard: true })
        yield* client.call("lists/create", { group_id: 1, channel: "VK", name: "list" })
      }).pipe(
        Effect.provide(Layer.mergeAll(
          fake.http,
          Pacing.layerRedis({ url, onUnavailable: "fallback" }),
          CreationQuota.layerRedis({ url, onUnavailable: "fallback" })
        )),
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
      expect(fake.received).toHaveLength(6)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("falls back to its own limiters")
      expect(warnings[0]).not.toContain("s3cret")
    }))

  it.live("L1 L2 the Redis example of docs/client.md builds from the environment and calls", () =>
    Effect.gen(function*() {
      const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
      // As in docs/client.md, with the fake server's HttpClient in place of undici.
      const SharedLimits = Layer.mergeAll(
        Pacing.layerRedisConfig({ lease: Duration.seconds(10) }),
        CreationQuota.layerRedisConfig()
      )
      const ClientLive = CommunityApiClient.layerConfig().pipe(
        Layer.provide(Layer.mergeAll(fake.http, SharedLimits))
      )
      const answer = yield* Effect.flatMap(CommunityApiClient.CommunityApiClient, (client) => client.users.me()).pipe(
        Effect.provide(ClientLive),
        Effect.withConfigProvider(ConfigProvider.fromMap(
          new Map([
            ["COMMUNITY_API_REDIS_URL", server.url],
            ["COMMUNITY_API_BASE_URL", FakeServer.baseUrl],
            ["COMMUNITY_API_TOKEN", "thp_docs_example"]
          ])
        ))
      )
      expect(answer.user_id).toBe(me.user_id)
      expect(fake.received).toHaveLength(1)
    }))

  it.live("layerRedisConfig reads COMMUNITY_API_REDIS_URL; the keys in Redis name the user key, never the token", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
      yield* Effect.gen(function*() {
        const client = yield* CommunityApiClient.make(FakeServer.config())
        yield* client.users.me()
        yield* client.call("lists/create", { group_id: 1, channel: "VK", name: "list" })
      }).pipe(
        Effect.provide(Layer.mergeAll(
          fake.http,
          Pacing.layerRedisConfig({ prefix }),
          CreationQuota.layerRedisConfig({ prefix })
        )),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["COMMUNITY_API_REDIS_URL", server.url]])))
      )
      expect(fake.received).toHaveLength(2)
      const keys = yield* Effect.acquireUseRelease(
        Effect.sync(() => new Redis(server.url)),
        (redis) => Effect.promise(() => redis.keys(`${prefix}*`)),
        (redis) => Effect.promise(() => redis.quit())
      )
      expect(keys.length).toBeGreaterThan(0)
      for (const key of keys) {
        expect(key).toMatch(new RegExp(`^${prefix}\\{token:[0-9a-z-]+:[0-9a-z-]+\\}:`))
        expect(key).not.toContain(Redacted.value(FakeServer.token))
      }
      const missing = yield* Effect.flip(
        Layer.build(Pacing.layerRedisConfig()).pipe(
          Effect.scoped,
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map()))
        )
      )
      expect(missing._tag).toBe("ConfigError")
    }))

  it.live("L1 L2 the stores of RedisStore as tags: limiters over them share one limit with the services of makeRedis", () =>
    // The day used up and the refusal must fall in one day: at 00:00 UTC the day's count starts again.
    Calendar.inOneWindowEffect("day", () =>
      Effect.scoped(Effect.gen(function*() {
        const prefix = freshPrefix()
        const limiters = yield* Layer.build(Layer.mergeAll(
          Pacing.layerFromStore().pipe(Layer.provide(RedisStore.layerPermitsConfig({ prefix, limit: 1 }))),
          CreationQuota.layerFromStore.pipe(Layer.provide(RedisStore.layerCountsConfig({ prefix })))
        )).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["COMMUNITY_API_REDIS_URL", server.url]]))))
        const pacing = Context.get(limiters, Pacing.Pacing)
        const quota = Context.get(limiters, CreationQuota.CreationQuota)
        expect(pacing).not.toBe(Pacing.global)
        expect(pacing.settings.limit).toBe(1)
        const otherPacing = yield* Pacing.makeRedis({ url: server.url, prefix, limit: 1 })
        const otherQuota = yield* CreationQuota.makeRedis({ url: server.url, prefix })
        const answeredAt = yield* pacing.withPermit("u")(Effect.sync(() => Date.now()))
        const sentAt = yield* otherPacing.withPermit("u")(Effect.sync(() => Date.now()))
        expect(sentAt - answeredAt).toBeGreaterThanOrEqual(1000 + 20 - 1)
        yield* quota.exhaustDay("u")
        const error = yield* Effect.flip(otherQuota.acquire("u", "vars/create", "fail"))
        expect(error._tag).toBe("CreationQuotaExceeded")
        if (error._tag === "CreationQuotaExceeded") expect(error.window).toBe("day")
      }))))

  it.live("L1 L2 the budgets read from Redis: permits held and when the next comes back, creations left, nothing changed", () =>
    Effect.scoped(Effect.gen(function*() {
      const connection = yield* RedisInternal.connect({
        url: Redacted.make(server.url),
        prefix: freshPrefix(),
        timeoutMillis: 1000
      })
      const permits = yield* RedisInternal.permitStore(connection, { limit: 3, leaseMillis: 10_000 })
      expect(yield* permits.budget("u")).toMatchObject({ used: 0, limit: 3, left: 3 })
      const first = yield* permits.take("u")
      yield* permits.take("u")
      // Both in flight: when one comes back is not known yet.
      expect(yield* permits.budget("u")).toEqual({ used: 2, limit: 3, left: 1, resetsAt: undefined })
      const before = Date.now()
      yield* permits.release(first, { afterAnswerMillis: 5_000, afterTakeMillis: 0 })
      // The release runs in a fiber of its own: read until it has reached Redis.
      const read = yield* permits.budget("u").pipe(
        Effect.filterOrFail((budget) => budget.resetsAt !== undefined),
        Effect.retry(Schedule.spaced("10 millis")),
        Effect.timeout("5 seconds")
      )
      expect(read.used).toBe(2)
      expect(read.resetsAt).toBeGreaterThanOrEqual(before + 5_000 - 1)
      expect(read.resetsAt).toBeLessThan(Date.now() + 5_000 + 1)
      // Reading changed nothing: one permit is still free.
      yield* permits.take("u")
      expect((yield* permits.budget("u")).left).toBe(0)

      const counts = RedisInternal.countStore(connection, Limits.creationDefaults)
      yield* counts.take("u")
      yield* counts.take("u")
      const creations = yield* counts.budget("u")
      expect(creations.minute).toMatchObject({ used: 2, limit: 20, left: 18 })
      expect(creations.day).toMatchObject({ used: 2, limit: 200, left: 198 })
      expect(creations.minute.resetsAt % Limits.minuteMillis).toBe(0)
      expect(creations.day.resetsAt % Limits.dayMillis).toBe(0)
      expect((yield* counts.budget("other")).minute.left).toBe(20)
    })))
})
