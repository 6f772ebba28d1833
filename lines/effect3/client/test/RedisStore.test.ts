import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Context, Duration, Effect, Layer, Redacted } from "effect"
import { Redis } from "ioredis"
import suite from "../../../../tests/client-behaviour/scenarios/RedisStore.js"
import type * as Driver from "../../../../tests/client-behaviour/src/Driver.js"
import * as Lines from "../../../../tests/client-behaviour/src/Lines.js"
import { ok, register } from "../../../../tests/client-behaviour/src/Scenario.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as RedisStore from "../src/RedisStore.js"
import * as Calendar from "./support/Calendar.js"
import { line, scriptedHttp } from "./support/Driver.js"
import * as RedisServer from "./support/RedisServer.js"

register(suite, line, { describe, it })

// The Redis store's layers of this line, read from the environment (Effect's `Config`, `Layer` and
// `Context`): the line's own API.

/** The environment of a test, as `ConfigProvider` reads it. */
const withEnv = (env: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

let prefixes = 0
/** A prefix of its own for each test, so that no test sees another's permits or counts. */
const freshPrefix = () => `test-${++prefixes}-${Date.now()}:`

const me = { user_id: 7, auth: "token", client_id: "app" }

/** A scripted server answering `me` to every request, as the context's `HttpClient`: what it received. */
const fakeServer = () => {
  const received: Array<Driver.Received> = []
  return { received, http: scriptedHttp(() => ok(me), received) }
}

describe("The Redis store of the limiters", () => {
  const server = RedisServer.forTests()

  it.live("L1 L2 the Redis example of docs/client.md builds from the environment and calls", () =>
    Effect.gen(function*() {
      const fake = fakeServer()
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
        withEnv({
          COMMUNITY_API_REDIS_URL: server.url,
          COMMUNITY_API_BASE_URL: Lines.scriptedServer.baseUrl,
          COMMUNITY_API_TOKEN: "thp_docs_example"
        })
      )
      expect(answer.user_id).toBe(me.user_id)
      expect(fake.received).toHaveLength(1)
    }))

  it.live("layerRedisConfig reads COMMUNITY_API_REDIS_URL; the keys in Redis name the user key, never the token", () =>
    Effect.gen(function*() {
      const prefix = freshPrefix()
      const fake = fakeServer()
      yield* Effect.gen(function*() {
        const client = yield* CommunityApiClient.make({
          baseUrl: Lines.scriptedServer.baseUrl,
          token: Redacted.make(Lines.scriptedServer.token)
        })
        yield* client.users.me()
        yield* client.call("lists/create", { group_id: 1, channel: "VK", name: "list" })
      }).pipe(
        Effect.provide(Layer.mergeAll(
          fake.http,
          Pacing.layerRedisConfig({ prefix }),
          CreationQuota.layerRedisConfig({ prefix })
        )),
        withEnv({ COMMUNITY_API_REDIS_URL: server.url })
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
        expect(key).not.toContain(Lines.scriptedServer.token)
      }
      const missing = yield* Effect.flip(
        Layer.build(Pacing.layerRedisConfig()).pipe(
          Effect.scoped,
          withEnv({})
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
        )).pipe(withEnv({ COMMUNITY_API_REDIS_URL: server.url }))
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
})
