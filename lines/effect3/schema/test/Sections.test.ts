import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import type { Bot, List } from "../src/index.js"
import { Operation, Operations } from "../src/index.js"

const operationsDir = new URL("../src/operations/", import.meta.url)

describe("sections declared by their keys", () => {
  it("C1 each operation's section, method and path are the keys it is declared under", () => {
    for (const [name, section] of Object.entries(Operations.sections)) {
      for (const [method, op] of Object.entries(section as Record<string, Operation.Any>)) {
        expect({ section: op.section, method: op.method, path: op.path }).toStrictEqual({
          section: name,
          method,
          path: `${name}/${method}`
        })
      }
    }
  })

  it("C1 Operation.section places declarations; a declaration itself names no section or method", () => {
    const declaration = Operation.make({
      payload: Schema.Struct({}),
      errors: [7],
      roleGroup: "none",
      safeToRepeat: true,
      reads: true,
      rule: "E1",
      summary: "test"
    })
    expect(Object.keys(declaration)).not.toContain("section")
    expect(Object.keys(declaration)).not.toContain("method")
    const placed = Operation.section("probe", { ping: declaration })
    expect(placed.ping).toMatchObject({ section: "probe", method: "ping", path: "probe/ping", rule: "E1" })
    expect(placed.ping.errorCodes).toStrictEqual([4, 5, 7, 9, 101])
  })

  it("C1 no section file writes a section or a method out beside its key", () => {
    const files = readdirSync(operationsDir).filter((file) => file.endsWith(".ts"))
    expect(files.length).toBeGreaterThanOrEqual(Object.keys(Operations.sections).length)
    for (const file of files) {
      const source = readFileSync(new URL(file, operationsDir), "utf8")
      expect(source, file).not.toMatch(/\b(section|method|path)\s*:/)
    }
    // One file per section, named as the section.
    for (const name of Object.keys(Operations.sections)) expect(files, name).toContain(`${name}.ts`)
  })

  it("C1 the literal section, method and path are inferred from the keys", () => {
    expectTypeOf(Operations.bots.enable.section).toEqualTypeOf<"bots">()
    expectTypeOf(Operations.bots.enable.method).toEqualTypeOf<"enable">()
    expectTypeOf(Operations.bots.enable.path).toEqualTypeOf<"bots/enable">()
    expectTypeOf<keyof Operations.Sections["users"]>().toEqualTypeOf<"me">()
    expectTypeOf<Operations.SectionName>().toEqualTypeOf<
      | "users"
      | "groups"
      | "bots"
      | "mailings"
      | "attachments"
      | "lists"
      | "contacts"
      | "vars"
      | "globalVars"
      | "landings"
      | "funnels"
      | "stats"
    >()
    // A section put under a key other than its name does not compile.
    // @ts-expect-error the key `users` holds the section `bots`
    Operation.sections({ users: Operations.bots })
  })

  it("X1 L2 C5 C12 codes, flags, success and item keep their literal types", () => {
    expectTypeOf<Operation.Codes<typeof Operations.bots.enable>>().toEqualTypeOf<4 | 5 | 6 | 7 | 8 | 9 | 101>()
    expectTypeOf<Operation.Codes<typeof Operations.users.me>>().toEqualTypeOf<4 | 5 | 9 | 101>()
    expectTypeOf(Operations.vars.create.creation).toEqualTypeOf<true>()
    expectTypeOf(Operations.vars.get.creation).toEqualTypeOf<false>()
    expectTypeOf(Operations.bots.addUser.safeToRepeat).toEqualTypeOf<false>()
    expectTypeOf<Operation.Success<typeof Operations.vars.clear>>().toEqualTypeOf<void>()
    expectTypeOf<Operation.Item<typeof Operations.bots.get>>().toEqualTypeOf<Bot.Bot>()
    expectTypeOf(Operations.bots.getById.item).toEqualTypeOf<undefined>()
  })

  it("E17 an assumed operation is typed by its assumed schemas; the others take any record and give unknown", () => {
    expectTypeOf<Operation.Params<typeof Operations.lists.rename>["name"]>().toEqualTypeOf<string>()
    expectTypeOf<Operation.Success<typeof Operations.lists.create>>().toEqualTypeOf<List.List>()
    expectTypeOf<Operation.Success<typeof Operations.bots.addUser>>().toEqualTypeOf<void>()
    expectTypeOf(Operations.funnels.get.payload).toEqualTypeOf<typeof Operation.UnknownPayload>()
    expectTypeOf<Operation.Params<typeof Operations.funnels.get>>().toEqualTypeOf<{ readonly [x: string]: unknown }>()
    expectTypeOf<Operation.Success<typeof Operations.funnels.get>>().toEqualTypeOf<unknown>()
    expect(Operations.funnels.get.assumption).toBeUndefined()
    expect(Operations.lists.rename.assumption).toMatch(/lists\/create/)
  })
})
