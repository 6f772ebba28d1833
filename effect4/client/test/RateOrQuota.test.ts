/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * Error 5 covers the request rate (L1) and the creation quota (L2): the client tells them apart
 * (`Retry.refusalOf`). A rate refusal of a creation waits for the rate window and is sent again;
 * only a quota refusal ends as `CreationQuotaExceeded` or waits for the next minute.
 */
import * as Demo from "@community-api/core/DemoData"
import { ApiError, Ids } from "@community-api/effect4-schema"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Layer, Random, Result, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Retry from "../src/Retry.js"
import * as FakeServer from "./support/FakeServer.js"
import * as Figures from "./support/Figures.js"
import * as Reference from "./support/Reference.js"

const main = {
  group_id: Schema.decodeSync(Ids.GroupId)(Demo.mainCommunity.group_id),
  channel: Demo.mainCommunity.channel
}
const creation = { creation: true }
const rate = ApiError.make(5, "Слишком много запросов: не более 30 в секунду", "vars/create")
const minute = ApiError.make(5, "Слишком много созданий: не более 20 в минуту", "vars/create")
const day = ApiError.make(5, "Слишком много созданий: не более 200 в сутки", "vars/create")
const silent = ApiError.make(5, "Ошибка", "vars/create")
const hex = (i: number) => i.toString(16).padStart(24, "0")

describe("Error 5: the rate or the quota", () => {
  it("L1 L2 X1 the rule: an ordinary request is refused by the rate; a creation by what the text names, else by its own count", () => {
    expect(Retry.refusalOf({ creation: false }, minute)).toBe("rate")
    expect(Retry.refusalOf(creation, rate)).toBe("rate")
    expect(Retry.refusalOf(creation, minute)).toBe("minute")
    expect(Retry.refusalOf(creation, day)).toBe("day")
    expect(Retry.refusalOf(creation, rate, "minute")).toBe("rate")
    expect(Retry.refusalOf(creation, silent)).toBe("rate")
    expect(Retry.refusalOf(creation, silent, "minute")).toBe("minute")
    expect(Retry.refusalOf(creation, silent, "day")).toBe("day")
  })

  it.effect("L1 L5 X1 a creation refused by the rate is sent again within the next window and counts once", () => {
    const fake = FakeServer.make((request, i) =>
      Effect.succeed(
        i < 2
          ? FakeServer.error(5, rate.text)
          : FakeServer.ok({ id: hex(i), title: "t", name: "v1", create_at: request.at / 1000 | 0 })
      )
    )
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(client.vars.create({ ...main, title: "t", name: "v1" }))
      yield* TestClock.adjust(Duration.seconds(10))
      expect((yield* Fiber.join(fiber)).name).toBe("v1")
      // Each time the margin and a random moment of the next window.
      const sent = fake.received.map((r) => r.at)
      expect(sent).toHaveLength(3)
      for (const [before, after] of [[sent[0], sent[1]], [sent[1], sent[2]]]) {
        expect(after - before).toBeGreaterThanOrEqual(20)
        expect(after - before).toBeLessThan(1020)
      }
    }).pipe(
      Effect.provide(
        CommunityApiClient.layer(FakeServer.config({ onCreationLimit: "fail" })).pipe(
          Layer.provide(Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer({ perMinute: 1 })))
        )
      )
    )
  })

  it.effect("L2 L4 L5 a creation refused for the day fails at once with the day's reset, even in wait mode", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.error(5, day.text)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(client.vars.create({ ...main, title: "t", name: "v1" }))
      expect(error).toMatchObject({ _tag: "CreationQuotaExceeded", window: "day" })
      expect(fake.received).toHaveLength(1)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { onCreationLimit: "wait" })))
  })

  describe.each(["fail", "wait"] as const)("a reader and a creator of one user with limiters of their own (%s mode)", (
    mode
  ) => {
    it.effect(
      "L1 L2 L5 X1 zero false CreationQuotaExceeded, and no creation held by rate refusals more than a few windows",
      () => {
        let refusedCreations = 0
        const environment = ReferenceServer.layerTest({
          // A network: every request reaches the server 5 to 60 ms after it is sent.
          faults: { latency: { min: 5, max: 60, seed: 12 } },
          onRequest: (entry) => {
            if (entry.path.endsWith("/vars/create") && entry.outcome === 5) refusedCreations++
          }
        })
        // Two processes of one user, as far as the limiters know: nothing shared.
        const ownLimiters = () => Layer.mergeAll(Pacing.layer(), CreationQuota.layer())
        return Effect.gen(function*() {
          const reader = yield* Reference.as(Demo.tokens.owner).pipe(Effect.provide(ownLimiters()))
          const creator = yield* Reference.as(Demo.tokens.owner, { onCreationLimit: mode }).pipe(
            Effect.provide(ownLimiters())
          )
          let done = false
          let reads = 0
          // The reader reads at its full pace from two fibers until the creator is done.
          const reading = yield* Effect.forkChild(
            Effect.all(
              Array.from({ length: 2 }, () =>
                Effect.forEach(
                  Array.from({ length: 3_000 }),
                  () => done ? Effect.void : Effect.ignore(Effect.map(reader.users.me(), () => reads++)),
                  { discard: true }
                )),
              { concurrency: "unbounded", discard: true }
            )
          )
          // 8 creations, one every 3 s or more: 20 a minute at most, within the quota.
          const creating = yield* Effect.forkChild(
            Effect.forEach(Array.from({ length: 8 }, (_, i) => i), (i) =>
              Effect.gen(function*() {
                const start = yield* Clock.currentTimeMillis
                const result = yield* Effect.result(
                  creator.vars.create({ ...main, title: `Переменная ${i}`, name: `shared_${i}` })
                )
                const held = (yield* Clock.currentTimeMillis) - start
                yield* Effect.sleep(Duration.seconds(3))
                return { result, held }
              }))
          )
          for (let step = 0; step < 300 && creating.pollUnsafe() === undefined; step++) {
            yield* TestClock.adjust(Duration.seconds(1))
          }
          const elapsed = yield* Clock.currentTimeMillis
          done = true
          yield* TestClock.adjust(Duration.seconds(5))
          yield* Fiber.join(reading)
          const creations = yield* Fiber.join(creating)
          // The reader took nearly the whole rate, and the rate refused some creations.
          expect(reads / (elapsed / 1000)).toBeGreaterThan(20)
          expect(refusedCreations).toBeGreaterThan(0)
          // None failed (no false CreationQuotaExceeded, no RateLimitError), none waited for a minute.
          expect(creations.flatMap((c) => Result.isFailure(c.result) ? [c.result.failure._tag] : [])).toEqual([])
          const window = Duration.toMillis(Pacing.defaults.window)
          const held = creations.map((c) => c.held).sort((a, b) => a - b)
          yield* Figures.report(
            `${mode} mode: reader ${(reads / (elapsed / 1000)).toFixed(1)}/s, ${refusedCreations} rate refusals of ` +
              `creations, held ${held.join(", ")} ms`
          )
          expect(Math.max(...creations.map((c) => c.held))).toBeLessThanOrEqual(3 * window)
          const server = yield* ReferenceServer.ReferenceServer
          const created = (yield* server.snapshot).variables.filter((v) => v.name.startsWith("shared_"))
          expect(created).toHaveLength(8)
        }).pipe(Effect.provide(environment), Random.withSeed("rate-or-quota"))
      },
      60_000
    )
  })
})
