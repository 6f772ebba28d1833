/**
 * The deadline of a whole call on the Effect 4 line, as on the Effect 3 line: every attempt, retry, pacing wait and quota wait together, 120 s by
 * default. Past it a call fails with `TimeoutError { scope: "call" }`, or with `OutcomeUnknownError`
 * when an attempt of an operation that is not safe to repeat was in flight.
 */
import { Ids } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Layer, Schedule, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as FakeServer from "./support/FakeServer.js"

const variable = { group_id: Schema.decodeSync(Ids.GroupId)(1), channel: "VK" as const, title: "Город", name: "city" }
const me = { user_id: 7, auth: "token", client_id: "app" }
const hex = (i: number) => i.toString(16).padStart(24, "0")

/** Runs `call` in a fiber, moves the clock `by`, and gives its failure and the time it ended at. */
const endOf = <A, E>(call: Effect.Effect<A, E>, by: Duration.Input) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(
      Effect.flip(call).pipe(
        Effect.flatMap((error) => Effect.map(Clock.currentTimeMillis, (at) => ({ error, at })))
      )
    )
    yield* TestClock.adjust(by)
    return yield* Fiber.join(fiber)
  })

describe("Deadline", () => {
  it.effect("L2 L5 X1 a creation that keeps getting error 5 ends at the default deadline of 120 s, typed", () => {
    const fake = FakeServer.make(() =>
      Effect.succeed(FakeServer.error(5, "Слишком много созданий: не более 20 в минуту"))
    )
    return Effect.gen(function*() {
      yield* TestClock.adjust(Duration.seconds(10))
      const client = yield* CommunityApiClient.CommunityApiClient
      const { at, error } = yield* endOf(client.vars.create(variable), Duration.minutes(10))
      expect(error).toMatchObject({ _tag: "TimeoutError", scope: "call", timeoutMillis: 120_000 })
      expect(error.message).toContain("deadline of 120000 ms")
      expect(at).toBe(130_000)
      // Each refusal of the quota waited for the next minute; nothing was in flight at the deadline.
      expect(fake.received.map((r) => r.at)).toEqual([10_000, 60_000, 120_000])
    }).pipe(
      Effect.provide(FakeServer.clientLayer(fake.http, { onCreationLimit: "wait", retry: { limitRetries: 1_000 } }))
    )
  })

  it.effect("A6 X1 retries of error 9 stop at a configured deadline of 4.5 s", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.error(9)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const { at, error } = yield* endOf(client.users.me(), Duration.minutes(1))
      expect(error).toMatchObject({ _tag: "TimeoutError", scope: "call", timeoutMillis: 4_500 })
      expect(at).toBe(4_500)
      expect(fake.received.map((r) => r.at)).toEqual([0, 1_000, 2_000, 3_000, 4_000])
    }).pipe(
      Effect.provide(
        FakeServer.clientLayer(fake.http, {
          deadline: Duration.millis(4_500),
          retry: { schedule: Schedule.spaced(Duration.seconds(1)) }
        })
      )
    )
  })

  it.effect("L2 a creation waiting for the next minute of its own quota ends at the deadline, never sent", () => {
    const fake = FakeServer.make((request, i) =>
      Effect.succeed(FakeServer.ok({ id: hex(i), title: "t", name: `v${i}`, create_at: request.at / 1000 | 0 }))
    )
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      yield* client.vars.create(variable)
      const { at, error } = yield* endOf(client.vars.create({ ...variable, name: "town" }), Duration.minutes(2))
      expect(error).toMatchObject({ _tag: "TimeoutError", scope: "call", timeoutMillis: 30_000 })
      expect(at).toBe(30_000)
      expect(fake.received).toHaveLength(1)
    }).pipe(
      Effect.provide(
        CommunityApiClient.layer(FakeServer.config({ onCreationLimit: "wait", deadline: Duration.seconds(30) })).pipe(
          Layer.provide(Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer({ perMinute: 1 })))
        )
      )
    )
  })

  it.effect("X1 a creation in flight at the deadline is an unknown outcome, sent once", () => {
    const fake = FakeServer.make(() => Effect.never)
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const { at, error } = yield* endOf(client.vars.create(variable), Duration.minutes(1))
      expect(error._tag).toBe("OutcomeUnknownError")
      expect(error.message).toContain("deadline of 10000 ms")
      expect(at).toBe(10_000)
      expect(fake.received).toHaveLength(1)
    }).pipe(
      Effect.provide(
        FakeServer.clientLayer(fake.http, { deadline: Duration.seconds(10), timeout: Duration.seconds(60) })
      )
    )
  })

  it.effect("X1 a read in flight at the deadline is a timeout of the call, not an unknown outcome", () => {
    const fake = FakeServer.make((_, i) => i === 0 ? Effect.never : Effect.succeed(FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const { at, error } = yield* endOf(client.users.me(), Duration.minutes(1))
      expect(error).toMatchObject({ _tag: "TimeoutError", scope: "call", timeoutMillis: 10_000 })
      expect(at).toBe(10_000)
      // The next call is not held by the abandoned one.
      expect(yield* client.users.me()).toEqual(me)
    }).pipe(
      Effect.provide(
        FakeServer.clientLayer(fake.http, { deadline: Duration.seconds(10), timeout: Duration.seconds(60) })
      )
    )
  })
})
