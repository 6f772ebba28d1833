import { Operations } from "@community-api/schema"
import { CliConfig, Options, ValidationError } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Flags from "../src/Flags.js"

const parse = (payload: (typeof Operations.all)[number]["payload"], args: ReadonlyArray<string>) => {
  const { options, toParams } = Flags.options(payload)
  return Options.processCommandLine(options, args, CliConfig.defaultConfig).pipe(
    Effect.map(([, , values]) => toParams(values)),
    Effect.provide(NodeContext.layer),
    Effect.either
  )
}

const messageOf = (error: unknown) =>
  ValidationError.isValidationError(error) && "error" in error ? JSON.stringify(error.error) : String(error)

describe("Flags", () => {
  it("E4 derives one kebab-case flag per parameter of bots/get, all optional", () => {
    const flags = Flags.fromPayload(Operations.bots.get.payload)
    expect(flags.map((flag) => flag.name)).toEqual([
      "group-id",
      "channel",
      "active",
      "archived",
      "search",
      "count",
      "offset"
    ])
    expect(flags.every((flag) => flag.optional)).toBe(true)
    expect(flags.find((flag) => flag.key === "channel")?.typeName).toBe("VK|TG|OK|MAX|CHAT|AVITO")
    expect(flags.find((flag) => flag.key === "active")?.typeName).toBe("0|1")
    expect(flags.find((flag) => flag.key === "count")?.description).toContain("1..500")
  })

  it("E3 marks group_id and channel of groups/getEmployees as required", () => {
    const flags = Flags.fromPayload(Operations.groups.getEmployees.payload)
    const required = flags.filter((flag) => !flag.optional).map((flag) => flag.name)
    expect(required).toEqual(["group-id", "channel"])
    expect(flags[0].description).toContain("(required)")
  })

  it("E17 an operation whose parameters are not shown has no flags", () => {
    const unknown = Operations.undocumented.filter((op) => op.assumption === undefined)
    expect(unknown.length).toBeGreaterThan(0)
    for (const op of unknown) expect(Flags.fromPayload(op.payload)).toEqual([])
  })

  it("E17 an operation assumed in the contract gets the flags of its assumed payload", () => {
    const names = Flags.fromPayload(Operations.lists.create.payload).map((flag) => flag.name)
    expect(names).toEqual(expect.arrayContaining(["group-id", "channel", "name"]))
  })

  it.effect("C7 C9 decodes digit strings and lower-case channels with the payload schema", () =>
    Effect.gen(function*() {
      const result = yield* parse(Operations.contacts.getBots.payload, [
        "--group-id",
        "12",
        "--channel",
        "vk",
        "--uid",
        "77"
      ])
      expect(result).toEqual(Either.right({ group_id: 12, channel: "VK", uid: 77 }))
    }))

  it.effect("C13 a count above 500 is replaced by 500 and a count of 0 is refused", () =>
    Effect.gen(function*() {
      expect(yield* parse(Operations.groups.get.payload, ["--count", "900"])).toEqual(Either.right({ count: 500 }))
      const refused = yield* parse(Operations.groups.get.payload, ["--count", "0"])
      expect(Either.isLeft(refused)).toBe(true)
      if (Either.isLeft(refused)) expect(messageOf(refused.left)).toContain("count is at least 1")
    }))

  it.effect("C10 a malformed object id is refused with the schema's message naming the flag", () =>
    Effect.gen(function*() {
      const refused = yield* parse(Operations.bots.getById.payload, ["--bot-id", "xyz"])
      expect(Either.isLeft(refused)).toBe(true)
      if (Either.isLeft(refused)) {
        expect(messageOf(refused.left)).toContain("--bot-id")
        expect(messageOf(refused.left)).toContain("24 characters")
      }
    }))

  it.effect("E3 a missing required flag is refused", () =>
    Effect.gen(function*() {
      const refused = yield* parse(Operations.groups.getEmployees.payload, ["--channel", "VK"])
      expect(Either.isLeft(refused)).toBe(true)
    }))

  it.effect("E4 an absent optional flag is left out of the parameters", () =>
    Effect.gen(function*() {
      expect(yield* parse(Operations.bots.get.payload, [])).toEqual(Either.right({}))
    }))

  it("C8 kebab-cases snake and camel names", () => {
    expect(Flags.kebab("group_id")).toBe("group-id")
    expect(Flags.kebab("subscriptionIds")).toBe("subscription-ids")
  })
})
