/**
 * Refused input, one issue per parameter: the formatter's entries (one per branch a value failed)
 * grouped by parameter, a parameter of a few literals told with the values it takes, read from the
 * contract's schemas, and an unknown parameter told with the parameters the tool takes.
 */
import * as ParameterWords from "@community-api/core/ParameterWords"
import { Channel, Operation, Operations } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import * as Issues from "../src/Issues.js"
import * as Tools from "../src/Tools.js"

const opOf = (path: string) => Operations.byPath.get(path)!

/** The issues of `input` refused by the payload of `path`, as the tool of `path` tells them. */
const refuse = (path: string, input: Record<string, unknown>) => {
  const op = opOf(path)
  const schema = Operation.payloadOf(op)
  const decoded = Schema.decodeUnknownEither(schema)(input, { errors: "all", onExcessProperty: "error" })
  if (Either.isRight(decoded)) throw new Error(`${path} took ${JSON.stringify(input)}`)
  const inputSchema = Tools.inputSchema(op)
  const parameters = Object.keys(inputSchema.properties ?? {})
  return {
    entries: ParseResult.ArrayFormatter.formatIssueSync(decoded.left.issue),
    issues: Issues.fromParseIssue(decoded.left.issue, {
      schema,
      parameters,
      input,
      words: ParameterWords.ofPayload(inputSchema)
    })
  }
}

const channels = `${Channel.values.slice(0, -1).join(", ")} or ${Channel.values.at(-1)}`
const group = { group_id: DemoFixture.mainCommunity.group_id }

describe("one issue per parameter", () => {
  it("C10 a wrong channel, refused by every branch of its union, is one issue with the contract's channels", () => {
    const { entries, issues } = refuse("bots/get", { ...group, channel: "XX" })
    // The formatter's entries, one per literal and one for the undefined of an optional parameter.
    expect(entries.length).toBeGreaterThan(1)
    expect(new Set(entries.map((entry) => entry.path.join(".")))).toEqual(new Set(["channel"]))
    expect(issues).toEqual([{
      parameter: "channel",
      message: `"XX" is not one of ${channels}, any case`,
      allowed: [...Channel.values]
    }])
  })

  it("C10 a required channel left out is one issue that says so and names the channels", () => {
    const { issues } = refuse("vars/create", { ...group, title: "t", name: "n" })
    expect(issues).toEqual([{
      parameter: "channel",
      message: `is missing: give one of ${channels}, any case`,
      allowed: [...Channel.values]
    }])
  })

  it("a 0/1 flag is told as its two numbers, without letter case", () => {
    const { issues } = refuse("bots/get", { ...group, channel: "vk", active: 5 })
    expect(issues).toEqual([{ parameter: "active", message: "5 is not 0 or 1", allowed: [0, 1] }])
  })

  it("a value of no literals keeps the schema's own message, without the undefined of an optional parameter", () => {
    const { entries, issues } = refuse("bots/get", { group_id: "not a number", channel: "VK" })
    expect(entries.some((entry) => /^Expected undefined/.test(entry.message))).toBe(true)
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({ parameter: "group_id" })
    expect(issues[0]).not.toHaveProperty("allowed")
    expect(issues[0]!.message).toBe("\"not a number\" is not an integer")
  })

  it("E3 every refused parameter is told in plain words, none in the schema's type names or patterns", () => {
    const { issues } = refuse("bots/get", { group_id: "coffee-shop", channel: "vkontakte", count: "ten" })
    expect(issues).toEqual([
      { parameter: "group_id", message: "\"coffee-shop\" is not an integer" },
      {
        parameter: "channel",
        message: `"vkontakte" is not one of ${channels}, any case`,
        allowed: [...Channel.values]
      },
      { parameter: "count", message: "\"ten\" is not an integer 1 or more" }
    ])
    // The contract's own message, where it has one, is kept.
    expect(refuse("bots/get", { ...group, channel: "VK", count: 0 }).issues).toEqual([
      { parameter: "count", message: "0 is refused: count is at least 1" }
    ])
  })

  it("C10 an unknown parameter is one issue naming the tool's parameters; each refused parameter once, in order", () => {
    const { issues } = refuse("bots/enable", { bot_id: "xyz", botid: "5f0000000000000000000001" })
    expect(issues.map((issue) => issue.parameter)).toEqual(["bot_id", "botid"])
    expect(issues[1]).toEqual({
      parameter: "botid",
      message: "is not a parameter of this tool; its parameters are bot_id",
      allowed: ["bot_id"]
    })
    const listed = refuse("bots/get", { ...group, channel: "XX", active: 2, limit: 5 })
    expect(listed.issues.map((issue) => issue.parameter)).toEqual(["channel", "active", "limit"])
    expect(listed.issues[2]!.allowed).toEqual(Object.keys(Tools.inputSchema(opOf("bots/get")).properties ?? {}))
    expect(listed.issues[2]!.allowed).toContain("all")
  })

  it("a tool of no parameters says it takes none", () => {
    // Effect's Struct({}) takes any object, so the handler checks the names itself, with this issue.
    expect(Issues.notAParameter("verbose", [])).toEqual({
      parameter: "verbose",
      message: "is not a parameter of this tool, which takes none"
    })
  })
})

describe("the values a parameter allows", () => {
  it("tells any letter case by trying the values in lower case", () => {
    const strict = Schema.Struct({ mode: Schema.Literal("ON", "OFF") })
    expect(Issues.allowedOf(strict, "mode")).toEqual({ values: ["ON", "OFF"], anyCase: false })
    const loose = Schema.Struct({ channel: Schema.optional(Channel.Channel) })
    expect(Issues.allowedOf(loose, "channel")).toEqual({ values: [...Channel.values], anyCase: true })
    expect(Issues.allowedOf(loose, "other")).toBeUndefined()
  })

  it("lists in words", () => {
    expect(Issues.orList([])).toBe("")
    expect(Issues.orList(["a"])).toBe("a")
    expect(Issues.orList([0, 1])).toBe("0 or 1")
    expect(Issues.orList(["a", "b", "c"])).toBe("a, b or c")
  })
})
