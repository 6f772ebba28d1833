/**
 * The server under concurrent load, in process on the `TestClock`: the request window (L1) and the
 * creation limits (L2–L5) stay exact when many fibers of one user call at once through several tokens,
 * and concurrent writes lose no update.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck as fc, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import type * as Fixture from "../src/Fixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { call, codeOf, main, tokens, withServer } from "./support.js"

/** One request with no clock adjustment (by default `call` moves the clock now and then): its code. */
const post = (path: string, params: Record<string, unknown>, token: string, version: "v1" | "v2" = "v2") =>
  Effect.map(call(path, params, { token, version, pace: 0 }), codeOf)

/** The owner's demo token and four more tokens of the same user (personal and application). */
const fiveTokens = Effect.gen(function*() {
  const server = yield* ReferenceServer.ReferenceServer
  const issued = yield* Effect.forEach(
    ["personal", "application", "personal", "application"] as const,
    (kind) => server.issueToken({ user_id: DemoFixture.userIds.owner, kind })
  )
  return [tokens.owner, ...issued]
})

const reads = [
  (token: string) => post("users/me", {}, token),
  (token: string) => post("groups/get", { count: 5 }, token),
  (token: string) => post("bots/get", { ...main, count: 3 }, token),
  (token: string) => post("vars/list", main, token)
]

const count = <A>(items: ReadonlyArray<A>, value: A) => items.filter((item) => item === value).length

// Hundreds of requests per test: one or two seconds on an idle machine, ten times that on a busy one.
describe("concurrency", { timeout: 120_000 }, () => {
  it.effect("L1 500 concurrent requests from five tokens of one user at one instant: exactly 30 admitted", () =>
    Effect.gen(function*() {
      const all = yield* fiveTokens
      const codes = yield* Effect.all(
        Array.from({ length: 500 }, (_, i) => reads[i % reads.length]!(all[i % all.length]!)),
        { concurrency: "unbounded" }
      )
      expect(count(codes, "ok")).toBe(30)
      expect(count(codes, 5)).toBe(470)
      // Another user is not held back by the owner's window.
      expect(yield* post("users/me", {}, tokens.mailer)).toBe("ok")
    }).pipe(withServer()))

  it.effect("L1 500 requests of five tokens in concurrent bursts over 4 s meet the sliding 30-per-second window exactly", () =>
    Effect.gen(function*() {
      const all = yield* fiveTokens
      // Bursts of random size at random steps (fixed seed): the model says how many each burst gets.
      const bursts = fc.sample(
        fc.record({ size: fc.integer({ min: 1, max: 45 }), step: fc.integer({ min: 0, max: 400 }) }),
        { numRuns: 200, seed: 500 }
      )
      const admitted: Array<number> = []
      let sent = 0
      let now = 0
      for (const { size, step } of bursts) {
        const n = Math.min(size, 500 - sent)
        if (n === 0) break
        const codes = yield* Effect.all(
          Array.from({ length: n }, (_, i) => reads[(sent + i) % reads.length]!(all[(sent + i) % all.length]!)),
          { concurrency: "unbounded" }
        )
        // The model: a request at `now` is admitted while fewer than 30 were admitted in (now − 1000, now].
        const inWindow = admitted.filter((t) => now - t < 1000).length
        const expected = Math.min(n, 30 - inWindow)
        expect({ now, ok: count(codes, "ok") }).toEqual({ now, ok: expected })
        expect(count(codes, 5)).toBe(n - expected)
        for (let i = 0; i < expected; i++) admitted.push(now)
        sent += n
        yield* TestClock.adjust(step)
        now += step
      }
      expect(sent).toBe(500)
      expect(now).toBeGreaterThan(4000)
    }).pipe(withServer()))

  it.effect("L2 L3 L5 concurrent creations through five tokens and the v1 account key: exactly 20 a minute, 200 a day", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const all = yield* fiveTokens
      const creators = [...all.map((t) => ({ token: t, version: "v2" as const })), {
        token: tokens.accountKey,
        version: "v1" as const
      }]
      const created = (state: Fixture.Fixture) =>
        [state.lists, state.variables, state.communityVariables].flat().filter((o) => o.name.startsWith("conc_"))
          .length
      let serial = 0
      const attempt = (i: number) => {
        const { token, version } = creators[i % creators.length]!
        const name = `conc_${++serial}`
        switch (i % 4) {
          case 0:
            return post("vars/create", { ...main, title: "Т", name }, token, version)
          case 1:
            return post("lists/create", { ...main, name }, token, version)
          case 2:
            return post("globalVars/create", { ...main, title: "Т", name }, token, version)
          default:
            // A wrong name counts too (L3): it gets 7, or 5 once the minute is used up.
            return post("vars/create", { ...main, title: "Т", name: "bad.name" }, token, version)
        }
      }
      let okTotal = 0
      for (let minute = 0; minute < 11; minute++) {
        const codes: Array<number | "ok"> = []
        // Two bursts of 25 (under the 30-per-second window), one second apart, in each minute.
        for (let burst = 0; burst < 2; burst++) {
          codes.push(
            ...(yield* Effect.all(Array.from({ length: 25 }, (_, i) => attempt(burst * 25 + i)), {
              concurrency: "unbounded"
            }))
          )
          yield* TestClock.adjust("1 second")
        }
        const counted = codes.length - count(codes, 5)
        expect({ minute, counted }).toEqual({ minute, counted: minute < 10 ? 20 : 0 })
        okTotal += count(codes, "ok")
        yield* TestClock.adjust("58 seconds")
      }
      // Exactly the successful attempts exist, and nothing refused with 5 was created.
      expect(created(yield* server.snapshot)).toBe(okTotal)
      expect(okTotal).toBeGreaterThan(100)
    }).pipe(withServer()))

  it.effect("E6 E8 S1 S4 concurrent writes lose no update", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const writers = [tokens.owner, tokens.admin, tokens.users]
      const before = yield* server.snapshot
      const list = before.lists.find((l) => l.id === DemoFixture.listId)!
      const fresh = Array.from({ length: 90 }, (_, i) => DemoFixture.subscriberUid + 1000 + i)
        .filter((uid) => !list.uids.includes(uid))
      expect(fresh.length).toBeGreaterThan(60)
      // 90 concurrent lists/addUser of different subscribers from three users of the community.
      const added = yield* Effect.all(
        fresh.map((uid, i) => post("lists/addUser", { list_id: DemoFixture.listId, uid }, writers[i % 3]!)),
        { concurrency: "unbounded" }
      )
      expect(count(added, "ok")).toBe(fresh.length)
      yield* TestClock.adjust("1 second")
      // Concurrent enables of 25 disabled bots and disables of 25 enabled ones, by the owner and the mailer.
      const bots = before.bots.filter((b) =>
        b.group_id === main.group_id && b.channel === main.channel && b.archived === 0 && b.can_enable
      )
      const toEnable = bots.filter((b) => b.active === 0).slice(0, 25).map((b) => b.id)
      const toDisable = bots.filter((b) => b.active === 1).slice(0, 25).map((b) => b.id)
      const switched = yield* Effect.all(
        [
          ...toEnable.map((bot_id) => post("bots/enable", { bot_id }, tokens.owner)),
          ...toDisable.map((bot_id) => post("bots/disable", { bot_id }, tokens.mailer))
        ],
        { concurrency: "unbounded" }
      )
      expect(count(switched, "ok")).toBe(50)
      const after = yield* server.snapshot
      const listAfter = after.lists.find((l) => l.id === DemoFixture.listId)!
      expect(listAfter.uids.length).toBe(list.uids.length + fresh.length)
      expect(fresh.every((uid) => listAfter.uids.includes(uid))).toBe(true)
      const active = new Map(after.bots.map((b) => [b.id, b.active]))
      expect(toEnable.every((id) => active.get(id) === 1)).toBe(true)
      expect(toDisable.every((id) => active.get(id) === 0)).toBe(true)
      // Nothing else moved.
      const untouched = before.bots.filter((b) => !toEnable.includes(b.id) && !toDisable.includes(b.id))
      expect(untouched.every((b) => active.get(b.id) === b.active)).toBe(true)
    }).pipe(withServer()))

  it.effect("E11 L2 concurrent creations of one name in one community: exactly one is created, the rest get 7", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const codes = yield* Effect.all(
        Array.from(
          { length: 15 },
          (_, i) =>
            post(
              "vars/create",
              { ...main, title: `Гонка ${i}`, name: "race_name" },
              [tokens.owner, tokens.users][i % 2]!
            )
        ),
        { concurrency: "unbounded" }
      )
      expect(count(codes, "ok")).toBe(1)
      expect(count(codes, 7)).toBe(14)
      expect((yield* server.snapshot).variables.filter((v) => v.name === "race_name")).toHaveLength(1)
    }).pipe(withServer()))
})
