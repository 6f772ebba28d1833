import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { Account, Bot, Community, Landing, Mailing, Variable } from "../src/index.js"
import * as Reference from "./support/Reference.js"

/** A field of a resource table: its name and its spec type. */
interface Field {
  readonly name: string
  readonly type: string
}

const table = (heading: string, index = 0): Array<Field> => {
  return Reference.tableRows(Reference.tables(Reference.section(heading))[index]!).map(([name, type]) => ({
    name: name!,
    type: type!
  }))
}

/** Fields listed inline, as in "`user_id` (integer, …), `auth` (string, …)". */
const inline = (text: string): Array<Field> =>
  [...text.matchAll(/`([a-z_]+)` \(([a-z]+)/g)].map((m) => ({ name: m[1]!, type: m[2]! }))

/** A wire value of the spec type, good enough to decode. */
const sample = (field: Field): unknown => {
  if (field.name === "channel") return "vk"
  if (field.name === "status") return 3
  if (field.type.startsWith("string (24)")) return "0123456789abcdef01234567"
  if (field.type.startsWith("integer 0 or 1")) return 1
  if (field.type.startsWith("integer")) return 1_767_225_600
  if (field.type.startsWith("boolean")) return true
  if (field.type.startsWith("nullable")) return null
  if (field.type.startsWith("array")) return []
  return "text"
}

const record = (fields: ReadonlyArray<Field>) =>
  Object.fromEntries(fields.filter((f) => !f.name.includes("[]")).map((f) => [f.name, sample(f)]))

/** Any struct schema. */
type AnyStruct = Schema.Schema.AnyNoContext & { readonly fields: object }

const fieldNames = (schema: AnyStruct) => Object.keys(schema.fields).sort()

const communityFields = table("Community (item of `groups/get`)")
const botFields = table("Bot (item of `bots/get`, result of `bots/enable` and `bots/disable`)", 0)
const botExtraFields = table("Bot (item of `bots/get`, result of `bots/enable` and `bots/disable`)", 1)
const subscriberBotFields = table("Bot of a subscriber (item of `contacts/getBots`)")
const mailingFields = table("Mailing (item of `mailings/get`)")
const variableHeading = "Custom (per-subscriber) variable definition (item of `vars/list`, result of `vars/create`)"
const variableFields = table(variableHeading)
const variableValueFields = inline(Reference.section(variableHeading).split("Value of a custom variable")[1]!)
const communityVariableFields = table("Community variable (item of `globalVars/list`)")
const landingFields = table("Landing (item of `landings/get`)")
const accountFields = inline(Reference.section("Account check result (`users/me`)"))

/** Each resource, its rule, its schema and the fields of its spec table. */
const resources: ReadonlyArray<[string, AnyStruct, ReadonlyArray<Field>]> = [
  ["R1 Community", Community.Community, communityFields],
  ["R3 Bot", Bot.Bot, botFields],
  ["R4 bot by id", Bot.BotDetails, [...botFields, ...botExtraFields]],
  ["R5 bot of a subscriber", Bot.SubscriberBot, subscriberBotFields.filter((f) => !f.name.includes("[]"))],
  [
    "R5 step of a subscriber",
    Bot.SubscriberStep,
    subscriberBotFields.filter((f) => f.name.startsWith("steps[].")).map((f) => ({ ...f, name: f.name.slice(8) }))
  ],
  ["R6 Mailing", Mailing.Mailing, mailingFields],
  ["R7 variable definition", Variable.VariableDefinition, variableFields],
  ["R7 variable value", Variable.VariableValue, variableValueFields],
  ["R8 community variable", Variable.CommunityVariable, communityVariableFields],
  ["R9 Landing", Landing.Landing, landingFields],
  ["R10 account check", Account.AccountCheck, accountFields]
]

describe("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 resources match the spec's tables", () => {
  for (const [name, schema, fields] of resources) {
    it(`${name}: field names are exactly the spec's`, () => {
      expect(fields.length).toBeGreaterThan(1)
      expect(fieldNames(schema)).toStrictEqual(fields.map((f) => f.name).sort())
    })

    it(`${name}: a record typed as the spec says decodes, and unknown extra fields do not break it`, () => {
      const wire = record(fields)
      const decoded = Schema.decodeUnknownEither(schema)({ ...wire, some_new_field: { x: 1 } })
      expect(Either.isRight(decoded)).toBe(true)
      if (Either.isRight(decoded)) expect(decoded.right).not.toHaveProperty("some_new_field")
    })
  }

  it("R5 a bot of a subscriber decodes with its steps", () => {
    const steps = subscriberBotFields.filter((f) => f.name.startsWith("steps[].")).map((f) => ({
      ...f,
      name: f.name.slice(8)
    }))
    const wire = { ...record(subscriberBotFields), steps: [record(steps)] }
    expect(Either.isRight(Schema.decodeUnknownEither(Bot.SubscriberBot)(wire))).toBe(true)
  })

  it("R3 R4 active and archived of a bot are 0 or 1, time_archived is an integer", () => {
    const wire = record([...botFields, ...botExtraFields])
    for (const bad of [{ active: 2 }, { archived: true }, { time_archived: "0" }]) {
      expect(Either.isLeft(Schema.decodeUnknownEither(Bot.BotDetails)({ ...wire, ...bad }))).toBe(true)
    }
  })

  it("R2 role keys are exactly the spec's and a role is {key, title}", () => {
    const text = Reference.section("Employee role (item of `roles` in `groups/getEmployees`)")
    const allowed = text.split("Allowed `key` values:")[1]!.split(".")[0]!
    const keys = [...allowed.matchAll(/`([a-z]+)` \(/g)].map((m) => m[1]!)
    expect(Object.keys(Community.roleKeys)).toStrictEqual(keys)
    expect(fieldNames(Community.EmployeeRole)).toStrictEqual(
      table("Employee role (item of `roles` in `groups/getEmployees`)").map((f) => f.name).sort()
    )
    expect(Either.isLeft(Schema.decodeUnknownEither(Community.RoleKey)("owner"))).toBe(true)
  })

  it("R2 an employee keeps its roles and the fields the spec does not show", () => {
    const wire = { roles: [{ key: "stat", title: "Статистика" }], user_id: 5, name: "Ann" }
    expect(Schema.decodeUnknownSync(Community.Employee)(wire)).toStrictEqual(wire)
    expect(Either.isLeft(Schema.decodeUnknownEither(Community.Employee)({ user_id: 5 }))).toBe(true)
  })

  it("C11 R3 resource dates are unix seconds: create_at 1767225600 is 2026-01-01T00:00Z", () => {
    const bot = Schema.decodeUnknownSync(Bot.Bot)(record(botFields))
    expect(bot.create_at.epochMillis).toBe(1_767_225_600_000)
    expect(Schema.encodeSync(Bot.Bot)(bot).create_at).toBe(1_767_225_600)
  })
})
