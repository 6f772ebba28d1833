import { Bot, Community, Landing, Mailing, Variable } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import { fails, main, ok, tokens, withServer } from "./support.js"

const keys = (o: object) => Object.keys(o).sort()
const fieldsOf = (schema: { readonly fields: object }) => Object.keys(schema.fields).sort()

describe("resources", () => {
  it.effect("R1 a community has exactly group_id, channel, name, photo, is_owner, archived, deactivated", () =>
    Effect.gen(function*() {
      const page = yield* ok("groups/get", {}, { token: tokens.admin })
      expect(page.items.length).toBeGreaterThan(0)
      for (const c of page.items) {
        expect(keys(c)).toEqual(fieldsOf(Community.Community))
        expect(Schema.is(Schema.encodedSchema(Community.Community))(c)).toBe(true)
        expect(c.is_owner).toBe(false)
      }
      const mine = yield* ok("groups/get", { count: 500 })
      expect(mine.items.some((c: any) => c.archived)).toBe(true)
      expect(mine.items.some((c: any) => c.deactivated)).toBe(true)
      expect(mine.items.every((c: any) => c.is_owner)).toBe(true)
    }).pipe(withServer()))

  it.effect("R2 employee roles are {key, title} with the allowed keys; the owner is not an employee", () =>
    Effect.gen(function*() {
      const page = yield* ok("groups/getEmployees", main)
      const roleKeys = page.items.flatMap((e: any) => e.roles.map((r: any) => r.key))
      expect(new Set(roleKeys)).toEqual(new Set(Object.keys(Community.roleKeys)))
      for (const e of page.items) {
        for (const role of e.roles) {
          expect(keys(role)).toEqual(["key", "title"])
          expect(role.title).toMatch(/[А-Яа-я]/)
        }
        expect(e.user_id).not.toBe(DemoFixture.userIds.owner)
      }
    }).pipe(withServer()))

  it.effect("R3 a bot has exactly id, name, group_id, channel, active, archived, activity_type, create_at", () =>
    Effect.gen(function*() {
      const page = yield* ok("bots/get", { ...main, count: 20 })
      for (const bot of page.items) {
        expect(keys(bot)).toEqual(fieldsOf(Bot.Bot))
        expect([0, 1]).toContain(bot.active)
        expect([0, 1]).toContain(bot.archived)
      }
    }).pipe(withServer()))

  it.effect("R4 bots/getById adds public_id, can_share, is_favorite, time_archived, activity_param, subscription_ids", () =>
    Effect.gen(function*() {
      const bot = yield* ok("bots/getById", { bot_id: DemoFixture.archivedBotId })
      expect(keys(bot)).toEqual(fieldsOf(Bot.BotDetails))
      expect(bot.time_archived).toBeGreaterThan(0)
      const plain = yield* ok("bots/getById", { bot_id: DemoFixture.enableableBotId })
      expect(plain.time_archived).toBe(0)
      expect(plain.public_id).toBeNull()
      expect(plain.activity_param).toBeNull()
      expect(plain.subscription_ids).toEqual([])
    }).pipe(withServer()))

  it.effect("R5 a bot of a subscriber is {id, name, steps[{id, title, step_entered_at, bot_entered_at}]}", () =>
    Effect.gen(function*() {
      const page = yield* ok("contacts/getBots", { ...main, uid: DemoFixture.subscriberUid })
      expect(page.total).toBeGreaterThan(0)
      for (const bot of page.items) {
        expect(keys(bot)).toEqual(["id", "name", "steps"])
        for (const step of bot.steps) {
          expect(keys(step)).toEqual(["bot_entered_at", "id", "step_entered_at", "title"])
        }
      }
    }).pipe(withServer()))

  it.effect("R6 a mailing has exactly the fields of the table", () =>
    Effect.gen(function*() {
      const page = yield* ok("mailings/get", main)
      for (const m of page.items) {
        expect(keys(m)).toEqual(fieldsOf(Mailing.Mailing))
        expect(m.archived).toBe(m.status === 6)
        expect(m.status_name).toMatch(/[А-Яа-я]/)
      }
    }).pipe(withServer()))

  it.effect("R7 a variable definition is {id, title, name, create_at}; its value is {title, name, value}", () =>
    Effect.gen(function*() {
      const page = yield* ok("vars/list", main)
      for (const v of page.items) expect(keys(v)).toEqual(fieldsOf(Variable.VariableDefinition))
      const value = yield* ok("vars/get", { var_id: DemoFixture.variableId, uid: DemoFixture.subscriberUid })
      expect(value).toEqual({ title: "Любимый напиток", name: "favorite_drink", value: "Раф" })
    }).pipe(withServer()))

  it.effect("R7 title and name are at most 120 characters and name is unique in the community", () =>
    Effect.gen(function*() {
      const exactly = "я".repeat(120)
      const created = yield* ok("vars/create", { ...main, title: exactly, name: `n${"a".repeat(119)}` })
      expect(created.title).toBe(exactly)
      const twice = yield* fails("vars/create", { ...main, title: "Ещё", name: "favorite_drink" })
      expect(twice).toEqual({ code: 7, text: "Переменная с таким коротким именем уже существует" })
      const elsewhere = yield* ok("vars/create", {
        ...DemoFixture.mainCommunityTelegram,
        title: "Т",
        name: "favorite_drink"
      })
      expect(elsewhere.name).toBe("favorite_drink")
    }).pipe(withServer()))

  it.effect("R8 a community variable has exactly id, title, name, value, create_at", () =>
    Effect.gen(function*() {
      const page = yield* ok("globalVars/list", main)
      expect(page.total).toBe(3)
      for (const v of page.items) expect(keys(v)).toEqual(fieldsOf(Variable.CommunityVariable))
    }).pipe(withServer()))

  it.effect("R9 a landing has exactly id, title, kind, url, create_at", () =>
    Effect.gen(function*() {
      const page = yield* ok("landings/get", main)
      for (const l of page.items) expect(keys(l)).toEqual(fieldsOf(Landing.Landing))
    }).pipe(withServer()))

  it.effect("R10 users/me answers user_id, auth, client_id", () =>
    Effect.gen(function*() {
      const me = yield* ok("users/me", {}, { token: tokens.admin })
      expect(me).toEqual({
        user_id: DemoFixture.userIds.admin,
        auth: "application_token",
        client_id: "app-crm-connector"
      })
    }).pipe(withServer()))

  it.effect("R11 the blacklist is never addressable by list operations", () =>
    Effect.gen(function*() {
      const add = yield* fails("lists/addUser", { list_id: DemoFixture.blacklistId, uid: DemoFixture.subscriberUid })
      expect(add).toEqual({ code: 7, text: "Список не найден" })
      const lists = yield* ok("lists/get", main)
      expect(lists.items.map((l: any) => l.id)).not.toContain(DemoFixture.blacklistId)
      expect((yield* fails("lists/getUsers", { list_id: DemoFixture.blacklistId })).code).toBe(7)
      expect((yield* fails("lists/rename", { list_id: DemoFixture.blacklistId, name: "Белый" })).code).toBe(7)
    }).pipe(withServer()))
})
