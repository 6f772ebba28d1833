/**
 * The Effect 4 line's client, as the Effect 3 line's suite of the same name proves it there.
 */
import * as Demo from "@community-api/core/DemoData"
import { Ids } from "@community-api/effect4-schema"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Clock, DateTime, Duration, Effect, Fiber, Layer, Result, Schedule, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Reference from "./support/Reference.js"

const main = {
  group_id: Schema.decodeSync(Ids.GroupId)(Demo.mainCommunity.group_id),
  channel: Demo.mainCommunity.channel
}
const Client = CommunityApiClient.CommunityApiClient
const plain = Schedule.recurs(5).pipe(
  Schedule.addDelay(({ attempt }) => Effect.succeed(Duration.millis(500 * 2 ** (attempt - 1))))
)
const create = (client: CommunityApiClient.Client, i: number) =>
  client.vars.create({ ...main, title: `Переменная ${i}`, name: `quota_var_${i}` })

const variablesNamed = (prefix: string) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const state = yield* server.snapshot
    return state.variables.filter((v) => v.name.startsWith(prefix))
  })

describe("Limits and retries against the reference server", () => {
  it.effect("A6 X1 injected error 9 is retried on the configured delays, attempts counted on the TestClock", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ keyServiceUnavailable: { next: 3 } })
      const client = yield* Client
      const started = yield* Clock.currentTimeMillis
      const fiber = yield* Effect.forkChild(Effect.zip(client.users.me(), Clock.currentTimeMillis))
      yield* TestClock.adjust(Duration.seconds(30))
      const [me, finished] = yield* Fiber.join(fiber)
      expect(me.user_id).toBe(Demo.userIds.owner)
      expect(finished - started).toBe(500 + 1000 + 2000)
      expect(yield* server.requestCount).toBe(4)
    }).pipe(Effect.provide(Reference.layer(Demo.tokens.owner, { retry: { schedule: plain } }))))

  it.effect("X1 101 after the action on a creation is not retried and nothing is created twice", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ internalError: { next: 1, paths: ["vars/create"], afterAction: true } })
      const client = yield* Client
      const fiber = yield* Effect.forkChild(Effect.flip(create(client, 1)))
      yield* TestClock.adjust(Duration.minutes(1))
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("OutcomeUnknownError")
      expect(yield* server.requestCount).toBe(1)
      expect(yield* variablesNamed("quota_var_1")).toHaveLength(1)
    }).pipe(Effect.provide(Reference.layer(Demo.tokens.owner, { retry: { schedule: plain } }))))

  it.effect("X1 a dropped connection on a creation is an unknown outcome, sent once; on a read it is retried", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const client = yield* Client
      yield* server.setFaults({ dropConnection: { next: 1, paths: ["vars/create"], afterAction: true } })
      const creation = yield* Effect.forkChild(Effect.flip(create(client, 2)))
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* Fiber.join(creation))._tag).toBe("OutcomeUnknownError")
      expect(yield* variablesNamed("quota_var_2")).toHaveLength(1)
      yield* server.setFaults({ dropConnection: { next: 2, paths: ["vars/list"] } })
      const read = yield* Effect.forkChild(client.vars.list(main))
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* Fiber.join(read)).total).toBeGreaterThan(0)
    }).pipe(Effect.provide(Reference.layer(Demo.tokens.owner, { retry: { schedule: plain } }))))

  it.effect("X1 a timeout on a safe operation is retried on the schedule, then fails typed", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ latency: { fixed: 5000 } })
      const client = yield* Client
      const fiber = yield* Effect.forkChild(Effect.flip(client.users.me()))
      yield* TestClock.adjust(Duration.minutes(2))
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("TimeoutError")
    }).pipe(
      Effect.provide(Reference.layer(Demo.tokens.owner, { timeout: Duration.seconds(1), retry: { schedule: plain } }))
    ))

  it.effect("L1 300 requests from several fibers and two clients: zero error 5, within the minimum time plus a window", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const a = yield* Reference.as(Demo.tokens.owner, { retry: { limitRetries: 0 } })
      const b = yield* Reference.as(Demo.tokens.owner, { retry: { limitRetries: 0 } })
      const fibers = yield* Effect.forEach([0, 1, 2, 3, 4, 5], (f) =>
        Effect.forkChild(
          Effect.forEach(
            Array.from({ length: 50 }),
            () => Effect.andThen((f % 2 === 0 ? a : b).users.me(), Clock.currentTimeMillis),
            { concurrency: "unbounded" }
          )
        ))
      const all = Fiber.joinAll(fibers)
      yield* TestClock.adjust(Duration.seconds(20))
      // With no retries on 5, any error 5 would fail a fiber.
      const finished = (yield* all).flat()
      expect(finished).toHaveLength(300)
      expect(yield* server.requestCount).toBe(300)
      // 30 per window: the last batch goes out 9 windows after the first, at least, and within one more.
      const last = Math.max(...finished)
      expect(last).toBeGreaterThanOrEqual(9 * 1000)
      expect(last).toBeLessThanOrEqual(9 * 1000 + 1000)
    }).pipe(Effect.provide(Reference.environment())))

  it.effect("L1 the server is strict: with pacing loosened to 1000 per second, a burst of 31 gets one error 5", () =>
    Effect.gen(function*() {
      const client = yield* Reference.as(Demo.tokens.owner, { retry: { limitRetries: 0 } })
      const results = yield* Effect.forEach(Array.from({ length: 31 }), () => Effect.result(client.users.me()), {
        concurrency: "unbounded"
      })
      const refused = results.filter(Result.isFailure).map((r) => r.failure._tag)
      expect(refused).toEqual(["RateLimitError"])
    }).pipe(
      Effect.provide(
        Layer.mergeAll(ReferenceServer.layerTest(), Pacing.layer({ limit: 1000 }), CreationQuota.layer())
      )
    ))

  it.effect("L2 L4 25 concurrent vars/create: 20 created at once, 5 wait for the next minute", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const fiber = yield* Effect.forkChild(
        Effect.forEach(Array.from({ length: 25 }, (_, i) => i), (i) => create(client, 100 + i), {
          concurrency: "unbounded"
        })
      )
      yield* TestClock.adjust(Duration.seconds(59))
      expect(yield* variablesNamed("quota_var_1")).toHaveLength(20)
      yield* TestClock.adjust(Duration.seconds(1))
      const created = yield* Fiber.join(fiber)
      expect(created).toHaveLength(25)
      expect(yield* variablesNamed("quota_var_1")).toHaveLength(25)
    }).pipe(Effect.provide(Reference.layer(Demo.tokens.owner, { onCreationLimit: "wait" }))))

  it.effect("L2 L4 25 concurrent vars/create: 20 created, 5 fail typed with the minute's reset", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust(Duration.seconds(12))
      const client = yield* Client
      const results = yield* Effect.forEach(
        Array.from({ length: 25 }, (_, i) => i),
        (i) => Effect.result(create(client, 200 + i)),
        { concurrency: "unbounded" }
      )
      const failures = results.filter(Result.isFailure).map((r) => r.failure)
      expect(failures).toHaveLength(5)
      for (const failure of failures) {
        expect(failure._tag).toBe("CreationQuotaExceeded")
        if (failure._tag === "CreationQuotaExceeded") {
          expect(failure.window).toBe("minute")
          expect(DateTime.toEpochMillis(failure.resetsAt)).toBe(60_000)
        }
      }
      expect(yield* variablesNamed("quota_var_2")).toHaveLength(20)
    }).pipe(Effect.provide(Reference.layer(Demo.tokens.owner, { onCreationLimit: "fail" }))))

  it.effect("L2 L4 the 201st creation of the day fails at once with the reset at 03:00 Moscow time", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 21, 21, 0))
      const client = yield* Client
      for (let minute = 0; minute < 10; minute++) {
        yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => minute * 20 + i), (i) => create(client, 1000 + i), {
          concurrency: "unbounded"
        })
        yield* TestClock.adjust(Duration.minutes(1))
      }
      const error = yield* Effect.flip(create(client, 5000))
      expect(error._tag).toBe("CreationQuotaExceeded")
      if (error._tag === "CreationQuotaExceeded") {
        expect(error.window).toBe("day")
        expect(DateTime.formatIso(error.resetsAt)).toBe("2026-11-22T00:00:00.000Z")
      }
      expect(yield* variablesNamed("quota_var_")).toHaveLength(200)
    }).pipe(Effect.provide(Reference.layer(Demo.tokens.owner, { onCreationLimit: "wait" }))))

  it.effect("L1 L2 two clients of one user share the creation quota", () =>
    Effect.gen(function*() {
      const a = yield* Reference.as(Demo.tokens.owner, { onCreationLimit: "fail" })
      const b = yield* Reference.as(Demo.tokens.owner, { onCreationLimit: "fail" })
      const results = yield* Effect.forEach(
        Array.from({ length: 24 }, (_, i) => i),
        (i) => Effect.result(create(i % 2 === 0 ? a : b, 300 + i)),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Result.isSuccess)).toHaveLength(20)
      expect(results.filter(Result.isFailure).every((r) => r.failure._tag === "CreationQuotaExceeded")).toBe(true)
    }).pipe(Effect.provide(Reference.environment())))

  it.effect("A5 a revoked token keeps working until its 60-second cache entry ages out, then gives 4", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const client = yield* Client
      yield* client.users.me()
      yield* server.revokeToken(Demo.tokens.owner)
      yield* TestClock.adjust(Duration.seconds(30))
      expect((yield* client.users.me()).user_id).toBe(Demo.userIds.owner)
      yield* TestClock.adjust(Duration.seconds(31))
      expect((yield* Effect.flip(client.users.me()))._tag).toBe("InvalidTokenError")
    }).pipe(Effect.provide(Reference.layer())))
})
