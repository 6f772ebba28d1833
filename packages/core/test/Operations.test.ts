import { describe, expect, expectTypeOf, it } from "vitest"
import * as ErrorCodes from "../src/ErrorCodes.js"
import * as Operation from "../src/Operation.js"
import * as Operations from "../src/Operations.js"

const documentedRules = Array.from({ length: 16 }, (_, i) => `E${i + 1}`)

/** The role table of A9, path by path, as docs/rules.md gives it. */
const roleOf = (path: string): Operation.RoleGroup => {
  const [section] = path.split("/")
  if (path === "users/me" || path === "groups/get") return "none"
  if (path === "groups/getEmployees") return "admin"
  if (path === "stats/getMailingsStats" || path === "stats/getMailingStats") return "mailer"
  if (section === "stats") return "stat"
  if (section === "funnels" || section === "landings") return "any"
  if (["contacts", "lists", "vars", "globalVars"].includes(section!)) return "users"
  return "mailer"
}

describe("the operations' declarations", () => {
  it("C1 each operation's section, method and path are the keys it is declared under, in the spec's order", () => {
    expect(Operations.sectionNames).toEqual([
      "users",
      "groups",
      "bots",
      "mailings",
      "attachments",
      "lists",
      "contacts",
      "vars",
      "globalVars",
      "landings",
      "funnels",
      "stats"
    ])
    for (const [name, section] of Object.entries(Operations.sections)) {
      expect(Operations.isSection(name)).toBe(true)
      for (const [method, op] of Object.entries(section as Operation.AnySection)) {
        expect({ section: op.section, method: op.method, path: op.path }).toEqual({
          section: name,
          method,
          path: `${name}/${method}`
        })
      }
    }
    expect(Operations.isSection("nope")).toBe(false)
    expect(Operations.isSection("constructor")).toBe(false)
    expect(Operations.all).toHaveLength(41)
    expect(new Set(Operations.all.map((op) => op.path)).size).toBe(Operations.all.length)
  })

  it("X1 every operation's codes are documented codes, ascending, with the common ones", () => {
    for (const op of Operations.all) {
      expect(op.errorCodes.every(ErrorCodes.isErrorCode), op.path).toBe(true)
      expect([...op.errorCodes].sort((a, b) => a - b), op.path).toEqual([...new Set(op.errorCodes)])
      for (const code of ErrorCodes.commonErrorCodes) expect(op.errorCodes, op.path).toContain(code)
      // 1 and 3 concern the address, never an operation that exists.
      expect(op.errorCodes, op.path).not.toContain(1)
      expect(op.errorCodes, op.path).not.toContain(3)
    }
  })

  it("A9 every operation has a role group, the one of A9's table, told in words", () => {
    for (const op of Operations.all) {
      expect(Object.keys(Operation.whoMay), op.path).toContain(op.roleGroup)
      expect(op.roleGroup, op.path).toBe(roleOf(op.path))
      expect(Operation.describe(op).whoMay, op.path).toBe(Operation.whoMay[op.roleGroup])
    }
  })

  it("E1 E16 E17 the 16 documented rules name the documented operations; the others are E17's", () => {
    const documented = Operations.all.filter((op) => op.documented)
    expect([...new Set(documented.map((op) => op.rule))].sort()).toEqual([...documentedRules].sort())
    for (const op of Operations.all.filter((op) => !op.documented)) {
      expect(op.rule, op.path).toBe("E17")
      expect(op.pageable, op.path).toBe(false)
      expect(op.errorCodes, op.path).toEqual([4, 5, 6, 7, 8, 9, 101])
    }
  })

  it("L2 C12 the creations are lists/create, vars/create and globalVars/create, none safe to repeat; lists only read", () => {
    expect(Operations.all.filter((op) => op.creation).map((op) => op.path)).toEqual([
      "lists/create",
      "vars/create",
      "globalVars/create"
    ])
    for (const op of Operations.all.filter((op) => op.creation)) expect(op.safeToRepeat, op.path).toBe(false)
    for (const op of Operations.all.filter((op) => op.pageable)) {
      expect({ path: op.path, creation: op.creation, safe: op.safeToRepeat, documented: op.documented }).toEqual({
        path: op.path,
        creation: false,
        safe: true,
        documented: true
      })
    }
    expect(Operations.all.filter((op) => op.pageable).map((op) => op.path)).toEqual([
      "groups/get",
      "groups/getEmployees",
      "bots/get",
      "mailings/get",
      "contacts/getBots",
      "vars/list",
      "globalVars/list",
      "landings/get"
    ])
  })

  it("X1 L2 codes and flags keep their literal types", () => {
    expectTypeOf(Operations.bots.enable.errorCodes).toEqualTypeOf<ReadonlyArray<4 | 5 | 6 | 7 | 8 | 9 | 101>>()
    expectTypeOf(Operations.users.me.errorCodes).toEqualTypeOf<ReadonlyArray<4 | 5 | 9 | 101>>()
    expectTypeOf(Operations.vars.create.creation).toEqualTypeOf<true>()
    expectTypeOf(Operations.vars.get.creation).toEqualTypeOf<false>()
    expectTypeOf(Operations.bots.addUser.safeToRepeat).toEqualTypeOf<false>()
    expectTypeOf(Operations.bots.get.pageable).toEqualTypeOf<true>()
    expectTypeOf(Operations.funnels.get.documented).toEqualTypeOf<false>()
    expectTypeOf(Operations.bots.enable.path).toEqualTypeOf<"bots/enable">()
    // A section put under a key other than its name does not compile.
    // @ts-expect-error the key `users` holds the section `bots`
    Operation.sections({ users: Operations.bots })
    expect(Operations.bots.enable.errorCodes).toEqual([4, 5, 6, 7, 8, 9, 101])
  })
})

describe("which operations only read", () => {
  /** The operations that change nothing, by what the spec says each does. */
  const readingPaths = [
    "users/me",
    "groups/get",
    "groups/getEmployees",
    "bots/get",
    "bots/getById",
    "bots/getSteps",
    "mailings/get",
    "mailings/getById",
    "attachments/getById",
    "lists/get",
    "lists/getUsers",
    "contacts/getBots",
    "contacts/getById",
    "contacts/getVars",
    "contacts/getLists",
    "vars/list",
    "vars/get",
    "globalVars/list",
    "globalVars/get",
    "landings/get",
    "funnels/get",
    "funnels/getById",
    "stats/getMailingsStats",
    "stats/getMailingStats",
    "stats/getLandingsStats",
    "stats/getLandingStats",
    "stats/getAdsSubscribes"
  ]

  it("each declaration says whether it only reads: these, and no other", () => {
    expect(Operations.reading.map((op) => op.path)).toEqual(readingPaths)
    expect(Operations.all.filter((op) => op.reads)).toEqual(Operations.reading)
    expect(Operations.reading.map((op) => op.path)).toEqual(
      Operations.all.filter(Operations.onlyReads).map((op) => op.path)
    )
  })

  it("every read is safe to repeat and no creation; every list reads; no write is named as a read is", () => {
    for (const op of Operations.reading) {
      expect(op.safeToRepeat, op.path).toBe(true)
      expect(op.creation, op.path).toBe(false)
    }
    for (const op of Operations.all.filter((op) => op.pageable)) expect(op.reads, op.path).toBe(true)
    // The names agree with the declarations today; the declarations, not the names, decide.
    for (const op of Operations.all) expect(/^(get|list|me)/.test(op.method), op.path).toBe(op.reads)
  })
})

describe("declaring operations", () => {
  it("C1 make adds the common codes, once and in order; section places the declarations by their keys", () => {
    const declaration = Operation.make({
      errors: [9, 7, 5],
      roleGroup: "none",
      safeToRepeat: true,
      reads: true,
      rule: "E1",
      summary: "t"
    })
    expect(declaration).toEqual({
      errorCodes: [4, 5, 7, 9, 101],
      roleGroup: "none",
      creation: false,
      safeToRepeat: true,
      reads: true,
      pageable: false,
      documented: true,
      rule: "E1",
      summary: "t"
    })
    const placed = Operation.section("probe", { ping: declaration })
    expect(placed.ping).toEqual({ section: "probe", method: "ping", path: "probe/ping", ...declaration })
  })

  it("list declares a read that pages; undocumented one of E17 with 6, 7 and 8", () => {
    expect(Operation.list({ errors: [8], roleGroup: "any", rule: "E16", summary: "t" })).toMatchObject({
      errorCodes: [4, 5, 8, 9, 101],
      creation: false,
      safeToRepeat: true,
      reads: true,
      pageable: true,
      documented: true
    })
    expect(Operation.undocumented({ roleGroup: "users", creation: true, safeToRepeat: false, summary: "t" }))
      .toEqual({
        errorCodes: [4, 5, 6, 7, 8, 9, 101],
        roleGroup: "users",
        creation: true,
        safeToRepeat: false,
        reads: false,
        pageable: false,
        documented: false,
        rule: "E17",
        summary: "t"
      })
  })

  it("a read is declared safe to repeat and never a creation; a creation says nothing of reading", () => {
    const unsafe = {
      errors: [],
      roleGroup: "none",
      safeToRepeat: false,
      reads: true,
      rule: "E1",
      summary: "t"
    } as const
    // @ts-expect-error an operation not safe to repeat does not read
    expect(() => Operation.make(unsafe)).toThrow("safe to repeat")
    const creation = { roleGroup: "users", creation: true, safeToRepeat: true, reads: true, summary: "t" } as const
    // @ts-expect-error a creation does not read
    expect(() => Operation.undocumented(creation)).toThrow("never a creation")
    // @ts-expect-error an operation that is no list and no creation says whether it reads
    expect(Operation.undocumented({ roleGroup: "users", safeToRepeat: true, summary: "t" }).reads).toBe(false)
    expect(Operation.undocumented({ roleGroup: "users", safeToRepeat: true, reads: true, summary: "t" }).reads)
      .toBe(true)
  })

  it("L1 L2 an operation is described in words, with the limits' numbers and no rule ID", () => {
    const create = Operation.describe(Operations.vars.create)
    expect(create).toEqual({
      summary: Operations.vars.create.summary,
      whoMay: "the owner, admins and employees with the users role",
      requests: "30 requests a second",
      creations: ["20 a minute", "200 a day"],
      notRepeated: Operation.notRepeated
    })
    const me = Operation.describe(Operations.users.me)
    expect({ creations: me.creations, notRepeated: me.notRepeated, whoMay: me.whoMay }).toEqual({
      creations: undefined,
      notRepeated: undefined,
      whoMay: "any valid token"
    })
    for (const op of Operations.all) {
      expect(Object.values(Operation.describe(op)).flat().join(" "), op.path).not.toMatch(/\b[A-Z]\d+\b/)
    }
  })
})
