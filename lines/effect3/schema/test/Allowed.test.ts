/**
 * The values a parameter allows, read from its schema: the literals through unions, transformations
 * and the `undefined` of an optional parameter, and any letter case told by trying.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as Allowed from "../src/Allowed.js"
import * as Bot from "../src/Bot.js"
import * as Channel from "../src/Channel.js"
import * as Mailing from "../src/Mailing.js"

describe("Allowed", () => {
  it("reads literals through unions, transformations and the undefined of an optional parameter", () => {
    expect(Allowed.literalsOf(Schema.Literal("a", "b").ast)).toEqual(["a", "b"])
    expect(Allowed.literalsOf(Channel.Channel.ast)).toEqual([...Channel.values])
    expect(Allowed.literalsOf(Schema.UndefinedOr(Schema.Literal(1, 2)).ast)).toEqual([1, 2])
    expect(Allowed.literalsOf(Schema.Union(Schema.Literal("a"), Schema.String).ast)).toBeUndefined()
    expect(Allowed.literalsOf(Schema.String.ast)).toBeUndefined()
  })

  it("tells any letter case by trying each value in lower case", () => {
    expect(Allowed.of(Schema.Literal("ON", "OFF").ast)).toEqual({ values: ["ON", "OFF"], anyCase: false })
    expect(Allowed.of(Channel.Channel.ast)).toEqual({ values: [...Channel.values], anyCase: true })
    expect(Allowed.of(Schema.Literal(0, 1).ast)).toEqual({ values: [0, 1], anyCase: false })
    expect(Allowed.of(Schema.Number.ast)).toBeUndefined()
  })

  it("reads a contract's enumerations", () => {
    expect(Allowed.of(Bot.Flag.ast)?.values).toEqual([0, 1])
    expect(Allowed.of(Mailing.MailingStatusParam.ast)?.values).toEqual([...Mailing.statusValues])
  })
})
