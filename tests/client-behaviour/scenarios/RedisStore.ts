/**
 * The Redis store of the limiters in one process, against a real `redis-server` started for each
 * scenario on a free loopback port (`scripts/redis.mjs`). Several services made with `makeRedis` each
 * have their own connection, as separate processes would. The live clock: Redis keeps its own time, so
 * the assertions are lower bounds (a permit never comes back early), which a slow machine cannot
 * break, and exact counts.
 */
import * as Limits from "@community-api/core/Limits"
import * as Calendar from "../src/Calendar.js"
import * as Lines from "../src/Lines.js"
import { freePort, freshPrefix, redisCommand, sleep, startRedisServer, withRedis } from "../src/Redis.js"
import { assert, failed, me, ok, quotaRefusal, scenario, succeeded, suite } from "../src/Scenario.js"

export default suite("The Redis store of the limiters", [
  scenario(
    "L1 two processes' services on one Redis let at most `limit` requests of a user start in any window plus the margin",
    withRedis(async (server, line) => {
      const redis = await line.redis()
      const settings = { url: server.url, prefix: freshPrefix(), limit: 3, windowMillis: 300, marginMillis: 20 }
      const services = [await redis.pacing(settings), await redis.pacing(settings)]
      const starts: Array<number> = []
      await Promise.all(Array.from({ length: 8 }, async (_, i) => {
        for (let n = 0; n < 3; n++) starts.push((await succeeded(services[i % 2]!.withPermit("u"))).sentAt)
      }))
      const sorted = [...starts].sort((a, b) => a - b)
      assert.equal(sorted.length, 24)
      // Of any 4 requests two shared a permit: the later one started at least 320 ms after the earlier
      // one's answer (Date.now() drops the fraction of a millisecond: 1 ms of slack).
      sorted.forEach((at, i) => {
        if (i >= 3) assert.ok(at - sorted[i - 3]! >= 320 - 1, `${at - sorted[i - 3]!} ms`)
      })
    })
  ),

  scenario(
    "L1 a permit given back is held until the later of the answer plus afterAnswer and the take plus afterTake",
    withRedis(async (server, line) => {
      const redis = await line.redis()
      const connection = await redis.connect({ url: server.url, prefix: freshPrefix(), timeoutMillis: 1000 })
      const store = await connection.permits({ limit: 1, leaseMillis: 10_000 })
      // Held by the take: back 500 ms after it, although given back at once.
      const takenAt = Date.now()
      await store.release(await succeeded(store.take("u")), { afterAnswerMillis: 0, afterTakeMillis: 500 })
      const permit = await succeeded(store.take("u"))
      const waited = Date.now() - takenAt
      assert.ok(waited >= 500 - 1 && waited < 500 + 2000, `${waited} ms`)
      // Held by the answer: back 300 ms after it, 200 ms after the take.
      const answeredAt = Date.now()
      await sleep(100)
      await store.release(permit, { afterAnswerMillis: 300, afterTakeMillis: 200 })
      await succeeded(store.take("u"))
      const again = Date.now() - answeredAt
      assert.ok(again >= 100 + 300 - 1 && again < 400 + 2000, `${again} ms`)
    })
  ),

  scenario(
    "L1 after an error 5 in one process the user's other processes wait a whole window plus the margin",
    withRedis(async (server, line) => {
      const redis = await line.redis()
      const prefix = freshPrefix()
      const first = await redis.pacing({ url: server.url, prefix })
      const second = await redis.pacing({ url: server.url, prefix })
      const refusedAt = Date.now()
      await first.penalize("u")
      const { sentAt } = await succeeded(second.withPermit("u"))
      assert.ok(sentAt - refusedAt >= 1000 + 20 - 1, `${sentAt - refusedAt} ms`)
    })
  ),

  scenario(
    "L1 a request slower than the lease keeps its permit: renewed, it is not given to another process",
    withRedis(async (server, line) => {
      const redis = await line.redis()
      // The shortest lease the options take with this timeout (three of them): renewed every 400 ms.
      const options = { url: server.url, prefix: freshPrefix(), limit: 1, leaseMillis: 1200, timeoutMillis: 400 }
      const slow = await redis.pacing(options)
      const other = await redis.pacing(options)
      const slowRequest = slow.withPermit("u", { millis: 2500 })
      await sleep(100)
      const { sentAt } = await succeeded(other.withPermit("u"))
      const { answeredAt } = await succeeded(slowRequest)
      assert.ok(answeredAt > 0)
      assert.ok(sentAt - answeredAt >= 1000 + 20 - 1, `${sentAt - answeredAt} ms`)
    })
  ),

  scenario(
    "L2 L4 three processes' quotas on one Redis count exactly 20 creations in a calendar minute; the 21st fails with the minute's end",
    withRedis((server, line) =>
      // Redis counts per calendar minute (its clock is this machine's): the 30 takes and the refund must
      // fall in one minute, else they count in two and neither is used up. A try that a minute boundary
      // split is tried again, with a prefix of its own, from the start of the new minute.
      Calendar.inOneWindow("minute", async ({ begin }) => {
        const redis = await line.redis()
        const prefix = freshPrefix()
        const quotas = [
          await redis.quota({ url: server.url, prefix }),
          await redis.quota({ url: server.url, prefix }),
          await redis.quota({ url: server.url, prefix })
        ]
        await begin()
        const outcomes = await Promise.all(
          Array.from({ length: 30 }, (_, i) => quotas[i % 3]!.acquire("u", "lists/create", "fail"))
        )
        const taken = outcomes.flatMap((outcome) => outcome._tag === "Success" ? [outcome.value] : [])
        assert.equal(taken.length, Limits.creationsPerMinute)
        const minute = Limits.minuteOf(taken[0]!)
        assert.deepEqual(taken.map(Limits.minuteOf), taken.map(() => minute))
        const errors = outcomes.flatMap((outcome) => outcome._tag === "Failure" ? [outcome.error] : [])
        assert.equal(errors.length, 10)
        for (const error of errors) quotaRefusal(line, error, "minute", Limits.nextMinute(taken[0]!))
        // Given back (error 9), a creation can be counted again in the same minute; confirmed in its
        // minute, a creation keeps its count.
        await quotas[0]!.refund("u", taken[0]!)
        const again = await succeeded(quotas[1]!.acquire("u", "lists/create", "fail"))
        assert.equal(await succeeded(quotas[2]!.confirm("u", "lists/create", again)), again)
        assert.equal(await quotas[2]!.usedUp("u"), "minute")
      }, { room: 5_000 })
    ),
    180_000
  ),

  scenario(
    "L2 L4 a day used up in one process fails the others at once, up to the next 03:00 Moscow time",
    withRedis((server, line) =>
      // The day used up and the refusal must fall in one day: at 00:00 UTC the day's count starts again.
      Calendar.inOneWindow("day", async () => {
        const redis = await line.redis()
        const prefix = freshPrefix()
        const one = await redis.quota({ url: server.url, prefix })
        const other = await redis.quota({ url: server.url, prefix })
        await one.exhaustDay("u")
        const now = Date.now()
        quotaRefusal(line, await failed(other.acquire("u", "vars/create", "wait")), "day", Limits.nextDay(now))
        assert.equal(await other.usedUp("u"), "day")
      })
    )
  ),

  scenario(
    "L1 L2 a Redis that cannot be reached fails every call with LimiterUnavailable, sends nothing, and names the store without its password",
    async (line) => {
      const port = await freePort()
      const password = "s3cret-Pa55word"
      const redis = await line.redis()
      const fake = await redis.scripted(
        () => ok(me),
        { url: `redis://:${password}@127.0.0.1:${port}/2`, timeoutMillis: 300 }
      )
      const client = await fake.client()
      const errors = [
        await failed(client.call("users/me")),
        await failed(client.callRaw("lists/create", { group_id: 1, channel: "VK", name: "list" }))
      ]
      assert.equal(fake.received.length, 0)
      assert.deepEqual(errors.map((error) => error._tag), ["LimiterUnavailable", "LimiterUnavailable"])
      assert.deepEqual(errors.map((error) => error["limiter"]), ["pacing", "creation quota"])
      for (const error of errors) {
        assert.ok(error.message.includes(`redis://127.0.0.1:${port}/2`), error.message)
        assert.ok(error.message.includes("nothing was sent"), error.message)
        assert.ok(!JSON.stringify(error).includes(password))
        assert.ok(!error.message.includes(password))
      }
    }
  ),

  scenario(
    "L1 a Redis that goes away fails the calls typed meanwhile, and they go through again once it is back",
    withRedis(async (own, line) => {
      const redis = await line.redis()
      const pacing = await redis.pacing({ url: own.url, prefix: freshPrefix() })
      await succeeded(pacing.withPermit("u"))
      await own.stop()
      assert.equal((await failed(pacing.withPermit("u")))._tag, "LimiterUnavailable")
      const back = await startRedisServer({ port: own.port })
      try {
        assert.equal(back.port, own.port)
        // The client reconnects by itself, within about 2 s of trying.
        let sent = await pacing.withPermit("u")
        for (let retry = 0; sent._tag !== "Success" && retry < 50; retry++) {
          await sleep(200)
          sent = await pacing.withPermit("u")
        }
        await succeeded(Promise.resolve(sent))
      } finally {
        await line.dispose()
        await back.stop()
      }
    })
  ),

  scenario(
    "with onUnavailable \"fallback\" the calls go through on this process's own limiters and one warning is logged",
    async (line) => {
      const port = await freePort()
      const redis = await line.redis()
      const fake = await redis.scripted(
        () => ok(me),
        { url: `redis://:s3cret@127.0.0.1:${port}`, onUnavailable: "fallback" }
      )
      const client = await fake.client()
      for (let i = 0; i < 5; i++) await succeeded(client.call("users/me"))
      await succeeded(client.callRaw("lists/create", { group_id: 1, channel: "VK", name: "list" }))
      assert.equal(fake.received.length, 6)
      assert.equal(fake.warnings.length, 1)
      assert.ok(fake.warnings[0]!.includes("falls back to its own limiters"), fake.warnings[0])
      assert.ok(!fake.warnings[0]!.includes("s3cret"))
    }
  ),

  scenario(
    "L1 L2 the budgets read from Redis: permits held and when the next comes back, creations left, nothing changed",
    withRedis(async (server, line) => {
      const redis = await line.redis()
      const connection = await redis.connect({ url: server.url, prefix: freshPrefix(), timeoutMillis: 1000 })
      const permits = await connection.permits({ limit: 3, leaseMillis: 10_000 })
      const empty = await succeeded(permits.budget("u"))
      assert.deepEqual([empty.used, empty.limit, empty.left], [0, 3, 3])
      const first = await succeeded(permits.take("u"))
      await succeeded(permits.take("u"))
      // Both in flight: when one comes back is not known yet.
      assert.deepEqual(await succeeded(permits.budget("u")), { used: 2, limit: 3, left: 1, resetsAt: undefined })
      const before = Date.now()
      await permits.release(first, { afterAnswerMillis: 5_000, afterTakeMillis: 0 })
      // The release runs in a fiber of its own: read until it has reached Redis.
      let read = await succeeded(permits.budget("u"))
      for (const until = Date.now() + 5_000; read.resetsAt === undefined && Date.now() < until;) {
        await sleep(10)
        read = await succeeded(permits.budget("u"))
      }
      assert.equal(read.used, 2)
      assert.ok(read.resetsAt !== undefined && read.resetsAt >= before + 5_000 - 1, `${read.resetsAt}`)
      // Whole milliseconds, rounded up: at most one past the release on the Redis clock, which is not ahead of ours.
      assert.ok(read.resetsAt <= Date.now() + 5_000 + 1, `${read.resetsAt}`)
      // Reading changed nothing: one permit is still free.
      await succeeded(permits.take("u"))
      assert.equal((await succeeded(permits.budget("u"))).left, 0)

      await connection.counts.take("u")
      await connection.counts.take("u")
      const creations = await connection.counts.budget("u")
      assert.deepEqual(
        [creations.minute.used, creations.minute.limit, creations.minute.left],
        [2, 20, 18]
      )
      assert.deepEqual([creations.day.used, creations.day.limit, creations.day.left], [2, 200, 198])
      assert.equal(creations.minute.resetsAt % Limits.minuteMillis, 0)
      assert.equal(creations.day.resetsAt % Limits.dayMillis, 0)
      assert.equal((await connection.counts.budget("other")).minute.left, 20)
    })
  ),

  scenario(
    "L1 L2 the Redis example of docs/client.md builds from the environment and calls",
    withRedis(async (server, line) => {
      // As in docs/client.md: `layerConfig()` over both limiters' `layerRedisConfig`, the lease given.
      const fake = await (await line.redis()).scripted(() => ok(me), {
        url: server.url,
        leaseMillis: 10_000,
        via: "config"
      })
      const client = await fake.clientFromEnv({
        COMMUNITY_API_BASE_URL: Lines.scriptedServer.baseUrl,
        COMMUNITY_API_TOKEN: "thp_docs_example"
      })
      assert.deepEqual(await succeeded(client.call("users/me")), me)
      assert.equal(fake.received.length, 1)
    })
  ),

  scenario(
    "layerRedisConfig reads COMMUNITY_API_REDIS_URL; the keys in Redis name the user key, never the token",
    withRedis(async (server, line) => {
      const prefix = freshPrefix()
      const fake = await (await line.redis()).scripted(() => ok(me), { url: server.url, prefix, via: "config" })
      const client = await fake.client()
      await succeeded(client.call("users/me"))
      await succeeded(client.callRaw("lists/create", { group_id: 1, channel: "VK", name: "list" }))
      assert.equal(fake.received.length, 2)
      const keys = await redisCommand(server.port, "KEYS", `${prefix}*`)
      assert.ok(keys.length > 0)
      for (const key of keys) {
        assert.match(key, new RegExp(`^${prefix}\\{token:[0-9a-z-]+:[0-9a-z-]+\\}:`))
        assert.ok(!key.includes(Lines.scriptedServer.token), key)
      }
      const missing = await failed(line.tryOptions("pacingRedisConfig", { url: undefined }))
      assert.notEqual(line.configError(missing), undefined)
    })
  ),

  scenario(
    "L1 L2 the stores of RedisStore as tags: limiters over them share one limit with the services of makeRedis",
    withRedis((server, line) =>
      // The day used up and the refusal must fall in one day: at 00:00 UTC the day's count starts again.
      Calendar.inOneWindow("day", async () => {
        const redis = await line.redis()
        const settings = { url: server.url, prefix: freshPrefix(), limit: 1 }
        const pacing = await redis.pacing({ ...settings, via: "stores" })
        const quota = await redis.quota({ ...settings, via: "stores" })
        assert.equal(pacing.settings.limit, 1)
        assert.notEqual(line.constants.globalPacing.limit, 1)
        const otherPacing = await redis.pacing(settings)
        const otherQuota = await redis.quota(settings)
        const { answeredAt } = await succeeded(pacing.withPermit("u"))
        const { sentAt } = await succeeded(otherPacing.withPermit("u"))
        assert.ok(sentAt - answeredAt >= 1000 + 20 - 1, `${sentAt - answeredAt} ms`)
        await quota.exhaustDay("u")
        quotaRefusal(line, await failed(otherQuota.acquire("u", "vars/create", "fail")), "day")
      })
    )
  )
])
