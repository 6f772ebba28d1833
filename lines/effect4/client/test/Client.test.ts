/**
 * The Effect 4 line's client against the reference server in process on `TestClock`: typed results
 * and errors, paginated streams, the creation quota, as the Effect 3 line's client behaves.
 */
import * as DemoData from "@community-api/core/DemoData"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Stream } from "effect"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"

const clientLayer = (config: Partial<CommunityApiClient.ClientConfig> = {}) =>
  CommunityApiClient.layer({
    baseUrl: ReferenceServer.inProcessBaseUrl,
    token: Redacted.make(DemoData.tokens.owner),
    ...config
  }).pipe(
    Layer.provideMerge(Layer.mergeAll(ReferenceServer.layerTest(), Pacing.layer(), CreationQuota.layer()))
  )

describe("the Effect 4 client", () => {
  it.effect("E1 R10 users/me answers the demo owner", () =>
    Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const me = yield* client.users.me()
      expect(me.user_id).toBe(DemoData.userIds.owner)
    }).pipe(Effect.provide(clientLayer())))

  it.effect("E5 C10 an unknown bot is InvalidParameterError with the server's text", () =>
    Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(client.bots.getById({ bot_id: "0".repeat(24) as never }))
      expect(error._tag).toBe("InvalidParameterError")
      expect(error).toMatchObject({ code: 7, operation: "bots/getById" })
    }).pipe(Effect.provide(clientLayer())))

  it.effect("E4 C12 C13 a stream gives all 640 bots of the main community, no one twice", () =>
    Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const bots = yield* Stream.runCollect(client.streams.bots.get({ ...DemoData.mainCommunity } as never))
      expect(bots.length).toBe(DemoData.mainBotCount)
      expect(new Set(bots.map((bot) => bot.id)).size).toBe(DemoData.mainBotCount)
    }).pipe(Effect.provide(clientLayer())))

  it.effect("L2 the 21st creation of a minute fails with CreationQuotaExceeded before anything is sent", () =>
    Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      for (let i = 0; i < 20; i++) {
        yield* client.vars.create({ ...DemoData.mainCommunity, title: "Переменная", name: `v4_${i}` } as never)
      }
      const error = yield* Effect.flip(
        client.vars.create({ ...DemoData.mainCommunity, title: "Переменная", name: "v4_20" } as never)
      )
      expect(error._tag).toBe("CreationQuotaExceeded")
    }).pipe(Effect.provide(clientLayer({ onCreationLimit: "fail" }))))
})
