/**
 * The Effect 4 line's client, as the Effect 3 line's test of the same name proves it.
 */
import { Ids } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Fiber, Result, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as FakeServer from "./support/FakeServer.js"

const params = (i: number) => ({
  group_id: Schema.decodeSync(Ids.GroupId)(1),
  channel: "VK" as const,
  title: `Переменная ${i}`,
  name: `v${i}`
})
const hex = (i: number) => i.toString(16).padStart(24, "0")

/** A strict server of creations: 20 per calendar minute, else error 5 and nothing created. */
const creationServer = () => {
  const created: Array<number> = []
  let rejected = 0
  const fake = FakeServer.make((request) => {
    if (request.path === "users/me") return Effect.succeed(FakeServer.ok({ user_id: 7, auth: "token", client_id: "a" }))
    const minute = Math.floor(request.at / 60_000)
    if (created.filter((t) => Math.floor(t / 60_000) === minute).length >= 20) {
      rejected++
      return Effect.succeed(FakeServer.error(5, "Слишком много созданий"))
    }
    created.push(request.at)
    const body = request.body as { title: string; name: string }
    return Effect.succeed(
      FakeServer.ok({ id: hex(created.length), title: body.title, name: body.name, create_at: request.at / 1000 | 0 })
    )
  })
  return { ...fake, created, rejected: () => rejected }
}

const createMany = (client: CommunityApiClient.Client, n: number, from = 0) =>
  Effect.forEach(Array.from({ length: n }, (_, i) => from + i), (i) => Effect.result(client.vars.create(params(i))), {
    concurrency: "unbounded"
  })

describe("CreationQuota", () => {
  it.effect("L2 L4 25 concurrent vars/create: 20 at once, 5 wait for the next minute (wait mode)", () => {
    const server = creationServer()
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(createMany(client, 25))
      yield* TestClock.adjust(Duration.seconds(59))
      expect(server.created.filter((t) => t === 0)).toHaveLength(20)
      expect(server.received).toHaveLength(20)
      yield* TestClock.adjust(Duration.seconds(1))
      const results = yield* Fiber.join(fiber)
      expect(results.every(Result.isSuccess)).toBe(true)
      expect(server.created.filter((t) => t === 60_000)).toHaveLength(5)
      expect(server.rejected()).toBe(0)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http, { onCreationLimit: "wait" })))
  })

  it.effect("L2 L4 25 concurrent vars/create: 20 created, 5 fail at once with the minute's reset (fail mode)", () => {
    const server = creationServer()
    return Effect.gen(function*() {
      yield* TestClock.adjust(Duration.seconds(30))
      const client = yield* CommunityApiClient.CommunityApiClient
      const results = yield* createMany(client, 25)
      const failures = results.flatMap((r) => Result.isFailure(r) ? [r.failure] : [])
      expect(results.filter(Result.isSuccess)).toHaveLength(20)
      expect(failures).toHaveLength(5)
      for (const failure of failures) {
        expect(failure._tag).toBe("CreationQuotaExceeded")
        expect(failure).toMatchObject({ window: "minute", operation: "vars/create" })
        if (failure._tag === "CreationQuotaExceeded") expect(DateTime.toEpochMillis(failure.resetsAt)).toBe(60_000)
      }
      expect(server.received).toHaveLength(20)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http, { onCreationLimit: "fail" })))
  })

  it.effect("L2 L4 a used-up day fails at once with the reset at 03:00 Moscow time, even in wait mode", () => {
    const server = creationServer()
    // 20:30 UTC (23:30 in Moscow): the day resets at 00:00 UTC, 03:00 in Moscow.
    const start = Date.UTC(2026, 10, 21, 20, 30)
    return Effect.gen(function*() {
      yield* TestClock.setTime(start)
      const client = yield* CommunityApiClient.CommunityApiClient
      for (let minute = 0; minute < 10; minute++) {
        const results = yield* createMany(client, 20, minute * 20)
        expect(results.every(Result.isSuccess)).toBe(true)
        yield* TestClock.adjust(Duration.minutes(1))
      }
      const error = yield* Effect.flip(client.vars.create(params(999)))
      expect(error._tag).toBe("CreationQuotaExceeded")
      expect(error).toMatchObject({ window: "day" })
      if (error._tag === "CreationQuotaExceeded") {
        expect(DateTime.formatIso(error.resetsAt)).toBe("2026-11-22T00:00:00.000Z")
        expect(error.message).toContain("2026-11-22T00:00:00.000Z")
      }
      expect(server.received).toHaveLength(200)
      // The next day the quota is back.
      yield* TestClock.setTime(Date.UTC(2026, 10, 22, 0, 0))
      const created = yield* client.vars.create(params(1000))
      expect(created.name).toBe("v1000")
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http, { onCreationLimit: "wait" })))
  })

  it.effect("L2 L4 L1 a creation counted in one minute but sent in the next after waiting for pacing counts in the next", () => {
    const server = creationServer()
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      // 30 reads at 59.5 s hold every pacing permit until 60.52 s.
      yield* TestClock.adjust(Duration.millis(59_500))
      yield* Effect.all(Array.from({ length: 30 }, () => client.users.me()), { concurrency: "unbounded" })
      // Counted at 59.6 s (minute 0), sent at 60.52 s (minute 1).
      yield* TestClock.adjust(Duration.millis(100))
      const late = yield* Effect.forkChild(client.vars.create(params(0)))
      yield* TestClock.adjust(Duration.millis(1_000))
      // 20 more in minute 1: one of them must wait for minute 2.
      const more = yield* Effect.forkChild(createMany(client, 20, 1))
      yield* TestClock.adjust(Duration.seconds(60))
      expect(Result.isSuccess(Result.succeed(yield* Fiber.join(late)))).toBe(true)
      expect((yield* Fiber.join(more)).every(Result.isSuccess)).toBe(true)
      expect(server.rejected()).toBe(0)
      expect(server.created.filter((t) => t >= 60_000 && t < 120_000)).toHaveLength(20)
      expect(server.created.filter((t) => t >= 120_000)).toHaveLength(1)
    }).pipe(Effect.provide(FakeServer.clientLayer(server.http, { onCreationLimit: "wait" })))
  })

  it.effect("L5 an error 5 on a creation is never sent again in the same minute", () => {
    // Another process of the same user used the minute: the server refuses the first creation.
    const fake = FakeServer.make((request, i) =>
      Effect.succeed(
        i === 0
          ? FakeServer.error(5, "Слишком много созданий")
          : FakeServer.ok({ id: hex(1), title: "t", name: "v1", create_at: request.at / 1000 | 0 })
      )
    )
    return Effect.gen(function*() {
      yield* TestClock.adjust(Duration.seconds(10))
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(client.vars.create(params(1)))
      yield* TestClock.adjust(Duration.seconds(49))
      expect(fake.received.map((r) => r.at)).toEqual([10_000])
      yield* TestClock.adjust(Duration.seconds(1))
      yield* Fiber.join(fiber)
      expect(fake.received.map((r) => r.at)).toEqual([10_000, 60_000])
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { onCreationLimit: "wait" })))
  })

  it.effect("L5 an error 5 on a creation in fail mode fails typed with the minute's reset, sent once", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.error(5, "Слишком много созданий")))
    return Effect.gen(function*() {
      yield* TestClock.adjust(Duration.seconds(10))
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(client.vars.create(params(1)))
      expect(error).toMatchObject({ _tag: "CreationQuotaExceeded", window: "minute" })
      expect(fake.received).toHaveLength(1)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { onCreationLimit: "fail" })))
  })

  it.effect("L3 A6 a creation answered with 9 is given back to the quota: 20 creations each retried once all succeed", () => {
    const seen = new Set<string>()
    const fake = FakeServer.make((request) => {
      const body = request.body as { title: string; name: string }
      if (!seen.has(body.name)) {
        seen.add(body.name)
        return Effect.succeed(FakeServer.error(9))
      }
      return Effect.succeed(FakeServer.ok({ id: hex(seen.size), title: body.title, name: body.name, create_at: 0 }))
    })
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(createMany(client, 20))
      yield* TestClock.adjust(Duration.seconds(5))
      const results = yield* Fiber.join(fiber)
      expect(results.filter(Result.isSuccess)).toHaveLength(20)
      expect(fake.received).toHaveLength(40)
      expect(fake.received.every((r) => r.at < 60_000)).toBe(true)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { onCreationLimit: "fail" })))
  })

  it.effect("L2 L5 lists/rename is not a creation: never held by the creation quota", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok({ id: hex(1), name: "x", create_at: 0 })))
    return Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const fiber = yield* Effect.forkChild(
        Effect.all(
          Array.from(
            { length: 25 },
            () => client.lists.rename({ list_id: Schema.decodeSync(Ids.ListId)(hex(1)), name: "x" })
          ),
          {
            concurrency: "unbounded"
          }
        )
      )
      yield* TestClock.adjust(Duration.seconds(1))
      yield* Fiber.join(fiber)
      expect(fake.received.filter((r) => r.at === 0)).toHaveLength(25)
    }).pipe(Effect.provide(FakeServer.clientLayer(fake.http, { onCreationLimit: "fail" })))
  })
})
