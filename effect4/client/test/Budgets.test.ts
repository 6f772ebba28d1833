/**
 * Budgets you can read: what is left of a user's rate window and creation windows, when each comes
 * back, and whether N creations fit by an instant, from the limiters in memory, under `TestClock`;
 * and their JSON (`Budget.toJson`, `Budget.Json`), held to the same fixture as the Effect 3 line's
 * test (`packages/client/test/support/BudgetJson.ts`): the same fields and values of the same budgets.
 * The Redis store's budgets are tested in `RedisStore.test.ts`.
 */
import type * as CoreBudget from "@community-api/core/Budget"
import { Ids } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Deferred, Duration, Effect, Fiber, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as BudgetJson from "../../../packages/client/test/support/BudgetJson.js"
import * as Budget from "../src/Budget.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as FakeServer from "./support/FakeServer.js"

describe("Budgets", () => {
  it.effect("L1 the requests left to a user: all 30, none while 30 are held, back when their hold ends", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make()
      expect(yield* pacing.budget("u")).toEqual({ used: 0, limit: 30, left: 30, resetsAt: 0 })
      const calls = yield* Effect.forkChild(
        Effect.forEach(Array.from({ length: 31 }), () => pacing.withPermit("u")(Effect.sleep(Duration.millis(100))), {
          concurrency: "unbounded"
        })
      )
      yield* TestClock.adjust(Duration.millis(50))
      // 30 in flight, the 31st waits: when one comes back is not known before an answer.
      expect(yield* pacing.budget("u")).toEqual({ used: 30, limit: 30, left: 0, resetsAt: undefined })
      expect((yield* pacing.budget("other")).left).toBe(30)
      yield* TestClock.adjust(Duration.millis(50))
      // Answered at 100 ms: each comes back a window and the margin later (no spread learnt yet).
      expect(yield* pacing.budget("u")).toEqual({ used: 30, limit: 30, left: 0, resetsAt: 1_120 })
      yield* TestClock.adjust(Duration.millis(1020))
      // The 31st took one at 1120 ms.
      expect((yield* pacing.budget("u")).left).toBe(29)
      yield* TestClock.adjust(Duration.millis(100))
      yield* Fiber.join(calls)
      yield* TestClock.adjust(Duration.millis(1020))
      expect(yield* pacing.budget("u")).toEqual({ used: 0, limit: 30, left: 30, resetsAt: 2_240 })
    }))

  it.effect("L1 after a refusal for the rate the user has nothing left until the block ends", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.make()
      yield* pacing.penalize("u")
      expect(yield* pacing.budget("u")).toEqual({ used: 30, limit: 30, left: 0, resetsAt: 1_020 })
      yield* TestClock.adjust(Duration.millis(1020))
      expect((yield* pacing.budget("u")).left).toBe(30)
    }))

  it.effect("L2 L4 the creations left in the minute and the day, when each resets, and N creations by an instant", () =>
    Effect.gen(function*() {
      // 2026-11-26 20:59:30 Moscow (17:59:30 UTC).
      yield* TestClock.setTime(Date.UTC(2026, 10, 26, 17, 59, 30))
      const quota = yield* CreationQuota.make()
      yield* Effect.forEach(Array.from({ length: 5 }), () => quota.acquire("u", "vars/create", "fail"), {
        discard: true
      })
      expect(yield* quota.budget("u")).toEqual({
        minute: { used: 5, limit: 20, left: 15, resetsAt: Date.UTC(2026, 10, 26, 18, 0) },
        day: { used: 5, limit: 200, left: 195, resetsAt: Date.UTC(2026, 10, 27, 0, 0) }
      })
      // 40 more: 15 in this minute, 20 at 18:00, 5 at 18:01.
      const at1801 = Date.UTC(2026, 10, 26, 18, 1)
      expect(yield* quota.estimate("u", 40, DateTime.makeUnsafe(Date.UTC(2026, 10, 26, 18, 0, 30)))).toEqual({
        _tag: "Late",
        earliest: at1801
      })
      expect(yield* quota.estimate("u", 40, DateTime.makeUnsafe(at1801))).toEqual({ _tag: "InTime", lastAt: at1801 })
      // Another user's budget is whole; the day's count resets at 03:00 Moscow.
      expect((yield* quota.budget("other")).minute.left).toBe(20)
      yield* TestClock.setTime(Date.UTC(2026, 10, 27, 0, 0))
      expect((yield* quota.budget("u")).day).toEqual({
        used: 0,
        limit: 200,
        left: 200,
        resetsAt: Date.UTC(2026, 10, 28, 0, 0)
      })
    }))
  it.effect("L1 L2 a client reads its own user's budget and whether N creations fit by an instant", () => {
    const server = FakeServer.make((request) =>
      Effect.succeed(
        request.path === "vars/create"
          ? FakeServer.ok({ id: "5e0000000000000000000001", title: "t", name: "v", create_at: 0 })
          : FakeServer.ok({ user_id: 7, auth: "token", client_id: "app" })
      )
    )
    return Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 26, 17, 59, 30))
      const client = yield* CommunityApiClient.CommunityApiClient
      yield* client.users.me()
      yield* client.vars.create({ group_id: Ids.GroupId.make(1), channel: "VK", title: "t", name: "v" })
      const budget = yield* client.budget
      // Both requests hold their permits a window and the margin past their answers.
      expect(budget.requests).toEqual({
        used: 2,
        limit: 30,
        left: 28,
        resetsAt: Date.UTC(2026, 10, 26, 17, 59, 31, 20)
      })
      expect(budget.creations.minute).toEqual({ used: 1, limit: 20, left: 19, resetsAt: Date.UTC(2026, 10, 26, 18, 0) })
      expect(budget.creations.day.left).toBe(199)
      expect(yield* client.estimateCreations(19, DateTime.makeUnsafe(Date.UTC(2026, 10, 26, 17, 59, 45)))).toEqual({
        _tag: "InTime",
        lastAt: Date.UTC(2026, 10, 26, 17, 59, 30)
      })
      expect(yield* client.estimateCreations(20, DateTime.makeUnsafe(Date.UTC(2026, 10, 26, 17, 59, 45)))).toEqual({
        _tag: "Late",
        earliest: Date.UTC(2026, 10, 26, 18, 0)
      })
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http)))
  })

  it.effect("L1 L2 L4 the JSON of budgets read from the memory limiters: the fields and values both lines show, which Budget.Json decodes and encodes as they are", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(BudgetJson.at)
      const pacing = yield* Pacing.make()
      const quota = yield* CreationQuota.make()
      const { answered, waiting } = BudgetJson
      yield* Effect.repeat(pacing.withPermit(answered.user)(Effect.void), { times: answered.requests - 1 })
      yield* Effect.repeat(quota.acquire(answered.user, "vars/create", "fail"), { times: answered.creations - 1 })
      const started = yield* Deferred.make<void>()
      const inFlight = yield* Effect.forkChild(
        pacing.withPermit(waiting.user)(Effect.andThen(Deferred.succeed(started, void 0), Effect.never))
      )
      yield* Deferred.await(started)

      const read = (user: string, asks: Budget.Question) =>
        Effect.gen(function*() {
          const budget: Budget.OfUser = { requests: yield* pacing.budget(user), creations: yield* quota.budget(user) }
          const estimate = yield* quota.estimate(user, asks.creations, DateTime.makeUnsafe(asks.by))
          return { budget, asked: { ...asks, estimate } }
        })
      const u = yield* read(answered.user, BudgetJson.answeredAsks)
      const w = yield* read(waiting.user, BudgetJson.waitingAsks)
      const jsons = [
        [Budget.toJson(u.budget, "memory", u.asked), BudgetJson.answeredJson],
        [Budget.toJson(u.budget, "memory"), BudgetJson.answeredJsonUnasked],
        [Budget.toJson(w.budget, "memory", w.asked), BudgetJson.waitingJson]
      ] as const
      for (const [json, expected] of jsons) {
        expect(json).toStrictEqual(expected)
        // Plain JSON: what the command line prints is read back the same.
        expect(JSON.parse(JSON.stringify(json))).toStrictEqual(json)
        expect(Schema.decodeUnknownSync(Budget.Json)(json)).toStrictEqual(json)
        expect(Schema.encodeSync(Budget.Json)(json)).toStrictEqual(json)
      }
      // The schema's type is the core's `Json`, both ways: the fixture is both, one is the other.
      const fromCore: Budget.Json = BudgetJson.waitingJson satisfies CoreBudget.Json
      const toCore: CoreBudget.Json = fromCore
      expect(toCore).toBe(BudgetJson.waitingJson)
      // What is not of the shape is refused: a store of no kind, a negative count.
      expect(() => Schema.decodeUnknownSync(Budget.Json)({ ...BudgetJson.waitingJson, limiters: "disk" })).toThrow()
      expect(() => Schema.decodeUnknownSync(Budget.WindowJson)({ ...BudgetJson.waitingJson.creations.day, left: -1 }))
        .toThrow()
      yield* Fiber.interrupt(inFlight)
    }))
})
