import { Operations, Variable } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { call, fails, main, ok, other, tokens, withServer } from "./support.js"

const uid = DemoFixture.subscriberUid

describe("endpoints", () => {
  it.effect("E1 users/me takes no parameters and answers for any valid token; 4 without one, 9 when keys cannot be checked", () =>
    Effect.gen(function*() {
      expect((yield* ok("users/me", {}, { token: tokens.noRole })).user_id).toBe(DemoFixture.userIds.noRole)
      expect((yield* fails("users/me", {}, { token: undefined })).code).toBe(4)
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ keyServiceUnavailable: { next: 1 } })
      expect((yield* fails("users/me")).code).toBe(9)
      expect((yield* ok("users/me")).user_id).toBe(DemoFixture.userIds.owner)
    }).pipe(withServer()))

  it.effect("E2 groups/get lists own and employee communities of all channels, newest connected first", () =>
    Effect.gen(function*() {
      const owner = yield* ok("groups/get")
      expect(new Set(owner.items.map((c: any) => c.channel))).toEqual(
        new Set(["VK", "TG", "OK", "MAX", "CHAT", "AVITO"])
      )
      expect(owner.total).toBe(7)
      expect(owner.items[0]).toMatchObject(DemoFixture.siteChat)
      expect(owner.items.at(-1)).toMatchObject(DemoFixture.deactivatedCommunity)
      const stat = yield* ok("groups/get", {}, { token: tokens.stat })
      expect(stat.items.map((c: any) => c.group_id)).toEqual([DemoFixture.bookClub.group_id, main.group_id])
      const none = yield* ok("groups/get", {}, { token: tokens.noRole })
      expect(none).toEqual({ items: [], total: 0 })
    }).pipe(withServer()))

  it.effect("E2 groups/get filters by channel and by a case-insensitive part of the name, and pages", () =>
    Effect.gen(function*() {
      const search = yield* ok("groups/get", { search: "ЗЕРНО" })
      expect(search.total).toBe(3)
      const vk = yield* ok("groups/get", { search: "зерно", channel: "vk" })
      expect(vk.total).toBe(2)
      const page = yield* ok("groups/get", { count: 2, offset: 1 })
      expect(page.items).toHaveLength(2)
      expect(page.total).toBe(7)
    }).pipe(withServer()))

  it.effect("E3 groups/getEmployees lists employees newest first, without the owner; 7 and 8 as listed", () =>
    Effect.gen(function*() {
      const page = yield* ok("groups/getEmployees", main, { token: tokens.admin })
      expect(page.total).toBe(7)
      const added = page.items.map((e: any) => e.user_id)
      expect(added[0]).toBe(DemoFixture.userIds.crm)
      expect(added.at(-1)).toBe(DemoFixture.userIds.admin)
      expect((yield* fails("groups/getEmployees", main, { token: tokens.mailer })).code).toBe(8)
      expect((yield* fails("groups/getEmployees", other)).code).toBe(8)
      expect(yield* fails("groups/getEmployees", { group_id: 1, channel: "VK" })).toEqual({
        code: 7,
        text: "Сообщество не найдено"
      })
      expect((yield* fails("groups/getEmployees", { channel: "VK" })).text).toBe(
        "Не передан обязательный параметр group_id"
      )
      expect((yield* fails("groups/getEmployees", { group_id: "x", channel: "VK" })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("E4 bots/get filters by active, archived and search, and pages", () =>
    Effect.gen(function*() {
      const active = yield* ok("bots/get", { ...main, active: 1, count: 500 })
      expect(active.items.every((b: any) => b.active === 1)).toBe(true)
      const archived = yield* ok("bots/get", { ...main, archived: 1, count: 500 })
      expect(archived.total).toBe(64)
      expect(archived.items.every((b: any) => b.archived === 1)).toBe(true)
      const search = yield* ok("bots/get", { ...main, search: "БРОНИРОВАНИЕ", count: 500 })
      expect(search.total).toBe(64)
      expect((yield* fails("bots/get", { ...main, active: 2 })).text).toBe("Неверное значение параметра active")
      expect((yield* fails("bots/get", { ...main, archived: "yes" })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("E4 bots/get without group_id lists bots of every community whose bots section is open", () =>
    Effect.gen(function*() {
      const owner = yield* ok("bots/get", { count: 1 })
      expect(owner.total).toBe(DemoFixture.mainBotCount + 25 + 3)
      const mailer = yield* ok("bots/get", { count: 1 }, { token: tokens.mailer })
      expect(mailer.total).toBe(DemoFixture.mainBotCount + 3)
      const tgOnly = yield* ok("bots/get", { channel: "TG", count: 1 })
      expect(tgOnly.total).toBe(25)
      const users = yield* ok("bots/get", { count: 1 }, { token: tokens.users })
      expect(users.total).toBe(0)
    }).pipe(withServer()))

  it.effect("E4 bots/get: 7 for an unknown community and for a group_id in several channels without channel", () =>
    Effect.gen(function*() {
      expect((yield* fails("bots/get", { group_id: 42, channel: "VK" })).code).toBe(7)
      expect((yield* fails("bots/get", { group_id: 42 })).text).toBe("Сообщество не найдено")
      const ambiguous = yield* fails("bots/get", { group_id: main.group_id })
      expect(ambiguous.code).toBe(7)
      expect(ambiguous.text).toContain("нескольких каналах")
      const single = yield* ok("bots/get", { group_id: DemoFixture.archivedCommunity.group_id })
      expect(single.total).toBe(3)
    }).pipe(withServer()))

  it.effect("E5 bots/getById: 7 when no bot has the id or it is another community's", () =>
    Effect.gen(function*() {
      expect(yield* fails("bots/getById", { bot_id: "0".repeat(24) })).toEqual({ code: 7, text: "Бот не найден" })
      expect(yield* fails("bots/getById", { bot_id: DemoFixture.otherCommunityBotId })).toEqual({
        code: 7,
        text: "Бот не найден"
      })
      expect((yield* fails("bots/getById", {})).text).toBe("Не передан обязательный параметр bot_id")
    }).pipe(withServer()))

  it.effect("E6 bots/enable and bots/disable: 7 for a missing, malformed or foreign bot_id", () =>
    Effect.gen(function*() {
      for (const path of ["bots/enable", "bots/disable"]) {
        expect((yield* fails(path, {})).code).toBe(7)
        expect((yield* fails(path, { bot_id: "short" })).code).toBe(7)
        expect((yield* fails(path, { bot_id: DemoFixture.otherCommunityBotId })).text).toBe("Бот не найден")
      }
    }).pipe(withServer()))

  it.effect("E7 mailings/get: group_id and channel required; 7 on a wrong pair or status", () =>
    Effect.gen(function*() {
      const page = yield* ok("mailings/get", main)
      expect(page.total).toBe(21)
      expect((yield* fails("mailings/get", { group_id: main.group_id })).code).toBe(7)
      expect((yield* fails("mailings/get", { group_id: 5, channel: "OK" })).text).toBe("Сообщество не найдено")
      expect((yield* fails("mailings/get", { ...main, status: 9 })).code).toBe(7)
      const tg = yield* ok("mailings/get", DemoFixture.mainCommunityTelegram)
      expect(tg.total).toBe(4)
    }).pipe(withServer()))

  it.effect("E8 lists/addUser adds a subscriber; 7 for a missing, foreign or malformed list and an unknown uid", () =>
    Effect.gen(function*() {
      const newcomer = uid + 1000
      expect(yield* call("lists/addUser", { list_id: DemoFixture.listId, uid: newcomer }, { token: tokens.users }))
        .toMatchObject({ body: { status: "ok" } })
      const members = yield* ok("lists/getUsers", { list_id: DemoFixture.listId, count: 1 })
      expect(members.items).toEqual([{ uid: newcomer }])
      expect((yield* fails("lists/addUser", { list_id: DemoFixture.otherCommunityListId, uid })).text).toBe(
        "Список не найден"
      )
      expect((yield* fails("lists/addUser", { list_id: "1c", uid })).code).toBe(7)
      expect((yield* fails("lists/addUser", { uid })).text).toBe("Не передан обязательный параметр list_id")
      expect(yield* fails("lists/addUser", { list_id: DemoFixture.listId, uid: 5 })).toEqual({
        code: 7,
        text: "Подписчик не найден"
      })
      expect((yield* fails("lists/addUser", { list_id: DemoFixture.listId, uid: "x" })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("E9 contacts/getBots lists the bots working with a subscriber; 7 on a missing parameter or unknown uid", () =>
    Effect.gen(function*() {
      const page = yield* ok("contacts/getBots", { ...main, uid })
      expect(page.total).toBe(3)
      const times = page.items.map((b: any) => b.steps[0].bot_entered_at)
      expect(times).toEqual([...times].sort((a, b) => b - a))
      expect((yield* fails("contacts/getBots", main)).text).toBe("Не передан обязательный параметр uid")
      expect((yield* fails("contacts/getBots", { ...main, uid: 1 })).text).toBe("Подписчик не найден")
      expect(yield* ok("contacts/getBots", { ...main, uid: uid + 900 })).toEqual({ items: [], total: 0 })
    }).pipe(withServer()))

  it.effect("E10 vars/list lists definitions; 7 on a missing or wrong pair", () =>
    Effect.gen(function*() {
      expect((yield* ok("vars/list", main)).total).toBe(4)
      expect((yield* fails("vars/list", {})).code).toBe(7)
      expect((yield* fails("vars/list", { ...main, channel: "XX" })).text).toBe("Неверный канал")
    }).pipe(withServer()))

  it.effect("E11 vars/create creates a variable whose id works as var_id", () =>
    Effect.gen(function*() {
      const created = yield* ok("vars/create", { ...main, title: "Размер чашки", name: "cup_size" }, {
        token: tokens.users
      })
      expect(created).toMatchObject({ title: "Размер чашки", name: "cup_size" })
      expect(yield* ok("vars/get", { var_id: created.id, uid })).toEqual({
        title: "Размер чашки",
        name: "cup_size",
        value: ""
      })
    }).pipe(withServer()))

  it.effect("E11 vars/create: 7 for missing or empty title and name and for a text over 120 characters", () =>
    Effect.gen(function*() {
      expect((yield* fails("vars/create", { ...main, name: "a" })).text).toBe("Не передан обязательный параметр title")
      expect((yield* fails("vars/create", { ...main, title: "a" })).text).toBe("Не передан обязательный параметр name")
      expect((yield* fails("vars/create", { ...main, title: "", name: "a" })).text).toBe(
        "Не передан обязательный параметр title"
      )
      expect((yield* fails("vars/create", { ...main, title: "a".repeat(121), name: "a" })).text).toBe(
        "Максимальная длина параметра title — 120 символов"
      )
      expect((yield* fails("vars/create", { ...main, title: "a", name: "a".repeat(121) })).text).toBe(
        "Максимальная длина параметра name — 120 символов"
      )
    }).pipe(withServer()))

  it.effect("E11 vars/create: 7 quoting each forbidden character of name and the sequence _NAME", () =>
    Effect.gen(function*() {
      for (const char of Variable.forbiddenNameCharacters) {
        const error = yield* fails("vars/create", { ...main, title: "t", name: `a${char}b` }, { pace: 1000 })
        expect(error).toEqual({ code: 7, text: `Недопустимый символ "${char}" в коротком имени` })
      }
      const sequence = yield* fails("vars/create", { ...main, title: "t", name: "USER_NAME" })
      expect(sequence.text).toBe("Недопустимая последовательность \"_NAME\" в коротком имени")
      const lower = yield* ok("vars/create", { ...main, title: "t", name: "user_name" })
      expect(lower.name).toBe("user_name")
    }).pipe(withServer()))

  it.effect("E12 vars/get answers {title, name, value}; 7 for a missing or foreign variable or no uid", () =>
    Effect.gen(function*() {
      expect((yield* ok("vars/get", { var_id: DemoFixture.variableId, uid: uid + 5 })).value).toBe("")
      expect((yield* fails("vars/get", { var_id: DemoFixture.otherCommunityVariableId, uid })).text).toBe(
        "Переменная не найдена"
      )
      expect((yield* fails("vars/get", { var_id: "f".repeat(24), uid })).text).toBe("Переменная не найдена")
      expect((yield* fails("vars/get", { var_id: DemoFixture.variableId })).text).toBe(
        "Не передан обязательный параметр uid"
      )
    }).pipe(withServer()))

  it.effect("E13 vars/clear erases one subscriber's value; 7 as listed", () =>
    Effect.gen(function*() {
      expect(yield* call("vars/clear", { var_id: DemoFixture.variableId, uid })).toMatchObject({
        body: { status: "ok" }
      })
      expect((yield* ok("vars/get", { var_id: DemoFixture.variableId, uid })).value).toBe("")
      expect((yield* fails("vars/clear", { var_id: DemoFixture.variableId, uid: "abc" })).code).toBe(7)
      expect((yield* fails("vars/clear", { uid })).code).toBe(7)
      expect((yield* fails("vars/clear", { var_id: DemoFixture.otherCommunityVariableId, uid })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("E14 globalVars/list lists community variables; 7 on a missing or wrong pair", () =>
    Effect.gen(function*() {
      const page = yield* ok("globalVars/list", main)
      expect(page.items.map((v: any) => v.name)).toEqual(["promo_code", "hours", "address"])
      expect((yield* fails("globalVars/list", { channel: "VK" })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("E15 globalVars/clear erases a community variable; 7 when missing or another community's", () =>
    Effect.gen(function*() {
      expect(yield* call("globalVars/clear", { var_id: DemoFixture.communityVariableId })).toMatchObject({
        body: { status: "ok" }
      })
      const page = yield* ok("globalVars/list", main)
      expect(page.items.find((v: any) => v.id === DemoFixture.communityVariableId).value).toBe("")
      expect((yield* fails("globalVars/clear", { var_id: DemoFixture.otherCommunityCommunityVariableId })).code).toBe(7)
      expect((yield* fails("globalVars/clear", {})).code).toBe(7)
    }).pipe(withServer()))

  it.effect("E16 landings/get lists landings for the owner and employees with any role; 7 on a wrong pair", () =>
    Effect.gen(function*() {
      for (const token of [tokens.owner, tokens.stat, tokens.crm, tokens.integrations]) {
        expect((yield* ok("landings/get", main, { token })).total).toBe(4)
      }
      expect((yield* fails("landings/get", main, { token: tokens.noRole })).code).toBe(8)
      expect((yield* fails("landings/get", { group_id: main.group_id })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("E17 every listed operation exists: never error 1 or 3, on v2 and v1", () =>
    Effect.gen(function*() {
      for (const op of Operations.undocumented) {
        for (const version of ["v2", "v1"] as const) {
          const answer = yield* call(op.path, {}, { version, pace: 1000 })
          if (answer.body.status === "error") expect([1, 3]).not.toContain(answer.body.error_code)
        }
      }
    }).pipe(withServer()))

  it.effect("E17 operations go through authentication and roles: 4 without a token, 8 without the role", () =>
    Effect.gen(function*() {
      for (const op of Operations.undocumented) {
        expect((yield* fails(op.path, {}, { token: undefined, pace: 1000 })).code).toBe(4)
        expect((yield* fails(op.path, main, { token: tokens.noRole, pace: 1000 })).code).toBe(8)
      }
      expect((yield* fails("stats/getAdsSubscribes", {}, { token: tokens.mailer })).code).toBe(8)
      expect((yield* fails("stats/getAdsSubscribes", {}, { token: tokens.stat })).code).toBe(6)
    }).pipe(withServer()))

  it.effect("E17 operations the server does not model answer 6 saying so", () =>
    Effect.gen(function*() {
      for (const path of ["bots/getSteps", "attachments/getById", "funnels/get", "stats/getMailingsStats"]) {
        const error = yield* fails(path, main)
        expect(error).toEqual({ code: 6, text: `Метод ${path} не моделируется эталонным сервером` })
      }
    }).pipe(withServer()))

  it.effect("E17 vars/set stores what vars/get returns", () =>
    Effect.gen(function*() {
      expect(yield* call("vars/set", { var_id: DemoFixture.variableId, uid: uid + 7, value: "Флэт уайт" }))
        .toMatchObject({ body: { status: "ok" } })
      expect((yield* ok("vars/get", { var_id: DemoFixture.variableId, uid: uid + 7 })).value).toBe("Флэт уайт")
      expect((yield* fails("vars/set", { var_id: DemoFixture.variableId, uid })).text).toBe(
        "Не передан обязательный параметр value"
      )
    }).pipe(withServer()))

  it.effect("E17 lists/create, lists/get, lists/rename and lists/getUsers work together", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 0, 15))
      const created = yield* ok("lists/create", { ...main, name: "Гости выходного дня" })
      expect(created.id).toMatch(/^[0-9a-f]{24}$/)
      const lists = yield* ok("lists/get", main)
      expect(lists.items[0]).toEqual(created)
      const renamed = yield* ok("lists/rename", { list_id: created.id, name: "Гости субботы" })
      expect(renamed.name).toBe("Гости субботы")
      expect(yield* ok("lists/getUsers", { list_id: created.id })).toEqual({ items: [], total: 0 })
    }).pipe(withServer()))

  it.effect("E17 globalVars/create, get and set; bots/addUser shows in contacts/getBots; mailings/getById", () =>
    Effect.gen(function*() {
      const created = yield* ok("globalVars/create", { ...main, title: "Wi-Fi", name: "wifi", value: "zerno2024" })
      expect(yield* ok("globalVars/get", { var_id: created.id })).toEqual(created)
      const set = yield* ok("globalVars/set", { var_id: created.id, value: "zerno2026" })
      expect(set.value).toBe("zerno2026")
      expect((yield* fails("globalVars/create", { ...main, title: "Дубль", name: "wifi" })).code).toBe(7)
      const newcomer = uid + 500
      yield* call("bots/addUser", { bot_id: DemoFixture.enableableBotId, uid: newcomer })
      const bots = yield* ok("contacts/getBots", { ...main, uid: newcomer })
      expect(bots.items.map((b: any) => b.id)).toEqual([DemoFixture.enableableBotId])
      const mailing = yield* ok("mailings/getById", { mailing_id: DemoFixture.mailingId })
      expect(mailing.id).toBe(DemoFixture.mailingId)
    }).pipe(withServer()))
})
