import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, DateTime, Effect, Either, FastCheck, Schema } from "effect"
import { Bot, Channel, Dates, Envelope, Ids, Mailing, Operation, Operations, Page } from "../src/index.js"
import * as Reference from "./support/Reference.js"

const decode = <A, I>(schema: Schema.Schema<A, I>) => (u: unknown) => Schema.decodeUnknownEither(schema)(u)
const right = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected a success, got ${String(result.left)}`)
  return result.right
}
const isLeft = (result: Either.Either<unknown, unknown>) => expect(Either.isLeft(result)).toBe(true)

describe("channels", () => {
  it("C7 the channel values are exactly the spec's", () => {
    const spec = [...Reference.rule("C7").matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.split(" "))
    expect([...Channel.values]).toStrictEqual(spec.filter((v) => v !== "channel"))
  })

  for (const value of Channel.values) {
    it(`C7 ${value} decodes from upper, lower and mixed case to upper case`, () => {
      const mixed = value[0]!.toLowerCase() + value.slice(1)
      for (const wire of [value, value.toLowerCase(), mixed]) {
        expect(right(decode(Channel.Channel)(wire))).toBe(value)
      }
      expect(Schema.encodeSync(Channel.Channel)(value)).toBe(value)
    })
  }

  it("C7 an unknown channel fails", () => {
    for (const wire of ["FB", "vk ", "", "TELEGRAM", 1, null]) isLeft(decode(Channel.Channel)(wire))
    expect(Channel.isChannel("tg")).toBe(true)
    expect(Channel.isChannel("fb")).toBe(false)
  })

  it("C8 a community is the pair group_id and channel, both required, and a lower-case channel is upper-cased", () => {
    const payload = Operations.vars.list.payload
    expect(right(decode(payload)({ group_id: 5, channel: "tg" }))).toStrictEqual({ group_id: 5, channel: "TG" })
    isLeft(decode(payload)({ group_id: 5 }))
    isLeft(decode(payload)({ channel: "VK" }))
    // The same number in two channels is two communities: both decode, to different pairs.
    const vk = right(decode(payload)({ group_id: 5, channel: "VK" }))
    expect(vk).not.toStrictEqual(right(decode(payload)({ group_id: 5, channel: "TG" })))
  })
})

describe("numbers", () => {
  it("C9 uid is an integer, from a JSON number or from the digits of a form body", () => {
    expect(right(decode(Ids.Uid)(123))).toBe(123)
    expect(right(decode(Ids.Uid)("123"))).toBe(123)
    expect(right(decode(Ids.Uid)("-7"))).toBe(-7)
    expect(Schema.encodeSync(Ids.Uid)(Ids.Uid.make(123))).toBe(123)
  })

  it("C9 a uid that is not an integer is refused", () => {
    for (const wire of [1.5, "1.5", "12a", "", " 1", "0x10", "1e3", null, true, Number.NaN]) {
      isLeft(decode(Ids.Uid)(wire))
    }
  })

  it("C2 C9 a form body's digits decode in a whole payload", () => {
    expect(right(decode(Operations.vars.get.payload)({ var_id: "0123456789abcdef01234567", uid: "42" })))
      .toStrictEqual({ var_id: "0123456789abcdef01234567", uid: 42 })
    expect(right(decode(Operations.bots.get.payload)({ group_id: "9", active: "1" })))
      .toStrictEqual({ group_id: 9, active: 1 })
  })
})

describe("object ids", () => {
  const id = "0123456789abcdef01234567"

  it("C10 an id of 24 characters of 0-9a-f is accepted", () => {
    const schemas = [Ids.ObjectId, Ids.BotId, Ids.ListId, Ids.VariableId, Ids.MailingId, Ids.LandingId, Ids.StepId]
    for (const schema of schemas as ReadonlyArray<Schema.Schema<string, string>>) {
      expect(right(decode(schema)(id))).toBe(id)
    }
  })

  it("C10 23 or 25 characters, upper-case hex, other letters and non-strings are refused", () => {
    for (const wire of [id.slice(1), `${id}0`, id.toUpperCase(), `${id.slice(1)}A`, `${id.slice(1)}g`, 1, ""]) {
      isLeft(decode(Ids.BotId)(wire))
    }
  })

  it("C10 ids are sent as <object>_id and returned as id", () => {
    expect(Object.keys(Operations.bots.getById.payload.fields)).toStrictEqual(["bot_id"])
    expect(Object.keys(Operations.lists.addUser.payload.fields)).toContain("list_id")
    expect(Object.keys(Operations.vars.get.payload.fields)).toContain("var_id")
    expect(Object.keys(Bot.Bot.fields)).toContain("id")
  })

  it("C10 one kind of id is not assignable to another", () => {
    const bot: Ids.BotId = Ids.BotId.make(id)
    // @ts-expect-error a BotId is not a VariableId
    const variable: Ids.VariableId = bot
    // @ts-expect-error a plain string is not a BotId
    const plain: Ids.BotId = id
    const same: string = bot
    expect([variable, plain, same]).toStrictEqual([id, id, id])
  })
})

describe("dates", () => {
  it("C11 a request date is read in Moscow time: 01.01.2026 03:00 is 00:00 UTC", () => {
    const date = right(decode(Dates.RequestDate)("01.01.2026 03:00"))
    expect(DateTime.formatIso(date)).toBe("2026-01-01T00:00:00.000Z")
    expect(Schema.encodeSync(Dates.RequestDate)(date)).toBe("01.01.2026 03:00")
  })

  it("C11 a request date before 03:00 Moscow time falls on the previous UTC day", () => {
    const date = right(decode(Dates.RequestDate)("01.03.2024 02:59"))
    expect(DateTime.formatIso(date)).toBe("2024-02-29T23:59:00.000Z")
  })

  it("C11 request dates round-trip and encoding drops seconds", () => {
    for (const text of ["29.02.2024 23:59", "31.12.1999 00:00", "15.06.2030 12:30"]) {
      expect(Schema.encodeSync(Dates.RequestDate)(right(decode(Dates.RequestDate)(text)))).toBe(text)
    }
    const withSeconds = DateTime.unsafeMake(Date.UTC(2026, 0, 1, 0, 0, 42))
    expect(Schema.encodeSync(Dates.RequestDate)(withSeconds)).toBe("01.01.2026 03:00")
  })

  it("C11 an invalid request date is refused", () => {
    for (
      const text of [
        "31.02.2026 10:00",
        "29.02.2025 10:00",
        "01.13.2026 10:00",
        "01.01.2026 24:00",
        "01.01.2026 10:60",
        "2026-01-01 10:00",
        "1.1.2026 10:00",
        "01.01.2026",
        "01.01.2026 10:00:00",
        "01.01.0050 10:00",
        ""
      ]
    ) isLeft(decode(Dates.RequestDate)(text))
  })

  it("C11 a response date is unix seconds, an integer", () => {
    const date = right(decode(Dates.UnixSeconds)(1_767_225_600))
    expect(DateTime.formatIso(date)).toBe("2026-01-01T00:00:00.000Z")
    expect(Schema.encodeSync(Dates.UnixSeconds)(date)).toBe(1_767_225_600)
    isLeft(decode(Dates.UnixSeconds)(1.5))
    isLeft(decode(Dates.UnixSeconds)("1767225600"))
  })

  it("C11 a response date past the range of dates is refused, not thrown", () => {
    isLeft(decode(Dates.UnixSeconds)(1e13))
    isLeft(decode(Dates.UnixSeconds)(-1e13))
    const bot = {
      id: "0123456789abcdef01234567",
      name: "Бот",
      group_id: 1,
      channel: "VK",
      active: 1,
      archived: 0,
      activity_type: "subscribe",
      create_at: 1e13
    }
    const body = { status: "ok", response: { items: [bot], total: 1 } }
    const result = Effect.runSync(Effect.either(Envelope.decode(Operations.bots.get)(body)))
    expect(result._tag === "Left" && result.left._tag).toBe("EnvelopeDecodeError")
  })

  it("C11 stats dates are strings kept as they come", () => {
    expect(right(decode(Dates.StatsDate)("2026-01-01"))).toBe("2026-01-01")
    isLeft(decode(Dates.StatsDate)(1))
  })
})

const listOps = Operations.all.filter(Operation.isPageable)

describe("pages", () => {
  it("C12 a page is {items, total} with total at least 0", () => {
    const page = Page.Page(Schema.String)
    expect(right(decode(page)({ items: ["a"], total: 7 }))).toStrictEqual({ items: ["a"], total: 7 })
    isLeft(decode(page)({ items: ["a"] }))
    isLeft(decode(page)({ items: ["a"], total: -1 }))
    isLeft(decode(page)({ total: 0 }))
  })

  it("C12 every list operation answers a page of its item", () => {
    for (const op of listOps) {
      expect(right(decode(op.success)({ items: [], total: 0 }))).toStrictEqual({ items: [], total: 0 })
      isLeft(decode(op.success)({ items: [{}], total: 1 }))
      isLeft(decode(op.success)({ items: [] }))
    }
  })

  it("C13 count is 1..500 and a larger count is replaced by 500", () => {
    expect(right(decode(Page.Count)(1))).toBe(1)
    expect(right(decode(Page.Count)(500))).toBe(500)
    expect(right(decode(Page.Count)(501))).toBe(Page.maxCount)
    expect(right(decode(Page.Count)("100000"))).toBe(500)
    expect(Page.maxCount).toBe(500)
    expect(Page.defaultCount).toBe(100)
  })

  it("C13 count 0, a negative or a fractional count is refused", () => {
    for (const wire of [0, -1, "0", 1.5, "x"]) isLeft(decode(Page.Count)(wire))
  })

  it("C13 offset is at least 0", () => {
    expect(right(decode(Page.Offset)(0))).toBe(0)
    expect(right(decode(Page.Offset)("20"))).toBe(20)
    for (const wire of [-1, "-1", 0.5]) isLeft(decode(Page.Offset)(wire))
  })

  it("C13 every list operation takes optional count and offset, clamps count and refuses count 0", () => {
    for (const op of listOps) {
      const [sample] = FastCheck.sample(Arbitrary.make(op.payload), { numRuns: 1, seed: 7 })
      const { count: _c, offset: _o, ...base } = Schema.encodeSync(op.payload)(sample) as Record<string, unknown>
      expect(right(decode(op.payload)(base))).not.toHaveProperty("count")
      expect(right(decode(op.payload)({ ...base, count: 9999, offset: 3 }))).toMatchObject({ count: 500, offset: 3 })
      isLeft(decode(op.payload)({ ...base, count: 0 }))
      isLeft(decode(op.payload)({ ...base, offset: -1 }))
    }
  })
})

describe("mailing status", () => {
  it("S5 the status values are exactly the spec's table, without 5", () => {
    const table = Reference.tableRows(Reference.section("Mailing status (field `status`)")).map((row) => Number(row[0]))
    expect([...Mailing.statusValues]).toStrictEqual(table)
    expect(Object.keys(Mailing.statusMeanings).map(Number)).toStrictEqual(table)
  })

  it("S5 every status value decodes in a response and as a mailings/get filter; 5 is refused", () => {
    for (const status of Mailing.statusValues) {
      expect(right(decode(Mailing.MailingStatus)(status))).toBe(status)
      expect(right(decode(Mailing.MailingStatusParam)(status))).toBe(status)
      expect(right(decode(Mailing.MailingStatusParam)(String(status)))).toBe(status)
    }
    for (const wire of [5, "5", 8, -1]) {
      isLeft(decode(Mailing.MailingStatus)(wire))
      isLeft(decode(Mailing.MailingStatusParam)(wire))
    }
    isLeft(decode(Operations.mailings.get.payload)({ group_id: 1, channel: "VK", status: 5 }))
  })
})
