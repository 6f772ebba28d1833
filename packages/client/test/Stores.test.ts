/**
 * The stores under the limiters as a user sees them: `PermitStore` and `CountStore` are tags, and a
 * store of the user's own, provided as one under `Pacing.layerFromStore` or
 * `CreationQuota.layerFromStore`, is the one the client's limiters use. The stores here wrap the
 * memory stores and record what the limiters ask of them; the fake server records what reached it.
 */
import { GroupId } from "@community-api/schema/Ids"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Either, Fiber, Layer, TestClock } from "effect"
import * as ClientError from "../src/ClientError.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CountStore from "../src/CountStore.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as PermitStore from "../src/PermitStore.js"
import * as FakeServer from "./support/FakeServer.js"

const me = { user_id: 7, auth: "token", client_id: "app" }

/** A store of permits that records every call before handing it to the memory store. */
const recordingPermits = (limit: number) => {
  const inner = PermitStore.unsafeMakeMemory({ limit })
  const calls = { takes: 0, holds: [] as Array<PermitStore.Hold>, blocks: [] as Array<number> }
  const store: PermitStore.Service = {
    limit: inner.limit,
    take: (user) => Effect.zipRight(Effect.sync(() => calls.takes++), inner.take(user)),
    release: (permit, hold) => Effect.zipRight(Effect.sync(() => calls.holds.push(hold)), inner.release(permit, hold)),
    budget: inner.budget,
    block: (user, millis) => Effect.zipRight(Effect.sync(() => calls.blocks.push(millis)), inner.block(user, millis))
  }
  return { store, calls }
}

/** A store of counts that records every verdict of the memory store it wraps. */
const recordingCounts = (settings: CountStore.Settings) => {
  const inner = CountStore.unsafeMakeMemory(settings)
  const verdicts: Array<CountStore.Verdict["_tag"]> = []
  const record = (verdict: CountStore.Verdict) => Effect.sync(() => verdicts.push(verdict._tag))
  const store: CountStore.Service = {
    ...inner,
    take: (user) => Effect.tap(inner.take(user), record)
  }
  return { store, verdicts }
}

const variable = (i: number) => ({ group_id: GroupId.make(1), channel: "VK" as const, title: `v${i}`, name: `v${i}` })

describe("Stores of the limiters", () => {
  it.effect("L1 a store of permits of the user's own, provided as PermitStore, is what the client paces with", () => {
    const server = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    const { calls, store } = recordingPermits(2)
    const limiters = Layer.mergeAll(
      Pacing.layerFromStore().pipe(Layer.provide(Layer.succeed(PermitStore.PermitStore, store))),
      CreationQuota.layer()
    )
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const pacing = yield* Pacing.Pacing
      expect(pacing.settings).toEqual({ limit: 2, windowMillis: 1000, marginMillis: 20 })
      const fiber = yield* Effect.fork(Effect.all([client.users.me(), client.users.me(), client.users.me()], {
        concurrency: "unbounded"
      }))
      yield* TestClock.adjust(Duration.seconds(5))
      yield* Fiber.join(fiber)
      // The store's limit of 2: the third request waits for a permit held a window plus the margin.
      expect(server.received.map((r) => r.at)).toEqual([0, 0, 1020])
      expect(calls.takes).toBe(3)
      expect(calls.holds).toEqual(Array.from({ length: 3 }, () => ({ afterAnswerMillis: 1020, afterTakeMillis: 0 })))
      yield* pacing.penalize("u")
      expect(calls.blocks).toEqual([1020])
    }).pipe(Effect.provide(
      CommunityApiClient.layer(FakeServer.config()).pipe(
        Layer.provideMerge(Layer.mergeAll(server.http, limiters))
      )
    ))
  })

  it.effect("L1 a store of permits that fails fails the request with its LimiterUnavailable, and nothing is sent", () => {
    const server = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    const unavailable = new ClientError.LimiterUnavailable({ limiter: "pacing", store: "mine", reason: "down" })
    const failing: PermitStore.Service = {
      ...PermitStore.unsafeMakeMemory(),
      take: () => Effect.fail(unavailable)
    }
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(client.users.me())
      expect(error).toBeInstanceOf(ClientError.LimiterUnavailable)
      expect(error.message).toBe(unavailable.message)
      expect(server.received).toEqual([])
    }).pipe(Effect.provide(
      CommunityApiClient.layer(FakeServer.config()).pipe(
        Layer.provide(Layer.mergeAll(
          server.http,
          Pacing.layerFromStore().pipe(Layer.provide(Layer.succeed(PermitStore.PermitStore, failing))),
          CreationQuota.layer()
        ))
      )
    ))
  })

  it.effect("L2 a store of counts of the user's own, provided as CountStore, is what the client counts creations in", () => {
    const server = FakeServer.make((request) =>
      Effect.succeed(
        FakeServer.ok({ id: "0".repeat(24), title: request.body.title, name: request.body.name, create_at: 0 })
      )
    )
    const { store, verdicts } = recordingCounts({ perMinute: 2 })
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const results = yield* Effect.forEach([0, 1, 2], (i) => Effect.either(client.vars.create(variable(i))))
      expect(results.map(Either.isRight)).toEqual([true, true, false])
      const error = Either.isLeft(results[2]!) ? results[2].left : undefined
      expect(error).toBeInstanceOf(ClientError.CreationQuotaExceeded)
      expect(verdicts).toEqual(["Taken", "Taken", "Exhausted"])
      expect(server.received).toHaveLength(2)
    }).pipe(Effect.provide(
      CommunityApiClient.layer(FakeServer.config({ onCreationLimit: "fail" })).pipe(
        Layer.provide(Layer.mergeAll(
          server.http,
          Pacing.layer(),
          CreationQuota.layerFromStore.pipe(Layer.provide(Layer.succeed(CountStore.CountStore, store)))
        ))
      )
    ))
  })

  it.effect("L1 L2 over the memory stores' layers the limiters keep the stores' limits: one permit, one creation a minute", () =>
    Effect.gen(function*() {
      const pacing = yield* Pacing.makeFromStore({ margin: Duration.millis(5) }).pipe(
        Effect.provide(PermitStore.layerMemory({ limit: 1 }))
      )
      expect(pacing.settings).toEqual({ limit: 1, windowMillis: 1000, marginMillis: 5 })
      const fiber = yield* Effect.fork(Effect.all([0, 1].map(() => pacing.withPermit("u")(Clock.currentTimeMillis)), {
        concurrency: "unbounded"
      }))
      yield* TestClock.adjust(Duration.seconds(2))
      expect(yield* Fiber.join(fiber)).toEqual([0, 1005])
      const quota = yield* Effect.provide(CreationQuota.makeFromStore, CountStore.layerMemory({ perMinute: 1 }))
      expect(yield* quota.acquire("u", "vars/create", "fail")).toBe(2000)
      const refused = yield* Effect.flip(quota.acquire("u", "vars/create", "fail"))
      expect(refused._tag === "CreationQuotaExceeded" ? refused.window : refused._tag).toBe("minute")
    }))
})
