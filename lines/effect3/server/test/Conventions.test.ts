import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import { base, call, expectError, fails, main, ok, sendRequest, tokens, withServer } from "./support.js"

describe("conventions", () => {
  it.effect("C1 an operation is POST {base_url}/{section}/{method} under /external-api/v2", () =>
    Effect.gen(function*() {
      const me = yield* ok("users/me")
      expect(me.user_id).toBe(DemoFixture.userIds.owner)
      const get = yield* sendRequest(
        HttpClientRequest.get(`${base}/v2/users/me`).pipe(HttpClientRequest.bearerToken(tokens.owner))
      )
      expect(expectError(get).code).toBe(1)
    }).pipe(withServer()))

  for (const encoding of ["json", "form", "multipart", "query"] as const) {
    it.effect(`C2 parameters arrive as ${encoding}`, () =>
      Effect.gen(function*() {
        const page = yield* ok("vars/list", { ...main, count: 2 }, { encoding })
        expect(page.items).toHaveLength(2)
        expect(page.total).toBe(4)
        const created = yield* ok("vars/create", { ...main, title: "Размер", name: `size_${encoding}` }, { encoding })
        expect(created.name).toBe(`size_${encoding}`)
      }).pipe(withServer()))
  }

  it.effect("C2 body values win over query values of the same name", () =>
    Effect.gen(function*() {
      const request = HttpClientRequest.post(`${base}/v2/vars/list`).pipe(
        HttpClientRequest.bearerToken(tokens.owner),
        HttpClientRequest.setUrlParams({ group_id: "1", channel: "OK", count: "1" }),
        HttpClientRequest.bodyUnsafeJson({ ...main, count: 3 })
      )
      const answer = yield* sendRequest(request)
      expect(answer.body.response.items).toHaveLength(3)
    }).pipe(withServer()))

  it.effect("C3 a parameter starting with _ is refused with 7, in the body and in the query", () =>
    Effect.gen(function*() {
      const inBody = yield* fails("users/me", { _debug: 1 })
      expect(inBody.code).toBe(7)
      expect(inBody.text).toContain("_debug")
      const inQuery = yield* fails("groups/get", { _: "x" }, { encoding: "query" })
      expect(inQuery.code).toBe(7)
    }).pipe(withServer()))

  it.effect("C4 the HTTP status is 200 on success and on errors", () =>
    Effect.gen(function*() {
      expect((yield* call("users/me")).httpStatus).toBe(200)
      expect((yield* call("users/me", {}, { token: undefined })).httpStatus).toBe(200)
      expect((yield* call("nope/nope")).httpStatus).toBe(200)
      expect((yield* call("vars/create", {})).httpStatus).toBe(200)
    }).pipe(withServer()))

  it.effect("C5 addUser, vars/set, vars/clear, globalVars/clear answer {status: ok} with no response field", () =>
    Effect.gen(function*() {
      const uid = DemoFixture.subscriberUid
      const answers = [
        yield* call("lists/addUser", { list_id: DemoFixture.listId, uid }),
        yield* call("bots/addUser", { bot_id: DemoFixture.activeBotId, uid: uid + 1 }),
        yield* call("vars/set", { var_id: DemoFixture.variableId, uid, value: "Латте" }),
        yield* call("vars/clear", { var_id: DemoFixture.variableId, uid }),
        yield* call("globalVars/clear", { var_id: DemoFixture.communityVariableId })
      ]
      for (const answer of answers) expect(answer.body).toEqual({ status: "ok" })
      const me = yield* call("users/me")
      expect(Object.keys(me.body).sort()).toEqual(["response", "status"])
    }).pipe(withServer()))

  it.effect("C6 an error body is exactly {status, error, error_code} with a Russian text", () =>
    Effect.gen(function*() {
      const error = yield* fails("vars/create", { ...main, name: "x" })
      expect(error).toEqual({ code: 7, text: "Не передан обязательный параметр title" })
    }).pipe(withServer()))

  it.effect("C7 channel accepts lower case and answers upper case; a wrong channel gives 7", () =>
    Effect.gen(function*() {
      const page = yield* ok("groups/get", { channel: "tg" })
      expect(page.items.map((c: any) => c.channel)).toEqual(["TG"])
      const wrong = yield* fails("groups/get", { channel: "FB" })
      expect(wrong).toEqual({ code: 7, text: "Неверный канал" })
      const landings = yield* ok("landings/get", { group_id: main.group_id, channel: "Vk" })
      expect(landings.total).toBe(4)
    }).pipe(withServer()))

  it.effect("C7 C6 an empty optional channel or flag is a wrong value, not a missing required parameter", () =>
    Effect.gen(function*() {
      expect(yield* fails("groups/get", { channel: "" })).toEqual({ code: 7, text: "Неверный канал" })
      expect(yield* fails("bots/get", { channel: "" })).toEqual({ code: 7, text: "Неверный канал" })
      expect(yield* fails("bots/get", { ...main, active: "" })).toEqual({
        code: 7,
        text: "Неверное значение параметра active"
      })
      expect(yield* fails("groups/get", { count: "" }, { encoding: "form" })).toEqual({
        code: 7,
        text: "Неверное значение параметра count"
      })
      // A required parameter sent empty still reads as not passed.
      expect(yield* fails("landings/get", { group_id: main.group_id, channel: "" })).toEqual({
        code: 7,
        text: "Не передан обязательный параметр channel"
      })
    }).pipe(withServer()))

  it.effect("C8 the same group_id in two channels names two communities", () =>
    Effect.gen(function*() {
      const vk = yield* ok("landings/get", DemoFixture.mainCommunity)
      const tg = yield* ok("landings/get", DemoFixture.mainCommunityTelegram)
      expect(vk.total).toBe(4)
      expect(tg.total).toBe(1)
      const missingChannel = yield* fails("landings/get", { group_id: main.group_id })
      expect(missingChannel).toEqual({ code: 7, text: "Не передан обязательный параметр channel" })
    }).pipe(withServer()))

  it.effect("C9 uid is an integer: digits from a form are accepted, other values give 7", () =>
    Effect.gen(function*() {
      const bots = yield* ok("contacts/getBots", { ...main, uid: String(DemoFixture.subscriberUid) }, {
        encoding: "form"
      })
      expect(bots.total).toBeGreaterThan(0)
      for (const uid of ["abc", 1.5, "12x"]) {
        const error = yield* fails("contacts/getBots", { ...main, uid })
        expect(error).toEqual({ code: 7, text: "Неверное значение параметра uid" })
      }
    }).pipe(withServer()))

  it.effect("C10 ids are 24 characters of 0-9a-f; returned as id, sent as <object>_id", () =>
    Effect.gen(function*() {
      const page = yield* ok("bots/get", { ...main, count: 5 })
      for (const bot of page.items) expect(bot.id).toMatch(/^[0-9a-f]{24}$/)
      const byId = yield* ok("bots/getById", { bot_id: page.items[0].id })
      expect(byId.id).toBe(page.items[0].id)
      for (const bad of ["B0000000000000000000027F", "b0000000000000000000027", "zz0000000000000000000000"]) {
        expect((yield* fails("bots/getById", { bot_id: bad })).code).toBe(7)
      }
    }).pipe(withServer()))

  it.effect("C11 response dates are unix seconds (integers)", () =>
    Effect.gen(function*() {
      const mailings = yield* ok("mailings/get", main)
      for (const m of mailings.items) {
        expect(Number.isInteger(m.create_at)).toBe(true)
        expect(Number.isInteger(m.date_send)).toBe(true)
      }
      const created = yield* ok("vars/create", { ...main, title: "Дата", name: "date_x" })
      expect(Number.isInteger(created.create_at)).toBe(true)
    }).pipe(withServer()))

  it.effect("C12 list operations answer {items, total}; total counts every page", () =>
    Effect.gen(function*() {
      const first = yield* ok("bots/get", { ...main, count: 10 })
      expect(Object.keys(first).sort()).toEqual(["items", "total"])
      expect(first.items).toHaveLength(10)
      expect(first.total).toBe(DemoFixture.mainBotCount)
    }).pipe(withServer()))

  it.effect("C13 count defaults to 100 and is clamped to 500; offset defaults to 0; out of range gives 7", () =>
    Effect.gen(function*() {
      expect((yield* ok("bots/get", main)).items).toHaveLength(100)
      expect((yield* ok("bots/get", { ...main, count: 10_000 })).items).toHaveLength(500)
      const rest = yield* ok("bots/get", { ...main, count: 500, offset: 500 })
      expect(rest.items).toHaveLength(DemoFixture.mainBotCount - 500)
      const all = yield* ok("bots/get", { ...main, count: 1 })
      const skipped = yield* ok("bots/get", { ...main, count: 1, offset: 0 })
      expect(skipped.items).toEqual(all.items)
      expect(yield* fails("bots/get", { ...main, count: 0 })).toEqual({
        code: 7,
        text: "Неверное значение параметра count"
      })
      expect((yield* fails("bots/get", { ...main, offset: -1 })).code).toBe(7)
      const beyond = yield* ok("bots/get", { ...main, offset: 10_000 })
      expect(beyond).toEqual({ items: [], total: DemoFixture.mainBotCount })
    }).pipe(withServer()))

  it.effect("C13 a count of any size above 500 is replaced by 500; any offset past the end gives an empty page", () =>
    Effect.gen(function*() {
      for (const count of [1e20, "9999999999999999", "100000000000000000000", Number.MAX_SAFE_INTEGER + 1]) {
        expect((yield* ok("bots/get", { ...main, count })).items).toHaveLength(500)
      }
      expect((yield* ok("bots/get", { ...main, count: "100000000000000000000" }, { encoding: "form" })).items)
        .toHaveLength(500)
      for (const offset of [1e20, "100000000000000000000"]) {
        expect(yield* ok("bots/get", { ...main, offset })).toEqual({ items: [], total: DemoFixture.mainBotCount })
      }
      expect((yield* fails("bots/get", { ...main, count: -1e20 })).code).toBe(7)
      expect((yield* fails("bots/get", { ...main, count: 600.5 })).code).toBe(7)
      expect((yield* fails("bots/get", { ...main, offset: "1e30" })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("C14 newest records come first", () =>
    Effect.gen(function*() {
      const bots = yield* ok("bots/get", { ...main, count: 500 })
      const times = bots.items.map((b: any) => b.create_at)
      expect(times).toEqual([...times].sort((a, b) => b - a))
      yield* TestClock.setTime(Date.UTC(2026, 0, 15))
      const created = yield* ok("vars/create", { ...main, title: "Новая", name: "newest" })
      const vars = yield* ok("vars/list", main)
      expect(vars.items[0].id).toBe(created.id)
    }).pipe(withServer()))
})
