import { Mailing } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import { fails, main, ok, tokens, withServer } from "./support.js"

describe("states", () => {
  it.effect("S1 bots/enable turns active 0 into 1 and returns the bot", () =>
    Effect.gen(function*() {
      const before = yield* ok("bots/getById", { bot_id: DemoFixture.enableableBotId })
      expect(before.active).toBe(0)
      const enabled = yield* ok("bots/enable", { bot_id: DemoFixture.enableableBotId }, { token: tokens.mailer })
      expect(enabled.active).toBe(1)
      expect(enabled.id).toBe(DemoFixture.enableableBotId)
      expect((yield* ok("bots/getById", { bot_id: DemoFixture.enableableBotId })).active).toBe(1)
      const again = yield* ok("bots/enable", { bot_id: DemoFixture.enableableBotId })
      expect(again.active).toBe(1)
    }).pipe(withServer()))

  it.effect("S2 bots/enable fails with 6 when the bot cannot be enabled, and nothing changes", () =>
    Effect.gen(function*() {
      const error = yield* fails("bots/enable", { bot_id: DemoFixture.cannotEnableBotId })
      expect(error.code).toBe(6)
      expect(error.text).toContain("мини-лендинг")
      expect((yield* ok("bots/getById", { bot_id: DemoFixture.cannotEnableBotId })).active).toBe(0)
    }).pipe(withServer()))

  it.effect("S3 bots/enable fails with 8 in an archived community; disable still works there", () =>
    Effect.gen(function*() {
      const error = yield* fails("bots/enable", { bot_id: DemoFixture.archivedCommunityBotId })
      expect(error).toEqual({ code: 8, text: "Сообщество в архиве: включить бота нельзя" })
      expect((yield* ok("bots/getById", { bot_id: DemoFixture.archivedCommunityBotId })).active).toBe(0)
      const disabled = yield* ok("bots/disable", { bot_id: DemoFixture.archivedCommunityBotId })
      expect(disabled.active).toBe(0)
    }).pipe(withServer()))

  it.effect("S4 bots/disable turns active 1 into 0 and returns the bot", () =>
    Effect.gen(function*() {
      const disabled = yield* ok("bots/disable", { bot_id: DemoFixture.activeBotId }, { token: tokens.admin })
      expect(disabled.active).toBe(0)
      const list = yield* ok("bots/get", { ...main, active: 1, count: 500 })
      expect(list.items.map((b: any) => b.id)).not.toContain(DemoFixture.activeBotId)
    }).pipe(withServer()))

  it.effect("S5 mailings carry statuses 0,1,2,3,4,6,7; the same values filter; 5 is refused", () =>
    Effect.gen(function*() {
      const all = yield* ok("mailings/get", main)
      expect(new Set(all.items.map((m: any) => m.status))).toEqual(new Set(Mailing.statusValues))
      for (const status of Mailing.statusValues) {
        const page = yield* ok("mailings/get", { ...main, status })
        expect(page.total).toBe(3)
        for (const m of page.items) expect(m.status).toBe(status)
      }
      const five = yield* fails("mailings/get", { ...main, status: 5 })
      expect(five).toEqual({ code: 7, text: "Неверное значение параметра status" })
    }).pipe(withServer()))
})
