import { Community, Mailing } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as DemoFixture from "../src/DemoFixture.js"
import * as Fixture from "../src/Fixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { fails, ok, withServer } from "./support.js"

const tiny: Fixture.FixtureEncoded = {
  users: [{ user_id: 1, name: "Тест" }],
  tokens: [{ token: "thp_tiny_token_0001", user_id: 1, kind: "personal" }],
  communities: [{ group_id: 10, channel: "OK", name: "Малое сообщество", owner_id: 1, connected_at: 1 }],
  subscribers: [{ group_id: 10, channel: "OK", uids: [5] }],
  variables: [{ id: "aaaaaaaaaaaaaaaaaaaaaaaa", group_id: 10, channel: "OK", title: "T", name: "t", create_at: 1 }]
}

const writeTemp = (content: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fixture-")), "fixture.json")
  fs.writeFileSync(file, content)
  return file
}

describe("fixtures", () => {
  it.effect("a fixture file loads and seeds the server, with defaults for omitted fields", () =>
    Effect.gen(function*() {
      const fixture = yield* Fixture.loadFile(writeTemp(JSON.stringify(tiny)))
      expect(fixture.bots).toEqual([])
      expect(fixture.communities[0]!.archived).toBe(false)
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.load(fixture)
      const page = yield* ok("groups/get", {}, { token: "thp_tiny_token_0001" })
      expect(page.items).toHaveLength(1)
      expect((yield* fails("users/me")).code).toBe(4)
      yield* server.reset
      expect((yield* ok("users/me", {}, { token: "thp_tiny_token_0001" })).user_id).toBe(1)
    }).pipe(withServer()))

  it.effect("a bad fixture fails with an error naming the bad field", () =>
    Effect.gen(function*() {
      const cases: Array<[unknown, string]> = [
        [{ ...tiny, communities: [{ ...tiny.communities![0], channel: "FB" }] }, "communities[0].channel"],
        [{ ...tiny, tokens: [{ token: "abc_wrong_prefix", user_id: 1, kind: "personal" }] }, "tokens[0].token"],
        [{ ...tiny, tokens: [{ token: "thp_ok_but_user", user_id: 9, kind: "personal" }] }, "tokens[0].user_id"],
        [{ ...tiny, variables: [{ ...tiny.variables![0], id: "XYZ" }] }, "variables[0].id"],
        [{ ...tiny, subscribers: [{ group_id: 11, channel: "OK", uids: [] }] }, "subscribers[0].group_id"],
        [{ ...tiny, surprise: 1 }, "surprise"]
      ]
      for (const [input, field] of cases) {
        const result = yield* Effect.either(Fixture.loadFile(writeTemp(JSON.stringify(input))))
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) {
          expect(result.left.field).toBe(field)
          expect(result.left.message).toContain(field)
        }
      }
      const notJson = yield* Effect.either(Fixture.loadFile(writeTemp("{")))
      expect(Either.isLeft(notJson) && notJson.left.reason).toMatch(/not JSON/)
      const missing = yield* Effect.either(Fixture.loadFile("/nonexistent/fixture.json"))
      expect(Either.isLeft(missing) && missing.left.reason).toMatch(/cannot read/)
    }))

  it.effect("the demo fixture is valid and survives a round trip through its JSON form", () =>
    Effect.gen(function*() {
      const decoded = yield* Fixture.decode(Fixture.encode(DemoFixture.demoFixture))
      expect(decoded).toEqual(DemoFixture.demoFixture)
      const server = yield* ReferenceServer.ReferenceServer
      expect(yield* server.snapshot).toEqual(DemoFixture.demoFixture)
    }).pipe(withServer()))

  it.effect("the demo fixture is realistic: channels, archived, every role, >1000 subscribers, bots, statuses", () =>
    Effect.sync(() => {
      const f = DemoFixture.demoFixture
      const ownerCommunities = f.communities.filter((c) => c.owner_id === DemoFixture.userIds.owner)
      expect(new Set(ownerCommunities.map((c) => c.channel)).size).toBeGreaterThanOrEqual(3)
      expect(ownerCommunities.some((c) => c.archived)).toBe(true)
      expect(new Set(f.employees.flatMap((e) => e.roles))).toEqual(new Set(Object.keys(Community.roleKeys)))
      const main = f.subscribers.find((s) => s.channel === "VK" && s.group_id === DemoFixture.mainCommunity.group_id)!
      expect(main.uids.length).toBeGreaterThan(1000)
      const mainBots = f.bots.filter((b) => b.group_id === DemoFixture.mainCommunity.group_id && b.channel === "VK")
      expect(mainBots.length).toBeGreaterThan(500)
      expect(mainBots.some((b) => b.active === 1) && mainBots.some((b) => b.archived === 1)).toBe(true)
      expect(mainBots.some((b) => !b.can_enable)).toBe(true)
      expect(new Set(f.mailings.map((m) => m.status))).toEqual(new Set(Mailing.statusValues))
      expect(f.lists.some((l) => l.blacklist)).toBe(true)
      expect(f.variables.length && f.communityVariables.length && f.landings.length).toBeGreaterThan(0)
      expect(f.tokens.find((t) => t.token === DemoFixture.tokens.expired)!.validity).toBe("30d")
    }))

  it.effect("snapshot shows changes made through the API", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* ok("bots/enable", { bot_id: DemoFixture.enableableBotId })
      const state = yield* server.snapshot
      expect(state.bots.find((b) => b.id === DemoFixture.enableableBotId)!.active).toBe(1)
      yield* server.reset
      const again = yield* server.snapshot
      expect(again.bots.find((b) => b.id === DemoFixture.enableableBotId)!.active).toBe(0)
      expect(yield* server.requestCount).toBe(0)
    }).pipe(withServer()))
})
