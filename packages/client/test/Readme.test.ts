// The examples of the README, run: if the docs drift from the code, this file stops compiling.
import { Ids } from "@community-api/schema"
import { tokens } from "@community-api/server/DemoFixture"
import * as Demo from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Redacted, Schedule, Stream, TestClock } from "effect"
import { CommunityApiClient, CreationQuota, Pacing } from "../src/index.js"

// A service of your own that depends on the client.
class BotSwitch extends Effect.Service<BotSwitch>()("app/BotSwitch", {
  accessors: true,
  effect: Effect.gen(function*() {
    const client = yield* CommunityApiClient.CommunityApiClient
    return {
      // Enables every disabled, not archived bot of a community; the stream pages by 500 until `total`.
      enableAll: (group_id: Ids.GroupId) =>
        client.streams.bots.get({ group_id, channel: "VK", active: 0, archived: 0 }).pipe(
          Stream.mapEffect((bot) => Effect.either(client.bots.enable({ bot_id: bot.id }))),
          Stream.runCount
        )
    }
  })
}) {}

const TestLayer = CommunityApiClient.layer({
  baseUrl: ReferenceServer.inProcessBaseUrl,
  token: Redacted.make(tokens.owner)
}).pipe(
  // Fresh limiters per test: the process-wide ones would carry counts from one test to the next.
  Layer.provideMerge(Layer.mergeAll(ReferenceServer.layerTest(), Pacing.layer(), CreationQuota.layer()))
)

describe("README.md", () => {
  it.effect("E4 E6 S1 the service example enables every disabled bot of a community", () =>
    Effect.gen(function*() {
      const group_id = Ids.GroupId.make(Demo.mainCommunity.group_id)
      const fiber = yield* Effect.fork(BotSwitch.enableAll(group_id))
      // 640 bots: more than one window of requests, so pacing waits on the TestClock.
      yield* TestClock.adjust(Duration.minutes(1))
      const tried = yield* Fiber.join(fiber)
      expect(tried).toBeGreaterThan(30)
      const client = yield* CommunityApiClient.CommunityApiClient
      const left = yield* client.bots.get({ group_id, channel: "VK", active: 0, archived: 0, count: 500 })
      // Only the bots that cannot be enabled (error 6) stay off.
      expect(left.total).toBeLessThan(tried)
    }).pipe(Effect.provide(BotSwitch.Default.pipe(Layer.provideMerge(TestLayer)))))

  it.effect("A6 the in-process example retries error 9 on the TestClock", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ keyServiceUnavailable: { next: 2 } })
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.fork(client.users.me())
      yield* TestClock.adjust(Duration.seconds(10)) // the retry delays pass on the TestClock
      const me = yield* Fiber.join(fiber)
      expect(me.client_id).toBeDefined()
    }).pipe(Effect.provide(TestLayer)))

  it.effect("L1 L2 X1 the retries-and-limits example builds and calls", () =>
    Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(
        Effect.forEach(
          Array.from({ length: 21 }, (_, i) => i),
          (i) =>
            client.vars.create({
              group_id: Ids.GroupId.make(Demo.mainCommunity.group_id),
              channel: "VK",
              title: "t",
              name: `readme_${i}`
            }),
          { concurrency: "unbounded" }
        )
      )
      expect(error._tag).toBe("CreationQuotaExceeded")
    }).pipe(Effect.provide(
      CommunityApiClient.layer({
        baseUrl: ReferenceServer.inProcessBaseUrl,
        token: Redacted.make(tokens.owner),
        userKey: "user-42", // several tokens of one user share the limiters
        onCreationLimit: "fail", // CreationQuotaExceeded { window: "minute", resetsAt } instead of waiting
        timeout: Duration.seconds(10),
        retry: {
          // Any Schedule: here 200 ms doubling, at most 4 attempts, no jitter.
          schedule: Schedule.exponential(Duration.millis(200)).pipe(Schedule.intersect(Schedule.recurs(3))),
          limitRetries: 3 // sends again after error 5, each after waiting for the window
        }
      }).pipe(
        Layer.provide(ReferenceServer.layerTest()),
        Layer.provide(Pacing.layer({ limit: 30, window: Duration.seconds(1), margin: Duration.millis(20) })),
        Layer.provide(CreationQuota.layer({ perMinute: 20, perDay: 200 }))
      )
    )))
})
