import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { call, codeOf, createVariable, fails, main, ok, tokens, variableCount, withServer } from "./support.js"

const me = (token: string = tokens.owner) => call("users/me", {}, { token, pace: 0 })
const createVar = (token: string = tokens.owner) => createVariable({ token, pace: 0 })
const varCount = variableCount({ pace: 0 })

/** Creations the owner makes: 20 in each of `minutes` consecutive minutes. */
const exhaustDay = Effect.gen(function*() {
  for (let m = 0; m < 10; m++) {
    for (let i = 0; i < 20; i++) expect(codeOf(yield* createVar())).toBe("ok")
    yield* TestClock.adjust("1 minute")
  }
})

describe("limits", () => {
  it.effect("L1 the 31st request inside one second gets 5, across all tokens of the user", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const second = yield* server.issueToken({ user_id: DemoFixture.userIds.owner, kind: "application" })
      for (let i = 0; i < 15; i++) expect(codeOf(yield* me())).toBe("ok")
      for (let i = 0; i < 15; i++) expect(codeOf(yield* me(second))).toBe("ok")
      expect(yield* fails("users/me", {}, { pace: 0 })).toEqual({
        code: 5,
        text: "Слишком много запросов: не более 30 в секунду"
      })
      expect(codeOf(yield* me(second))).toBe(5)
      // The account key of the same user on v1 shares the window.
      expect(codeOf(yield* call("users/me", {}, { token: tokens.accountKey, version: "v1", pace: 0 }))).toBe(5)
      // Another user is not affected.
      expect(codeOf(yield* me(tokens.mailer))).toBe("ok")
    }).pipe(withServer()))

  it.effect("L1 the window slides: a request is admitted once the oldest of the 30 is 1000 ms old", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 10; i++) expect(codeOf(yield* me())).toBe("ok")
      yield* TestClock.adjust("500 millis")
      for (let i = 0; i < 20; i++) expect(codeOf(yield* me())).toBe("ok")
      yield* TestClock.adjust("499 millis")
      expect(codeOf(yield* me())).toBe(5)
      yield* TestClock.adjust("1 millis")
      for (let i = 0; i < 10; i++) expect(codeOf(yield* me())).toBe("ok")
      expect(codeOf(yield* me())).toBe(5)
      yield* TestClock.adjust("500 millis")
      for (let i = 0; i < 20; i++) expect(codeOf(yield* me())).toBe("ok")
      expect(codeOf(yield* me())).toBe(5)
    }).pipe(withServer()))

  it.effect("L1 concurrent requests never get more than 30 admitted", () =>
    Effect.gen(function*() {
      const answers = yield* Effect.all(Array.from({ length: 60 }, () => me()), { concurrency: "unbounded" })
      expect(answers.filter((a) => codeOf(a) === "ok")).toHaveLength(30)
      expect(answers.filter((a) => codeOf(a) === 5)).toHaveLength(30)
    }).pipe(withServer()))

  it.effect("L2 L5 the 21st creation in a minute gets 5 and nothing is created", () =>
    Effect.gen(function*() {
      const before = yield* varCount
      for (let i = 0; i < 20; i++) expect(codeOf(yield* createVar())).toBe("ok")
      expect(yield* Effect.map(createVar(), (a) => a.body)).toEqual({
        status: "error",
        error: "Слишком много созданий: не более 20 в минуту",
        error_code: 5
      })
      expect(yield* varCount).toBe(before + 20)
    }).pipe(withServer()))

  it.effect("L2 lists/create, vars/create and globalVars/create share one limit across the user's tokens", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 7; i++) {
        expect(codeOf(yield* call("lists/create", { ...main, name: `Список ${i}` }, { pace: 0 }))).toBe("ok")
        expect(codeOf(yield* createVar(tokens.owner))).toBe("ok")
      }
      for (let i = 0; i < 6; i++) {
        const answer = yield* call("globalVars/create", { ...main, title: "Г", name: `g_${i}` }, {
          token: tokens.accountKey,
          version: "v1",
          pace: 0
        })
        expect(codeOf(answer)).toBe("ok")
      }
      expect(codeOf(yield* call("lists/create", { ...main, name: "Лишний" }, { pace: 0 }))).toBe(5)
      // Another user's limit is separate.
      expect(codeOf(yield* createVar(tokens.users))).toBe("ok")
    }).pipe(withServer()))

  it.effect("L2 at most 200 creations a day", () =>
    Effect.gen(function*() {
      yield* exhaustDay
      const error = yield* fails("vars/create", { ...main, title: "t", name: "over_day" }, { pace: 0 })
      expect(error).toEqual({ code: 5, text: "Слишком много созданий: не более 200 в сутки" })
      yield* TestClock.adjust("10 hours")
      expect(codeOf(yield* createVar())).toBe(5)
    }).pipe(withServer()))

  it.effect("L3 every attempt in an accessible community counts, also one with wrong parameters", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 10; i++) {
        expect(codeOf(yield* call("vars/create", { ...main, title: "t", name: "bad.name" }, { pace: 0 }))).toBe(7)
        expect(codeOf(yield* call("vars/create", { ...main, name: "no_title" }, { pace: 0 }))).toBe(7)
      }
      expect(codeOf(yield* createVar())).toBe(5)
    }).pipe(withServer()))

  it.effect("L3 C3 an attempt with a reserved _ parameter in an accessible community counts too", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 20; i++) {
        const reserved = yield* call("vars/create", { ...main, title: "t", name: `r${i}`, _trace: 1 }, { pace: 0 })
        expect(codeOf(reserved)).toBe(7)
      }
      expect(codeOf(yield* createVar())).toBe(5)
      const total = yield* varCount
      yield* TestClock.adjust("1 minute")
      expect(codeOf(yield* createVar())).toBe("ok")
      expect(yield* varCount).toBe(total + 1)
    }).pipe(withServer()))

  it.effect("L3 attempts without a usable community do not count: no access, unknown or missing pair", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 8; i++) {
        const foreign = yield* call("vars/create", { ...DemoFixture.otherCommunity, title: "t", name: `f${i}` }, {
          pace: 0
        })
        expect(codeOf(foreign)).toBe(8)
        expect(codeOf(yield* call("vars/create", { group_id: 1, channel: "VK", title: "t", name: "n" }, { pace: 0 })))
          .toBe(7)
        expect(codeOf(yield* call("vars/create", { group_id: main.group_id, title: "t", name: "n" }, { pace: 0 })))
          .toBe(7)
      }
      yield* TestClock.adjust("1 second")
      for (let i = 0; i < 20; i++) expect(codeOf(yield* createVar())).toBe("ok")
    }).pipe(withServer()))

  it.effect("L4 the minute counter resets at the start of each clock minute, not 60 s after the first", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("59 seconds")
      for (let i = 0; i < 20; i++) expect(codeOf(yield* createVar())).toBe("ok")
      yield* TestClock.adjust("999 millis")
      expect(codeOf(yield* createVar())).toBe(5)
      yield* TestClock.adjust("1 millis")
      for (let i = 0; i < 20; i++) expect(codeOf(yield* createVar())).toBe("ok")
      expect(codeOf(yield* createVar())).toBe(5)
    }).pipe(withServer()))

  it.effect("L4 the daily counter resets at 03:00 Moscow time (00:00 UTC)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 0, 15, 20, 0))
      yield* exhaustDay
      yield* TestClock.setTime(Date.UTC(2026, 0, 15, 23, 59, 59, 999))
      expect(codeOf(yield* createVar())).toBe(5)
      yield* TestClock.setTime(Date.UTC(2026, 0, 16, 0, 0))
      expect(codeOf(yield* createVar())).toBe("ok")
    }).pipe(withServer()))

  it.effect("L5 lists/rename is exempt from the creation limit", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 20; i++) expect(codeOf(yield* createVar())).toBe("ok")
      expect(codeOf(yield* call("lists/create", { ...main, name: "Ещё" }, { pace: 0 }))).toBe(5)
      const renamed = yield* ok("lists/rename", { list_id: DemoFixture.listId, name: "Самые постоянные" }, { pace: 0 })
      expect(renamed.name).toBe("Самые постоянные")
    }).pipe(withServer()))

  it.effect("L5 concurrent creations never create more than the limit allows", () =>
    Effect.gen(function*() {
      const before = yield* varCount
      const answers = yield* Effect.all(Array.from({ length: 28 }, () => createVar()), { concurrency: "unbounded" })
      expect(answers.filter((a) => codeOf(a) === "ok")).toHaveLength(20)
      expect(answers.filter((a) => codeOf(a) === 5)).toHaveLength(8)
      expect(yield* varCount).toBe(before + 20)
    }).pipe(withServer()))
})
