/**
 * The Effect 4 line's client against the reference server, as the Effect 3 line's suite of the same
 * name proves it there.
 */
import * as Demo from "@community-api/core/DemoData"
import { Dates, Ids, Operations } from "@community-api/effect4-schema"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Result, Schema, Stream } from "effect"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as Reference from "./support/Reference.js"

const { tokens } = Demo
const main = {
  group_id: Schema.decodeSync(Ids.GroupId)(Demo.mainCommunity.group_id),
  channel: Demo.mainCommunity.channel
}
const uid = Schema.decodeSync(Ids.Uid)(Demo.subscriberUid)
const Client = CommunityApiClient.CommunityApiClient

const codeOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(effect), (error) => (error as { code?: number }).code)

describe("Operations against the reference server", () => {
  it.effect("E1 R10 users/me tells whose token it is", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const me = yield* client.users.me()
      expect(me.user_id).toBe(Demo.userIds.owner)
      expect(typeof me.auth).toBe("string")
      expect(typeof me.client_id).toBe("string")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E1 A4 A7 an expired, revoked, unknown, empty or other product's token or the old account key gives 4", () =>
    Effect.gen(function*() {
      for (const token of [tokens.expired, tokens.revoked, tokens.otherProduct, tokens.accountKey, "thp_unknown", ""]) {
        const client = yield* Reference.as(token)
        const error = yield* Effect.flip(client.users.me())
        expect(error._tag).toBe("InvalidTokenError")
      }
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E2 R1 C7 groups/get lists the caller's communities; channel filter, search, wrong channel gives 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const all = yield* client.groups.get()
      expect(all.total).toBeGreaterThan(1)
      expect(all.items.some((c) => c.group_id === main.group_id && c.channel === "VK" && c.is_owner)).toBe(true)
      const telegram = yield* client.groups.get({ channel: "TG" })
      expect(telegram.items.every((c) => c.channel === "TG")).toBe(true)
      const lower = yield* client.call("groups/get", { channel: "tg" })
      expect((lower as { total: number }).total).toBe(telegram.total)
      expect(yield* codeOf(client.call("groups/get", { channel: "XX" }))).toBe(7)
      const name = all.items[0]!.name
      const found = yield* client.groups.get({ search: name.slice(0, 4).toUpperCase() })
      expect(found.items.some((c) => c.name === name)).toBe(true)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E3 R2 A8 groups/getEmployees: roles for owner and admin, 8 for others, 7 without the pair", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const employees = yield* client.groups.getEmployees(main)
      expect(employees.total).toBeGreaterThan(0)
      expect(employees.items.every((e) => Array.isArray(e.roles))).toBe(true)
      const admin = yield* Reference.as(tokens.admin)
      expect((yield* admin.groups.getEmployees(main)).total).toBe(employees.total)
      const mailer = yield* Reference.as(tokens.mailer)
      expect((yield* Effect.flip(mailer.groups.getEmployees(main)))._tag).toBe("AccessDeniedError")
      expect(yield* codeOf(client.call("groups/getEmployees", { group_id: main.group_id }))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E4 R3 C11 C12 bots/get pages and streams all 640 bots of a community with no duplicates", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const first = yield* client.bots.get({ ...main, count: 10 })
      expect(first.total).toBe(Demo.mainBotCount)
      expect(first.items).toHaveLength(10)
      expect(DateTime.isDateTime(first.items[0]!.create_at)).toBe(true)
      const bots = yield* Stream.runCollect(client.streams.bots.get(main))
      expect(bots).toHaveLength(Demo.mainBotCount)
      expect(new Set(bots.map((b) => b.id)).size).toBe(Demo.mainBotCount)
      const active = yield* client.bots.get({ ...main, active: 1, count: 500 })
      expect(active.items.every((b) => b.active === 1)).toBe(true)
      expect(yield* codeOf(client.call("bots/get", { ...main, active: 2 }))).toBe(7)
      expect(yield* codeOf(client.call("bots/get", { group_id: 999, channel: "VK" }))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E4 bots/get without group_id lists bots of every community open to the caller", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const page = yield* client.bots.get({ count: 1 })
      expect(page.total).toBeGreaterThan(Demo.mainBotCount)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E3 E4 E7 C8 no such community, or a group_id in several channels without channel, gives 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const nowhere = { group_id: 123, channel: "VK" }
      expect(yield* codeOf(client.call("groups/getEmployees", nowhere))).toBe(7)
      expect(yield* codeOf(client.call("mailings/get", nowhere))).toBe(7)
      expect(yield* codeOf(client.call("bots/get", nowhere))).toBe(7)
      // The main community's number exists in VK and in Telegram.
      expect(yield* codeOf(client.call("bots/get", { group_id: main.group_id }))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E8 E11 E13 a malformed list id, an empty name, a uid that is not a number give 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      expect(yield* codeOf(client.call("lists/addUser", { list_id: "xyz", uid }))).toBe(7)
      expect(yield* codeOf(client.call("vars/create", { ...main, title: "t", name: "" }))).toBe(7)
      expect(yield* codeOf(client.call("vars/clear", { var_id: Demo.variableId, uid: "abc" }))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("A3 when the header and api_key are both sent, the header decides", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const me = yield* client.call("users/me", { api_key: tokens.revoked })
      expect((me as { user_id: number }).user_id).toBe(Demo.userIds.owner)
      const revoked = yield* Reference.as(tokens.revoked)
      const error = yield* Effect.flip(revoked.call("users/me", { api_key: tokens.owner }))
      expect(error._tag).toBe("InvalidTokenError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E5 R4 A11 bots/getById gives the details; another community's bot is 7 like a missing one", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const bot = yield* client.bots.getById({ bot_id: Schema.decodeSync(Ids.BotId)(Demo.activeBotId) })
      expect(bot.id).toBe(Demo.activeBotId)
      expect(typeof bot.can_share).toBe("boolean")
      expect(Array.isArray(bot.subscription_ids)).toBe(true)
      const other = yield* Effect.flip(
        client.bots.getById({ bot_id: Schema.decodeSync(Ids.BotId)(Demo.otherCommunityBotId) })
      )
      const missing = yield* Effect.flip(client.bots.getById({ bot_id: Schema.decodeSync(Ids.BotId)("f".repeat(24)) }))
      expect(other._tag).toBe("InvalidParameterError")
      expect(missing._tag).toBe("InvalidParameterError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E6 S1 S4 bots/enable turns a bot on and bots/disable off, each returning the bot", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const bot_id = Schema.decodeSync(Ids.BotId)(Demo.enableableBotId)
      expect((yield* client.bots.enable({ bot_id })).active).toBe(1)
      expect((yield* client.bots.getById({ bot_id })).active).toBe(1)
      expect((yield* client.bots.disable({ bot_id })).active).toBe(0)
      expect((yield* client.bots.getById({ bot_id })).active).toBe(0)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E6 S2 S3 enable fails with 6 when the bot cannot be enabled and 8 in an archived community", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const cannot = yield* Effect.flip(
        client.bots.enable({ bot_id: Schema.decodeSync(Ids.BotId)(Demo.cannotEnableBotId) })
      )
      expect(cannot._tag).toBe("ActionFailedError")
      const archived = yield* Effect.flip(
        client.bots.enable({ bot_id: Schema.decodeSync(Ids.BotId)(Demo.archivedCommunityBotId) })
      )
      expect(archived._tag).toBe("AccessDeniedError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E6 A11 C10 enable: another community's bot, a malformed or missing id give 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      expect(
        (yield* Effect.flip(client.bots.enable({ bot_id: Schema.decodeSync(Ids.BotId)(Demo.otherCommunityBotId) })))
          ._tag
      ).toBe(
        "InvalidParameterError"
      )
      expect(yield* codeOf(client.call("bots/enable", { bot_id: "xyz" }))).toBe(7)
      expect(yield* codeOf(client.call("bots/disable", {}))).toBe(7)
      // The typed method refuses a malformed id before sending anything.
      const local = yield* Effect.flip(client.bots.enable({ bot_id: "xyz" as Ids.BotId }))
      expect(local._tag).toBe("RequestEncodeError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E7 S5 R6 mailings/get lists mailings, filters by status, refuses status 5", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const all = yield* client.mailings.get(main)
      expect(all.total).toBeGreaterThan(0)
      const finished = yield* client.mailings.get({ ...main, status: 3 })
      expect(finished.items.length).toBeGreaterThan(0)
      expect(finished.items.every((m) => m.status === 3)).toBe(true)
      expect(yield* codeOf(client.call("mailings/get", { ...main, status: 5 }))).toBe(7)
      expect(yield* codeOf(client.call("mailings/get", {}))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E8 R11 lists/addUser adds a subscriber; the blacklist, another community's list and a stranger give 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const result = yield* client.lists.addUser({ list_id: Schema.decodeSync(Ids.ListId)(Demo.listId), uid })
      expect(result).toBeUndefined()
      for (const list_id of [Demo.blacklistId, Demo.otherCommunityListId]) {
        expect(
          (yield* Effect.flip(client.lists.addUser({ list_id: Schema.decodeSync(Ids.ListId)(list_id), uid })))._tag
        ).toBe(
          "InvalidParameterError"
        )
      }
      const stranger = yield* Effect.flip(
        client.lists.addUser({
          list_id: Schema.decodeSync(Ids.ListId)(Demo.listId),
          uid: Schema.decodeSync(Ids.Uid)(Demo.otherCommunitySubscriberUid)
        })
      )
      expect(stranger._tag).toBe("InvalidParameterError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E9 R5 contacts/getBots lists a subscriber's bots; an unknown subscriber gives 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const bots = yield* client.contacts.getBots({ ...main, uid })
      expect(bots.total).toBe(bots.items.length)
      for (const bot of bots.items) {
        for (const step of bot.steps) expect(DateTime.isDateTime(step.step_entered_at)).toBe(true)
      }
      const unknown = yield* Effect.flip(client.contacts.getBots({ ...main, uid: Schema.decodeSync(Ids.Uid)(1) }))
      expect(unknown._tag).toBe("InvalidParameterError")
      expect(yield* codeOf(client.call("contacts/getBots", main))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E10 R7 vars/list lists the variable definitions; a wrong pair gives 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const vars = yield* client.vars.list(main)
      expect(vars.items.some((v) => v.id === Demo.variableId)).toBe(true)
      expect(yield* codeOf(client.call("vars/list", { group_id: main.group_id, channel: "AVITO" }))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E11 R7 vars/create creates a variable; the same short name again gives 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const created = yield* client.vars.create({ ...main, title: "Любимый напиток", name: "cup_size_pref" })
      expect(created.name).toBe("cup_size_pref")
      expect(DateTime.isDateTime(created.create_at)).toBe(true)
      const again = yield* Effect.flip(client.vars.create({ ...main, title: "Ещё раз", name: "cup_size_pref" }))
      expect(again._tag).toBe("InvalidParameterError")
      const listed = yield* client.vars.list(main)
      expect(listed.items.filter((v) => v.name === "cup_size_pref")).toHaveLength(1)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E11 vars/create: missing title, over 120 characters, a forbidden character (quoted) give 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      expect(yield* codeOf(client.call("vars/create", { ...main, name: "x" }))).toBe(7)
      expect(yield* codeOf(client.call("vars/create", { ...main, title: "t".repeat(121), name: "x" }))).toBe(7)
      for (const char of [".", "{", "%", "`", "_NAME"]) {
        const error = yield* Effect.flip(client.call("vars/create", { ...main, title: "t", name: `a${char}b` }))
        expect(error).toMatchObject({ code: 7 })
        expect((error as { text: string }).text).toContain(char)
      }
      // The typed method checks the same rule before sending.
      const local = yield* Effect.flip(client.vars.create({ ...main, title: "t", name: "a.b" }))
      expect(local._tag).toBe("RequestEncodeError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E12 E13 vars/get gives a subscriber's value, vars/clear erases it; another community's variable is 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const var_id = Schema.decodeSync(Ids.VariableId)(Demo.variableId)
      const value = yield* client.vars.get({ var_id, uid })
      expect(typeof value.name).toBe("string")
      expect(yield* client.vars.clear({ var_id, uid })).toBeUndefined()
      expect((yield* client.vars.get({ var_id, uid })).value).toBe("")
      const other = Schema.decodeSync(Ids.VariableId)(Demo.otherCommunityVariableId)
      expect((yield* Effect.flip(client.vars.get({ var_id: other, uid })))._tag).toBe("InvalidParameterError")
      expect((yield* Effect.flip(client.vars.clear({ var_id: other, uid })))._tag).toBe("InvalidParameterError")
      expect(yield* codeOf(client.call("vars/get", { var_id }))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E14 E15 R8 globalVars/list lists community variables; globalVars/clear erases one; others' are 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const listed = yield* client.globalVars.list(main)
      expect(listed.items.some((v) => v.id === Demo.communityVariableId)).toBe(true)
      expect(
        yield* client.globalVars.clear({ var_id: Schema.decodeSync(Ids.CommunityVariableId)(Demo.communityVariableId) })
      )
        .toBeUndefined()
      const after = yield* client.globalVars.list(main)
      expect(after.items.find((v) => v.id === Demo.communityVariableId)!.value).toBe("")
      const other = Schema.decodeSync(Ids.CommunityVariableId)(Demo.otherCommunityCommunityVariableId)
      expect((yield* Effect.flip(client.globalVars.clear({ var_id: other })))._tag).toBe("InvalidParameterError")
      expect(yield* codeOf(client.call("globalVars/list", {}))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E16 R9 A9 landings/get: owner and any role; a wrong pair gives 7", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const landings = yield* client.landings.get(main)
      expect(landings.total).toBeGreaterThan(0)
      const stat = yield* Reference.as(tokens.stat)
      expect((yield* stat.landings.get(main)).total).toBe(landings.total)
      expect(yield* codeOf(client.call("landings/get", { group_id: main.group_id }))).toBe(7)
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("A8 A9 A12 roles: mailer reaches bots not vars, users reaches vars not bots, no role gets 8", () =>
    Effect.gen(function*() {
      const mailer = yield* Reference.as(tokens.mailer)
      const users = yield* Reference.as(tokens.users)
      const noRole = yield* Reference.as(tokens.noRole)
      expect((yield* mailer.bots.get({ ...main, count: 1 })).total).toBe(Demo.mainBotCount)
      expect((yield* Effect.flip(mailer.vars.list(main)))._tag).toBe("AccessDeniedError")
      expect((yield* users.vars.list(main)).total).toBeGreaterThan(0)
      expect((yield* Effect.flip(users.bots.get(main)))._tag).toBe("AccessDeniedError")
      expect((yield* Effect.flip(noRole.landings.get(main)))._tag).toBe("AccessDeniedError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("A10 a role works only in its own channel", () =>
    Effect.gen(function*() {
      const mailer = yield* Reference.as(tokens.mailer)
      const telegram = {
        group_id: Schema.decodeSync(Ids.GroupId)(Demo.mainCommunityTelegram.group_id),
        channel: "TG" as const
      }
      expect((yield* Effect.flip(mailer.mailings.get(telegram)))._tag).toBe("AccessDeniedError")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E17 every operation listed without details exists: never error 1 or 3", () =>
    Effect.gen(function*() {
      const client = yield* Client
      for (const op of Operations.undocumented) {
        const exit = yield* Effect.result(client.call(op.path, { ...main }))
        if (Result.isFailure(exit)) expect([1, 3]).not.toContain((exit.failure as { code?: number }).code)
      }
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E17 L2 lists/create through the derived method counts against the creation quota", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const created = yield* client.lists.create({ ...main, name: "Участники дегустации" })
      expect(created).toMatchObject({ name: "Участники дегустации" })
      const lists = yield* client.call("lists/get", main)
      expect(JSON.stringify(lists)).toContain("Участники дегустации")
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("E17 C5 call decodes with a caller's schemas, and gives undefined when there is no response field", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const ListWire = Schema.Struct({ id: Ids.ListId, name: Schema.String, create_at: Dates.UnixSeconds })
      const created = yield* client.call("lists/create", { ...main, name: "Гости" }, {
        success: ListWire,
        payload: Schema.Struct({ group_id: Ids.GroupId, channel: Schema.String, name: Schema.String })
      })
      expect(created.name).toBe("Гости")
      expect(DateTime.isDateTime(created.create_at)).toBe(true)
      const wrong = yield* Effect.flip(client.call("users/me", {}, { success: ListWire }))
      expect(wrong._tag).toBe("ResponseDecodeError")
      const set = yield* client.call("vars/set", { var_id: Demo.variableId, uid, value: "латте" })
      expect(set).toBeUndefined()
      expect((yield* client.vars.get({ var_id: Schema.decodeSync(Ids.VariableId)(Demo.variableId), uid })).value).toBe(
        "латте"
      )
    }).pipe(Effect.provide(Reference.layer())))

  it.effect("V3 X1 call on an unknown method gives UnknownMethodError, on an unknown section UnknownSectionError", () =>
    Effect.gen(function*() {
      const client = yield* Client
      expect((yield* Effect.flip(client.call("bots/fly", {})))._tag).toBe("UnknownMethodError")
      expect((yield* Effect.flip(client.call("rockets/get", {})))._tag).toBe("UnknownSectionError")
    }).pipe(Effect.provide(Reference.layer())))
})
