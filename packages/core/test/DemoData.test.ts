import { describe, expect, it } from "vitest"
import * as DemoData from "../src/DemoData.js"

const { fixture } = DemoData
const key = (place: DemoData.Place) => `${place.channel}:${place.group_id}`
const mainBots = fixture.bots.filter((b) => key(b) === key(DemoData.mainCommunity))
const botById = new Map(fixture.bots.map((b) => [b.id, b]))

describe("the demo data", () => {
  it("the main community has 640 bots, more than one page of 500", () => {
    expect(DemoData.mainBotCount).toBe(640)
    expect(mainBots).toHaveLength(DemoData.mainBotCount)
    expect(mainBots.length).toBeGreaterThan(500)
  })

  it("13 bots of the main community cannot be enabled, every fiftieth, cannotEnableBotId among them", () => {
    const cannot = mainBots.filter((b) => !b.can_enable)
    expect(cannot).toHaveLength(13)
    expect(cannot.map((b) => mainBots.indexOf(b))).toEqual(Array.from({ length: 13 }, (_, k) => 7 + 50 * k))
    expect(cannot.map((b) => b.id)).toContain(DemoData.cannotEnableBotId)
  })

  it("the README's bot switch: 375 disabled bots it enables and 9 it cannot", () => {
    const disabled = mainBots.filter((b) => b.active === 0 && b.archived === 0)
    expect(disabled.filter((b) => b.can_enable)).toHaveLength(375)
    expect(disabled.filter((b) => !b.can_enable)).toHaveLength(9)
  })

  it("main bots are enabled, disabled and archived; an archived bot is never enabled", () => {
    expect(mainBots.filter((b) => b.archived === 1)).toHaveLength(64)
    expect(mainBots.filter((b) => b.active === 1)).toHaveLength(192)
    expect(mainBots.filter((b) => b.archived === 1 && b.active === 1)).toEqual([])
    expect(mainBots.every((b) => (b.archived === 1) === (b.time_archived > 0))).toBe(true)
  })

  it("the main community has 1,250 subscribers starting at subscriberUid", () => {
    const main = fixture.subscribers.find((s) => key(s) === key(DemoData.mainCommunity))!
    expect(main.uids).toHaveLength(DemoData.mainSubscriberCount)
    expect(DemoData.mainSubscriberCount).toBe(1250)
    expect(main.uids[0]).toBe(DemoData.subscriberUid)
  })

  it("21 mailings in the main community, three in each status; six more elsewhere", () => {
    const main = fixture.mailings.filter((m) => key(m) === key(DemoData.mainCommunity))
    expect(main).toHaveLength(21)
    for (const status of [0, 1, 2, 3, 4, 6, 7]) {
      expect(main.filter((m) => m.status === status)).toHaveLength(3)
    }
    expect(fixture.mailings.length - main.length).toBe(6)
    expect(main.map((m) => m.id)).toContain(DemoData.mailingId)
  })

  it("employees hold every role in the main community", () => {
    const roles = fixture.employees.filter((e) => key(e) === key(DemoData.mainCommunity)).flatMap((e) => e.roles)
    expect(new Set(roles)).toEqual(
      new Set(["admin", "mailer", "users", "integrations", "stat", "event", "dogs", "crm"])
    )
  })

  it("one group_id in VK and Telegram, one archived and one deactivated community", () => {
    const sameId = fixture.communities.filter((c) => c.group_id === DemoData.mainCommunity.group_id)
    expect(sameId.map((c) => c.channel).sort()).toEqual(["TG", "VK"])
    const byKey = new Map(fixture.communities.map((c) => [key(c), c]))
    expect(byKey.get(key(DemoData.archivedCommunity))?.archived).toBe(true)
    expect(byKey.get(key(DemoData.deactivatedCommunity))?.deactivated).toBe(true)
    expect(byKey.get(key(DemoData.otherCommunity))?.owner_id).toBe(DemoData.userIds.otherOwner)
  })

  it("the notable bot ids name bots in the state their names say", () => {
    expect(botById.get(DemoData.enableableBotId)).toMatchObject({
      ...DemoData.mainCommunity,
      active: 0,
      archived: 0,
      can_enable: true
    })
    expect(botById.get(DemoData.activeBotId)).toMatchObject({ ...DemoData.mainCommunity, active: 1 })
    expect(botById.get(DemoData.archivedBotId)).toMatchObject({ ...DemoData.mainCommunity, archived: 1 })
    expect(botById.get(DemoData.archivedCommunityBotId)).toMatchObject({ ...DemoData.archivedCommunity, active: 0 })
    expect(botById.get(DemoData.otherCommunityBotId)).toMatchObject(DemoData.otherCommunity)
    expect(botById.get(DemoData.telegramBotId)).toMatchObject(DemoData.mainCommunityTelegram)
  })

  it("the notable list, variable and community variable ids name objects of their communities", () => {
    const lists = new Map(fixture.lists.map((l) => [l.id, l]))
    expect(lists.get(DemoData.listId)).toMatchObject({ ...DemoData.mainCommunity, blacklist: false })
    expect(lists.get(DemoData.blacklistId)).toMatchObject({ ...DemoData.mainCommunity, blacklist: true })
    expect(lists.get(DemoData.otherCommunityListId)).toMatchObject(DemoData.otherCommunity)
    const variables = new Map(fixture.variables.map((v) => [v.id, v]))
    expect(variables.get(DemoData.variableId)).toMatchObject({ name: "favorite_drink" })
    expect(variables.get(DemoData.variableId)?.values[String(DemoData.subscriberUid)]).toBe("Раф")
    expect(variables.get(DemoData.otherCommunityVariableId)).toMatchObject(DemoData.otherCommunity)
    const communityVariables = new Map(fixture.communityVariables.map((v) => [v.id, v]))
    expect(communityVariables.get(DemoData.communityVariableId)).toMatchObject({ name: "promo_code" })
    expect(communityVariables.get(DemoData.otherCommunityCommunityVariableId)).toMatchObject(DemoData.otherCommunity)
  })

  it("every demo token belongs to a user, with the prefix of its kind; expired, revoked and other-product tokens are so", () => {
    const users = new Set(fixture.users.map((u) => u.user_id))
    expect(fixture.tokens.map((t) => t.token).sort()).toEqual(Object.values(DemoData.tokens).sort())
    for (const t of fixture.tokens) {
      expect(users.has(t.user_id)).toBe(true)
      const prefix = ["thp_", "lhp_", "tha_"].find((p) => t.token.startsWith(p))
      expect(prefix).toBe(t.kind === "personal" ? t.token.slice(0, 4) : t.kind === "application" ? "tha_" : undefined)
      if (t.kind === "personal") expect(["thp_", "lhp_"]).toContain(prefix)
    }
    const byToken = new Map(fixture.tokens.map((t) => [t.token, t]))
    expect(byToken.get(DemoData.tokens.accountKey)?.kind).toBe("accountKey")
    expect(byToken.get(DemoData.tokens.revoked)?.revoked).toBe(true)
    expect(byToken.get(DemoData.tokens.otherProduct)?.product).toBe("other")
    const expired = byToken.get(DemoData.tokens.expired)!
    expect(expired.validity).toBe("30d")
    expect(expired.issued_at + 30 * 86_400).toBeLessThan(0)
  })

  it("references hold: every object's community exists, ids are unique, bot subscribers name bots", () => {
    const communities = new Set(fixture.communities.map(key))
    expect(communities.size).toBe(fixture.communities.length)
    const placed = [
      fixture.employees,
      fixture.subscribers,
      fixture.bots,
      fixture.mailings,
      fixture.lists,
      fixture.variables,
      fixture.communityVariables,
      fixture.landings
    ]
    for (const items of placed) {
      expect(items.filter((item) => !communities.has(key(item)))).toEqual([])
    }
    for (const items of [fixture.bots, fixture.mailings, fixture.lists, fixture.variables, fixture.landings]) {
      const ids = items.map((item) => item.id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids.every((id) => /^[0-9a-f]{24}$/.test(id))).toBe(true)
    }
    expect(fixture.botSubscribers.filter((s) => !botById.has(s.bot_id))).toEqual([])
  })

  it("bot fills the fields a fixture may leave out, and keeps the ones given", () => {
    const given = { id: "b".repeat(24), ...DemoData.siteChat, name: "n", create_at: 1, active: 1 as const }
    const made = DemoData.bot(given)
    expect(made).toMatchObject(given)
    expect(made).toMatchObject({ archived: 0, activity_type: "message", can_enable: true, public_id: null })
    expect(made).toMatchObject({ can_share: false, is_favorite: false, time_archived: 0, activity_param: null })
    expect(made.subscription_ids).toEqual([])
    expect(Object.keys(made)).toHaveLength(15)
    expect(DemoData.bot({ ...given, active: 0 }).active).toBe(0)
  })

  it("keeps its order: the bots start with the enabled one and the enableable one, named in turn", () => {
    expect(mainBots.slice(0, 3).map((b) => b.name)).toEqual([
      "Приветствие новых подписчиков №1",
      "Запись на дегустацию №2",
      "Бонусная программа №3"
    ])
    expect(fixture.bots.map((b) => b.id).slice(0, 2)).toEqual([DemoData.activeBotId, DemoData.enableableBotId])
  })
})
