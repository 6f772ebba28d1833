/**
 * Every documented operation against the reference server in process: what it answers, the roles
 * it needs, and the codes it refuses with (7 for wrong parameters, 8 for a missing role, 4 for a bad
 * token), through the typed methods, their streams and the untyped `call`.
 */
import * as Demo from "@community-api/core/DemoData"
import * as Operations from "@community-api/core/Operations"
import type { Call, Client, Line } from "../src/Driver.js"
import { assert, codeOf, failed, failedWith, scenario, succeeded, suite } from "../src/Scenario.js"

const { tokens } = Demo
const main = { group_id: Demo.mainCommunity.group_id, channel: Demo.mainCommunity.channel }
const uid = Demo.subscriberUid

/** The value of a call that must succeed, read loosely. */
const value = (call: Call): Promise<any> => succeeded(call)

/** The owner's client of a fresh reference server, and a client of another demo token over it. */
const reference = async (line: Line) => {
  const world = await line.reference()
  return { client: await world.client(), as: (token: string): Promise<Client> => world.client({ token }) }
}

export default suite("Operations against the reference server", [
  scenario("E1 R10 users/me tells whose token it is", async (line) => {
    const { client } = await reference(line)
    const me = await value(client.call("users/me"))
    assert.equal(me.user_id, Demo.userIds.owner)
    assert.equal(typeof me.auth, "string")
    assert.equal(typeof me.client_id, "string")
  }),

  scenario(
    "E1 A4 A7 an expired, revoked, unknown or other product's token or the old account key gives 4; an empty one is never sent",
    async (line) => {
      const { as } = await reference(line)
      for (const token of [tokens.expired, tokens.revoked, tokens.otherProduct, tokens.accountKey, "thp_unknown"]) {
        assert.equal(await failedWith((await as(token)).call("users/me")), "InvalidTokenError")
      }
      // The client refuses an empty token when it is made (the Options scenarios): nothing reaches the server.
      const world = await line.reference()
      const made = await world.tryClient({ token: "" }, "make")
      assert.equal(made._tag, "Defect")
      assert.equal((made as { readonly defect: { readonly option?: unknown } }).defect.option, "token")
      assert.equal(await world.server.requestCount(), 0)
    }
  ),

  scenario(
    "E2 R1 C7 groups/get lists the caller's communities; channel filter, search, wrong channel gives 7",
    async (line) => {
      const { client } = await reference(line)
      const all = await value(client.call("groups/get"))
      assert.ok(all.total > 1)
      assert.ok(all.items.some((c: any) => c.group_id === main.group_id && c.channel === "VK" && c.is_owner))
      const telegram = await value(client.call("groups/get", { channel: "TG" }))
      assert.ok(telegram.items.every((c: any) => c.channel === "TG"))
      const lower = await value(client.callRaw("groups/get", { channel: "tg" }))
      assert.equal(lower.total, telegram.total)
      assert.equal(await codeOf(client.callRaw("groups/get", { channel: "XX" })), 7)
      const name: string = all.items[0].name
      const found = await value(client.call("groups/get", { search: name.slice(0, 4).toUpperCase() }))
      assert.ok(found.items.some((c: any) => c.name === name))
    }
  ),

  scenario(
    "E3 R2 A8 groups/getEmployees: roles for owner and admin, 8 for others, 7 without the pair",
    async (line) => {
      const { as, client } = await reference(line)
      const employees = await value(client.call("groups/getEmployees", main))
      assert.ok(employees.total > 0)
      assert.ok(employees.items.every((e: any) => Array.isArray(e.roles)))
      const admin = await as(tokens.admin)
      assert.equal((await value(admin.call("groups/getEmployees", main))).total, employees.total)
      const mailer = await as(tokens.mailer)
      assert.equal(await failedWith(mailer.call("groups/getEmployees", main)), "AccessDeniedError")
      assert.equal(await codeOf(client.callRaw("groups/getEmployees", { group_id: main.group_id })), 7)
    }
  ),

  scenario("E4 R3 C11 C12 bots/get pages and streams all 640 bots of a community with no duplicates", async (line) => {
    const { client } = await reference(line)
    const first = await value(client.call("bots/get", { ...main, count: 10 }))
    assert.equal(first.total, Demo.mainBotCount)
    assert.equal(first.items.length, 10)
    assert.equal(line.isDateTime(first.items[0].create_at), true)
    const bots = await value(client.stream("bots/get", main))
    assert.equal(bots.length, Demo.mainBotCount)
    assert.equal(new Set(bots.map((b: any) => b.id)).size, Demo.mainBotCount)
    const active = await value(client.call("bots/get", { ...main, active: 1, count: 500 }))
    assert.ok(active.items.every((b: any) => b.active === 1))
    assert.equal(await codeOf(client.callRaw("bots/get", { ...main, active: 2 })), 7)
    assert.equal(await codeOf(client.callRaw("bots/get", { group_id: 999, channel: "VK" })), 7)
  }),

  scenario("E4 bots/get without group_id lists bots of every community open to the caller", async (line) => {
    const { client } = await reference(line)
    assert.ok((await value(client.call("bots/get", { count: 1 }))).total > Demo.mainBotCount)
  }),

  scenario(
    "E3 E4 E7 C8 no such community, or a group_id in several channels without channel, gives 7",
    async (line) => {
      const { client } = await reference(line)
      const nowhere = { group_id: 123, channel: "VK" }
      assert.equal(await codeOf(client.callRaw("groups/getEmployees", nowhere)), 7)
      assert.equal(await codeOf(client.callRaw("mailings/get", nowhere)), 7)
      assert.equal(await codeOf(client.callRaw("bots/get", nowhere)), 7)
      // The main community's number exists in VK and in Telegram.
      assert.equal(await codeOf(client.callRaw("bots/get", { group_id: main.group_id })), 7)
    }
  ),

  scenario("E8 E11 E13 a malformed list id, an empty name, a uid that is not a number give 7", async (line) => {
    const { client } = await reference(line)
    assert.equal(await codeOf(client.callRaw("lists/addUser", { list_id: "xyz", uid })), 7)
    assert.equal(await codeOf(client.callRaw("vars/create", { ...main, title: "t", name: "" })), 7)
    assert.equal(await codeOf(client.callRaw("vars/clear", { var_id: Demo.variableId, uid: "abc" })), 7)
  }),

  scenario("A3 when the header and api_key are both sent, the header decides", async (line) => {
    const { as, client } = await reference(line)
    assert.equal((await value(client.callRaw("users/me", { api_key: tokens.revoked }))).user_id, Demo.userIds.owner)
    const revoked = await as(tokens.revoked)
    assert.equal(await failedWith(revoked.callRaw("users/me", { api_key: tokens.owner })), "InvalidTokenError")
  }),

  scenario(
    "E5 R4 A11 bots/getById gives the details; another community's bot is 7 like a missing one",
    async (line) => {
      const { client } = await reference(line)
      const bot = await value(client.call("bots/getById", { bot_id: Demo.activeBotId }))
      assert.equal(bot.id, Demo.activeBotId)
      assert.equal(typeof bot.can_share, "boolean")
      assert.ok(Array.isArray(bot.subscription_ids))
      const other = await failedWith(client.call("bots/getById", { bot_id: Demo.otherCommunityBotId }))
      const missing = await failedWith(client.call("bots/getById", { bot_id: "f".repeat(24) }))
      assert.equal(other, "InvalidParameterError")
      assert.equal(missing, "InvalidParameterError")
    }
  ),

  scenario("E6 S1 S4 bots/enable turns a bot on and bots/disable off, each returning the bot", async (line) => {
    const { client } = await reference(line)
    const bot_id = Demo.enableableBotId
    assert.equal((await value(client.call("bots/enable", { bot_id }))).active, 1)
    assert.equal((await value(client.call("bots/getById", { bot_id }))).active, 1)
    assert.equal((await value(client.call("bots/disable", { bot_id }))).active, 0)
    assert.equal((await value(client.call("bots/getById", { bot_id }))).active, 0)
  }),

  scenario(
    "E6 S2 S3 enable fails with 6 when the bot cannot be enabled and 8 in an archived community",
    async (line) => {
      const { client } = await reference(line)
      assert.equal(
        await failedWith(client.call("bots/enable", { bot_id: Demo.cannotEnableBotId })),
        "ActionFailedError"
      )
      assert.equal(
        await failedWith(client.call("bots/enable", { bot_id: Demo.archivedCommunityBotId })),
        "AccessDeniedError"
      )
    }
  ),

  scenario("E6 A11 C10 enable: another community's bot, a malformed or missing id give 7", async (line) => {
    const { client } = await reference(line)
    assert.equal(
      await failedWith(client.call("bots/enable", { bot_id: Demo.otherCommunityBotId })),
      "InvalidParameterError"
    )
    assert.equal(await codeOf(client.callRaw("bots/enable", { bot_id: "xyz" })), 7)
    assert.equal(await codeOf(client.callRaw("bots/disable", {})), 7)
    // The typed method refuses a malformed id before sending anything.
    assert.equal(await failedWith(client.call("bots/enable", { bot_id: "xyz" })), "RequestEncodeError")
  }),

  scenario(
    "E3 parameters refused before anything is sent: every one named, in words that say what to send",
    async (line) => {
      const { client } = await reference(line)
      const error = await failed(
        client.call("bots/get", { group_id: "coffee-shop", channel: "vkontakte", count: "ten" })
      )
      assert.equal(error._tag, "RequestEncodeError")
      assert.equal(
        error["reason"],
        "group_id: \"coffee-shop\" is not an integer; channel: \"vkontakte\" is not one of VK, TG, OK, MAX, CHAT or " +
          "AVITO, any case; count: \"ten\" is not an integer 1..500"
      )
      const missing = await failed(client.call("vars/create", { ...main, name: "city" }))
      assert.equal(missing["reason"], "title is missing: give text of 1 to 120 characters")
    }
  ),

  scenario("E7 S5 R6 mailings/get lists mailings, filters by status, refuses status 5", async (line) => {
    const { client } = await reference(line)
    assert.ok((await value(client.call("mailings/get", main))).total > 0)
    const finished = await value(client.call("mailings/get", { ...main, status: 3 }))
    assert.ok(finished.items.length > 0)
    assert.ok(finished.items.every((m: any) => m.status === 3))
    assert.equal(await codeOf(client.callRaw("mailings/get", { ...main, status: 5 })), 7)
    assert.equal(await codeOf(client.callRaw("mailings/get", {})), 7)
  }),

  scenario(
    "E8 R11 lists/addUser adds a subscriber; the blacklist, another community's list and a stranger give 7",
    async (line) => {
      const { client } = await reference(line)
      assert.equal(await value(client.call("lists/addUser", { list_id: Demo.listId, uid })), undefined)
      for (const list_id of [Demo.blacklistId, Demo.otherCommunityListId]) {
        assert.equal(await failedWith(client.call("lists/addUser", { list_id, uid })), "InvalidParameterError")
      }
      const stranger = client.call("lists/addUser", { list_id: Demo.listId, uid: Demo.otherCommunitySubscriberUid })
      assert.equal(await failedWith(stranger), "InvalidParameterError")
    }
  ),

  scenario("E9 R5 contacts/getBots lists a subscriber's bots; an unknown subscriber gives 7", async (line) => {
    const { client } = await reference(line)
    const bots = await value(client.call("contacts/getBots", { ...main, uid }))
    assert.equal(bots.total, bots.items.length)
    for (const bot of bots.items) {
      for (const step of bot.steps) assert.equal(line.isDateTime(step.step_entered_at), true)
    }
    assert.equal(await failedWith(client.call("contacts/getBots", { ...main, uid: 1 })), "InvalidParameterError")
    assert.equal(await codeOf(client.callRaw("contacts/getBots", main)), 7)
  }),

  scenario("E10 R7 vars/list lists the variable definitions; a wrong pair gives 7", async (line) => {
    const { client } = await reference(line)
    assert.ok((await value(client.call("vars/list", main))).items.some((v: any) => v.id === Demo.variableId))
    assert.equal(await codeOf(client.callRaw("vars/list", { group_id: main.group_id, channel: "AVITO" })), 7)
  }),

  scenario("E11 R7 vars/create creates a variable; the same short name again gives 7", async (line) => {
    const { client } = await reference(line)
    const created = await value(
      client.call("vars/create", { ...main, title: "Любимый напиток", name: "cup_size_pref" })
    )
    assert.equal(created.name, "cup_size_pref")
    assert.equal(line.isDateTime(created.create_at), true)
    const again = client.call("vars/create", { ...main, title: "Ещё раз", name: "cup_size_pref" })
    assert.equal(await failedWith(again), "InvalidParameterError")
    const listed = await value(client.call("vars/list", main))
    assert.equal(listed.items.filter((v: any) => v.name === "cup_size_pref").length, 1)
  }),

  scenario(
    "E11 vars/create: missing title, over 120 characters, a forbidden character (quoted) give 7",
    async (line) => {
      const { client } = await reference(line)
      assert.equal(await codeOf(client.callRaw("vars/create", { ...main, name: "x" })), 7)
      assert.equal(await codeOf(client.callRaw("vars/create", { ...main, title: "t".repeat(121), name: "x" })), 7)
      for (const char of [".", "{", "%", "`", "_NAME"]) {
        const error = await failed(client.callRaw("vars/create", { ...main, title: "t", name: `a${char}b` }))
        assert.equal(error["code"], 7)
        assert.ok((error["text"] as string).includes(char))
      }
      // The typed method checks the same rule before sending.
      assert.equal(
        await failedWith(client.call("vars/create", { ...main, title: "t", name: "a.b" })),
        "RequestEncodeError"
      )
    }
  ),

  scenario(
    "E12 E13 vars/get gives a subscriber's value, vars/clear erases it; another community's variable is 7",
    async (line) => {
      const { client } = await reference(line)
      const var_id = Demo.variableId
      assert.equal(typeof (await value(client.call("vars/get", { var_id, uid }))).name, "string")
      assert.equal(await value(client.call("vars/clear", { var_id, uid })), undefined)
      assert.equal((await value(client.call("vars/get", { var_id, uid }))).value, "")
      const other = Demo.otherCommunityVariableId
      assert.equal(await failedWith(client.call("vars/get", { var_id: other, uid })), "InvalidParameterError")
      assert.equal(await failedWith(client.call("vars/clear", { var_id: other, uid })), "InvalidParameterError")
      assert.equal(await codeOf(client.callRaw("vars/get", { var_id })), 7)
    }
  ),

  scenario(
    "E14 E15 R8 globalVars/list lists community variables; globalVars/clear erases one; others' are 7",
    async (line) => {
      const { client } = await reference(line)
      const listed = await value(client.call("globalVars/list", main))
      assert.ok(listed.items.some((v: any) => v.id === Demo.communityVariableId))
      assert.equal(await value(client.call("globalVars/clear", { var_id: Demo.communityVariableId })), undefined)
      const after = await value(client.call("globalVars/list", main))
      assert.equal(after.items.find((v: any) => v.id === Demo.communityVariableId).value, "")
      const other = Demo.otherCommunityCommunityVariableId
      assert.equal(await failedWith(client.call("globalVars/clear", { var_id: other })), "InvalidParameterError")
      assert.equal(await codeOf(client.callRaw("globalVars/list", {})), 7)
    }
  ),

  scenario("E16 R9 A9 landings/get: owner and any role; a wrong pair gives 7", async (line) => {
    const { as, client } = await reference(line)
    const landings = await value(client.call("landings/get", main))
    assert.ok(landings.total > 0)
    const stat = await as(tokens.stat)
    assert.equal((await value(stat.call("landings/get", main))).total, landings.total)
    assert.equal(await codeOf(client.callRaw("landings/get", { group_id: main.group_id })), 7)
  }),

  scenario(
    "A8 A9 A12 roles: mailer reaches bots not vars, users reaches vars not bots, no role gets 8",
    async (line) => {
      const { as } = await reference(line)
      const mailer = await as(tokens.mailer)
      const users = await as(tokens.users)
      const noRole = await as(tokens.noRole)
      assert.equal((await value(mailer.call("bots/get", { ...main, count: 1 }))).total, Demo.mainBotCount)
      assert.equal(await failedWith(mailer.call("vars/list", main)), "AccessDeniedError")
      assert.ok((await value(users.call("vars/list", main))).total > 0)
      assert.equal(await failedWith(users.call("bots/get", main)), "AccessDeniedError")
      assert.equal(await failedWith(noRole.call("landings/get", main)), "AccessDeniedError")
    }
  ),

  scenario("A10 a role works only in its own channel", async (line) => {
    const { as } = await reference(line)
    const mailer = await as(tokens.mailer)
    const telegram = { group_id: Demo.mainCommunityTelegram.group_id, channel: "TG" }
    assert.equal(await failedWith(mailer.call("mailings/get", telegram)), "AccessDeniedError")
  }),

  scenario("E17 every operation listed without details exists: never error 1 or 3", async (line) => {
    const { client } = await reference(line)
    for (const op of Operations.all.filter((op) => !op.documented)) {
      const outcome = await client.callRaw(op.path, { ...main })
      if (outcome._tag !== "Success") {
        assert.ok(![1, 3].includes((await failed(Promise.resolve(outcome)))["code"] as number))
      }
    }
  }),

  scenario("E17 L2 lists/create through the derived method counts against the creation quota", async (line) => {
    const { client } = await reference(line)
    const created = await value(client.call("lists/create", { ...main, name: "Участники дегустации" }))
    assert.equal(created.name, "Участники дегустации")
    const lists = await value(client.callRaw("lists/get", main))
    assert.ok(JSON.stringify(lists).includes("Участники дегустации"))
  }),

  scenario(
    "V3 X1 call on an unknown method gives UnknownMethodError, on an unknown section UnknownSectionError",
    async (line) => {
      const { client } = await reference(line)
      assert.equal(await failedWith(client.callRaw("bots/fly", {})), "UnknownMethodError")
      assert.equal(await failedWith(client.callRaw("rockets/get", {})), "UnknownSectionError")
    }
  )
])
