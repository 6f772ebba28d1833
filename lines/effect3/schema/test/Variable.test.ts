import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { Operations, Variable } from "../src/index.js"
import * as Reference from "./support/Reference.js"

const create = Operations.vars.create
const decodeCreate = Schema.decodeUnknownEither(create.payload)
const valid = { group_id: 1, channel: "VK", title: "Title", name: "short" }

const accepts = (params: Record<string, unknown>) => expect(Either.isRight(decodeCreate(params))).toBe(true)
const rejects = (params: Record<string, unknown>, message?: string) => {
  const result = decodeCreate(params)
  expect(Either.isLeft(result)).toBe(true)
  if (message !== undefined && Either.isLeft(result)) expect(result.left.message).toContain(message)
}

/** The forbidden characters as the spec writes them: the backticked ones of the line, plus "the backtick". */
const specForbidden = (() => {
  const line = Reference.section("vars/create").split("\n").find((l) => l.startsWith("- Forbidden in `name`"))!
  const chars = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((c) => c.length === 1)
  return line.includes("the backtick") ? [...chars, "`"] : chars
})()

describe("vars/create payload", () => {
  it("E11 the forbidden characters are exactly the spec's", () => {
    expect([...Variable.forbiddenNameCharacters].sort()).toStrictEqual([...specForbidden].sort())
    expect(Reference.section("vars/create")).toContain(`the sequence \`${Variable.forbiddenNameSequence}\``)
  })

  it("E11 a valid payload is accepted", () => accepts(valid))

  for (const field of ["title", "name"] as const) {
    it(`E11 ${field} of 0 characters is refused`, () => rejects({ ...valid, [field]: "" }, "empty"))
    it(`E11 ${field} of 1 character is accepted`, () => accepts({ ...valid, [field]: "a" }))
    it(`E11 ${field} of 120 characters is accepted`, () => accepts({ ...valid, [field]: "a".repeat(120) }))
    it(`E11 ${field} of 121 characters is refused`, () =>
      rejects({ ...valid, [field]: "a".repeat(121) }, "at most 120 characters"))
    it(`E11 ${field} is required`, () => {
      const { [field]: _, ...rest } = valid
      rejects(rest)
    })
  }

  for (const char of specForbidden) {
    it(`E11 name with the forbidden character ${char} is refused and the message quotes it`, () => {
      rejects({ ...valid, name: `a${char}b` }, `"${char}"`)
      rejects({ ...valid, name: char })
    })
    it(`E11 title may hold the character ${char}`, () => accepts({ ...valid, title: `a${char}b` }))
  }

  it("E11 name containing the sequence _NAME is refused", () => {
    rejects({ ...valid, name: "_NAME" }, "\"_NAME\"")
    rejects({ ...valid, name: "my_NAME_x" }, "\"_NAME\"")
  })

  it("E11 name with _name, NAME or _ alone is accepted (the check is case-sensitive)", () => {
    accepts({ ...valid, name: "my_name" })
    accepts({ ...valid, name: "NAME" })
    accepts({ ...valid, name: "_" })
    accepts({ ...valid, name: "_Name" })
  })

  it("E11 forbiddenInName names the first offending character, else the sequence", () => {
    expect(Variable.forbiddenInName("a;b.c")).toBe(";")
    expect(Variable.forbiddenInName("x_NAME")).toBe("_NAME")
    expect(Variable.forbiddenInName("fine_name")).toBeUndefined()
  })

  it("E11 C8 the community pair is required with title and name", () => {
    const { group_id: _g, ...noGroup } = valid
    const { channel: _c, ...noChannel } = valid
    rejects(noGroup)
    rejects(noChannel)
  })
})
