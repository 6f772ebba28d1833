/**
 * The Effect 4 line's client, as the Effect 3 line's test of the same name proves it.
 */
import { Ids } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Fiber, Schedule, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as Retry from "../src/Retry.js"
import * as FakeServer from "./support/FakeServer.js"

const me = { user_id: 7, auth: "token", client_id: "app" }
const variable = { id: "0123456789abcdef01234567", title: "Город", name: "city", create_at: 1_700_000_000 }
const createParams = {
  group_id: Schema.decodeSync(Ids.GroupId)(1),
  channel: "VK" as const,
  title: "Город",
  name: "city"
}

// 0.5 s doubling without jitter, at most 6 attempts: delays 500, 1000, 2000, 4000, 8000.
const plain = Schedule.recurs(5).pipe(
  Schedule.addDelay(({ attempt }) => Effect.succeed(Duration.millis(500 * 2 ** (attempt - 1))))
)

describe("Retry", () => {
  it.effect("A6 X1 error 9 is retried on the configured delays until it succeeds", () => {
    const fake = FakeServer.make((_, i) => Effect.succeed(i < 3 ? FakeServer.error(9) : FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(client.users.me())
      yield* TestClock.adjust(Duration.seconds(10))
      const result = yield* Fiber.join(fiber)
      expect(result).toEqual(me)
      expect(fake.received.map((r) => r.at)).toEqual([0, 500, 1500, 3500])
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { retry: { schedule: plain } })))
  })

  it.effect("A6 X1 error 9 on a creation is retried, and nothing more is created", () => {
    const fake = FakeServer.make((_, i) => Effect.succeed(i < 2 ? FakeServer.error(9) : FakeServer.ok(variable)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(client.vars.create(createParams))
      yield* TestClock.adjust(Duration.seconds(10))
      const created = yield* Fiber.join(fiber)
      expect(created.id).toBe(variable.id)
      expect(fake.received.map((r) => r.at)).toEqual([0, 500, 1500])
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { retry: { schedule: plain } })))
  })

  it.effect("A6 X1 the default policy makes 6 attempts, delays from 0.5 s doubling, jittered, at most 8 s", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.error(9)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(Effect.exit(client.users.me()))
      yield* TestClock.adjust(Duration.minutes(1))
      const exit = yield* Fiber.join(fiber)
      expect(Exit.isFailure(exit) && (Cause.squash(exit.cause) as { readonly _tag: string })._tag).toBe(
        "KeyServiceUnavailableError"
      )
      const times = fake.received.map((r) => r.at)
      expect(times).toHaveLength(6)
      const delays = times.slice(1).map((t, i) => t - times[i]!)
      ;[500, 1000, 2000, 4000, 8000].forEach((base, i) => {
        expect(delays[i]).toBeGreaterThanOrEqual(base * 0.8)
        expect(delays[i]).toBeLessThanOrEqual(Math.min(base * 1.2, 8000))
      })
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http)))
  })

  it.effect("X1 101 on a creation is not retried and fails as an unknown outcome", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.error(101)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(Effect.flip(client.vars.create(createParams)))
      yield* TestClock.adjust(Duration.minutes(1))
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("OutcomeUnknownError")
      expect(error.message).toMatch(/outcome is unknown/)
      expect(fake.received).toHaveLength(1)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { retry: { schedule: plain } })))
  })

  it.effect("X1 101 on an operation safe to repeat is retried", () => {
    const fake = FakeServer.make((_, i) => Effect.succeed(i < 2 ? FakeServer.error(101) : FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(client.users.me())
      yield* TestClock.adjust(Duration.seconds(10))
      expect(yield* Fiber.join(fiber)).toEqual(me)
      expect(fake.received).toHaveLength(3)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { retry: { schedule: plain } })))
  })

  it.effect("X1 a transport failure is retried for a safe operation, and is an unknown outcome for a creation", () => {
    const fake = FakeServer.make((_, i) =>
      i % 2 === 0 ? Effect.die("connection dropped") : Effect.succeed(FakeServer.ok(me))
    )
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const safe = yield* Effect.forkChild(client.users.me())
      yield* TestClock.adjust(Duration.seconds(10))
      expect(yield* Fiber.join(safe)).toEqual(me)
      const creation = yield* Effect.forkChild(Effect.flip(client.vars.create(createParams)))
      yield* TestClock.adjust(Duration.seconds(10))
      const error = yield* Fiber.join(creation)
      expect(error._tag).toBe("OutcomeUnknownError")
      expect(fake.received.map((r) => r.path)).toEqual(["users/me", "users/me", "vars/create"])
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { retry: { schedule: plain } })))
  })

  it.effect("X1 a timeout is retried for a safe operation, then fails typed", () => {
    const fake = FakeServer.make(() => Effect.as(Effect.sleep(Duration.minutes(5)), FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(Effect.flip(client.users.me()))
      yield* TestClock.adjust(Duration.minutes(1))
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("TimeoutError")
      expect(fake.received.map((r) => r.at)).toEqual([0, 1500, 3000])
    }).pipe(Effect.provide(
      FakeServer.clientLayer(fake.http, {
        timeout: Duration.seconds(1),
        retry: { schedule: Schedule.recurs(2).pipe(Schedule.addDelay(() => Effect.succeed(Duration.millis(500)))) }
      })
    ))
  })

  it.effect("C5 X1 an answer that does not decode is never retried", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok({ user_id: "seven" })))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(client.users.me())
      expect(error._tag).toBe("ResponseDecodeError")
      expect(fake.received).toHaveLength(1)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http)))
  })

  it.effect("X1 final errors (7) are never retried and keep their code and text", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.error(7, "Бот не найден")))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(client.bots.getById({ bot_id: variable.id as never }))
      expect(error._tag).toBe("InvalidParameterError")
      expect(error).toMatchObject({ code: 7, text: "Бот не найден", operation: "bots/getById" })
      expect(fake.received).toHaveLength(1)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http)))
  })

  it.effect("L1 X1 error 5 on an ordinary request waits for the window and is sent again", () => {
    const fake = FakeServer.make((_, i) => Effect.succeed(i === 0 ? FakeServer.error(5) : FakeServer.ok(me)))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(client.users.me())
      yield* TestClock.adjust(Duration.seconds(5))
      expect(yield* Fiber.join(fiber)).toEqual(me)
      expect(fake.received.map((r) => r.at)).toEqual([0, 1020])
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http)))
  })

  it("X1 the decision table follows the contract's classification and flags", () => {
    const safe = { safeToRepeat: true, creation: false }
    const creation = { safeToRepeat: false, creation: true }
    const code = (c: number) => ({ _tag: "E", code: c })
    expect([1, 3, 4, 5, 6, 7, 8, 9, 101].map((c) => Retry.decide(safe, code(c)))).toEqual(
      ["fail", "fail", "fail", "fail", "fail", "fail", "fail", "retry", "retry"].map((d, i) =>
        i === 3 ? "wait-for-limit" : d
      )
    )
    expect(Retry.decide(creation, code(101))).toBe("outcome-unknown")
    expect(Retry.decide(creation, code(9))).toBe("retry")
    expect(Retry.decide(creation, { _tag: "TransportError" })).toBe("outcome-unknown")
    expect(Retry.decide(safe, { _tag: "TimeoutError" })).toBe("retry")
    expect(Retry.decide(safe, { _tag: "ResponseDecodeError" })).toBe("fail")
  })

  it("X1 L2 a creation is never sent again after 101, a transport failure or a timeout, whatever its flags say", () => {
    const creationMarkedSafe = { safeToRepeat: true, creation: true }
    expect(Retry.decide(creationMarkedSafe, { _tag: "E", code: 101 })).toBe("outcome-unknown")
    expect(Retry.decide(creationMarkedSafe, { _tag: "TransportError" })).toBe("outcome-unknown")
    expect(Retry.decide(creationMarkedSafe, { _tag: "TimeoutError" })).toBe("outcome-unknown")
    expect(Retry.decide(creationMarkedSafe, { _tag: "E", code: 9 })).toBe("retry")
  })
})
