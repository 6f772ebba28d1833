import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { ApiError, Operation, Operations } from "../src/index.js"
import * as Reference from "./support/Reference.js"

const assumptions = readFileSync(new URL("../../../../docs/assumptions/schema.md", import.meta.url), "utf8")

/** The paths each of E1–E16 names in docs/rules.md (`- E6 bots/enable, bots/disable: …`). */
const endpointRules = Reference.rules.split("\n").flatMap((line) => {
  const match = /^- (E\d+) ([a-zA-Z/, ]+):/.exec(line)
  return match === null ? [] : [{ id: match[1]!, paths: match[2]!.split(", ") }]
})

/** The endpoint headings of the spec's Endpoints part, each split into its paths. */
const endpointHeadings = Reference.section("Endpoints").split("\n").filter((l) => l.startsWith("### "))
  .map((l) => l.slice(4)).filter((h) => h.includes("/")).map((h) => h.split(" and "))

/** Every operation E17's paragraph names: `a/b`, `section` (`m1`, `m2`) and `section` (m1, m2). */
const e17Text = Reference.section("Operations that exist but whose parameters and responses are not detailed")
const e17Named = [
  ...Reference.backtickedPaths(e17Text),
  ...[...e17Text.matchAll(/`([a-zA-Z]+)` \(([^)]*)\)/g)].flatMap(([, section, inner]) => {
    // A list of single words names methods ("create, get, set"); a description ("subscriber card, …") does not.
    const items = inner!.split(", ").map((m) => m.replace(/`/g, ""))
    return items.every((m) => /^[a-zA-Z]+$/.test(m)) ? items.map((m) => `${section}/${m}`) : []
  })
]
const e17Sections = [...e17Text.matchAll(/`([a-zA-Z]+)(?:\/[a-zA-Z]+)?` \(/g)].map((m) => m[1]!)

/** The role table of A9: a path pattern and the group it needs. */
const roleTable = Reference.tableRows(Reference.section("Method groups and roles")).flatMap(([methods, role]) => {
  const group = role === "any role" ? "any" : /^`([a-z]+)`/.exec(role!)![1]!
  return [...methods!.matchAll(/`([^`]+)`/g)].map((m) => ({ pattern: m[1]!, group }))
})
const roleOf = (path: string): string | undefined =>
  (roleTable.find((r) => r.pattern === path) ?? roleTable.find((r) => r.pattern === `${path.split("/")[0]}/*`))
    ?.group

describe("the contract matches the spec", () => {
  it("C1 every operation's path is section/method, and no path is declared twice", () => {
    for (const op of Operations.all) expect(op.path).toBe(`${op.section}/${op.method}`)
    expect(Operations.byPath.size).toBe(Operations.all.length)
    for (const [name, section] of Object.entries(Operations.sections)) {
      for (const op of Object.values(section)) expect(op.section).toBe(name)
      expect(Operations.isSection(name)).toBe(true)
    }
    expect(Operations.isSection("nope")).toBe(false)
  })

  it("E1 E16 the 16 documented operations are declared with the rule that names them", () => {
    const ids = endpointRules.map((r) => r.id)
    expect(ids).toStrictEqual(Array.from({ length: 16 }, (_, i) => `E${i + 1}`))
    for (const { id, paths } of endpointRules) {
      for (const path of paths) {
        const op = Operations.byPath.get(path)
        expect(op, path).toBeDefined()
        expect({ path, rule: op!.rule, documented: op!.documented }).toStrictEqual({ path, rule: id, documented: true })
      }
    }
    const declared = Operations.documented.map((op) => op.path).sort()
    expect(declared).toStrictEqual(endpointRules.flatMap((r) => r.paths).sort())
    expect(declared).toStrictEqual(endpointHeadings.flat().sort())
  })

  it("E17 every operation E17 names is declared", () => {
    expect(e17Named.length).toBeGreaterThan(10)
    for (const path of e17Named) expect(Operations.byPath.has(path), path).toBe(true)
    for (const section of e17Sections) expect(Operations.isSection(section), section).toBe(true)
  })

  it("E17 every section the spec names is declared, and every declared section is in the spec", () => {
    const specSections = new Set([...e17Sections, ...endpointHeadings.flat().map((p) => p.split("/")[0]!)])
    expect(Object.keys(Operations.sections).sort()).toStrictEqual([...specSections].sort())
  })

  it("E17 undocumented operations take any parameters and never answer 1 or 3", () => {
    for (const op of Operations.undocumented) {
      expect(op.rule).toBe("E17")
      if (op.assumption === undefined) expect(op.payload).toBe(Operation.UnknownPayload)
      expect(op.errorCodes).not.toContain(1)
      expect(op.errorCodes).not.toContain(3)
    }
  })

  it("E17 an assumed payload is an object schema with its reason, and the assumption doc lists the operation", () => {
    const assumed = Operations.all.filter((op) => op.assumption !== undefined)
    expect(assumed.map((op) => op.path).sort()).toStrictEqual([
      "bots/addUser",
      "globalVars/create",
      "globalVars/get",
      "globalVars/set",
      "lists/create",
      "lists/get",
      "lists/getUsers",
      "lists/rename",
      "mailings/getById",
      "vars/set"
    ])
    for (const op of assumed) {
      expect(op.documented, op.path).toBe(false)
      expect(op.payload.ast._tag, op.path).toBe("TypeLiteral")
      expect(op.assumption!.length, op.path).toBeGreaterThan(10)
      expect(assumptions, op.path).toMatch(new RegExp(`^- \\*\\*E17[A-Z0-9 ]*\\*\\* .*\`${op.path}\``, "m"))
    }
    // Only E17 operations may assume anything: a documented one is as the spec shows it.
    for (const op of Operations.documented) expect(op.assumption, op.path).toBeUndefined()
  })

  it("E1 E16 each documented operation declares every error code its spec section lists", () => {
    for (const op of Operations.documented) {
      const heading = endpointHeadings.find((paths) => paths.includes(op.path))!.join(" and ")
      const errors = Reference.section(heading).split("\n").filter((l) => /Errors:/.test(l)).join(" ")
      const listed = [...errors.matchAll(/\b(\d+)\b( \(enable only)?/g)]
        .filter((m) => ApiError.isErrorCode(Number(m[1])) && (m[2] === undefined || op.method === "enable"))
        .map((m) => Number(m[1]))
      const general = /error 7 by the general rule/.test(errors) ? [7] : []
      expect(op.errorCodes, op.path).toEqual(expect.arrayContaining([...listed, ...general]))
    }
  })

  it("A8 A9 role groups match the spec's method-group table; the rest need any valid token", () => {
    expect(roleTable.length).toBeGreaterThan(5)
    for (const op of Operations.all) {
      const expected = roleOf(op.path)
      if (expected === undefined) {
        expect(op.roleGroup, op.path).toBe("none")
        const heading = endpointHeadings.find((paths) => paths.includes(op.path))!.join(" and ")
        expect(Reference.section(heading)).toMatch(/Access: any valid token/)
      } else {
        expect(op.roleGroup, op.path).toBe(expected)
      }
    }
  })

  it("L2 L5 the creation flag is set for exactly the operations L2 names; lists/rename is not one", () => {
    const creations = Reference.backtickedPaths(Reference.rule("L2")).sort()
    expect(creations.length).toBe(3)
    expect(Operations.all.filter((op) => op.creation).map((op) => op.path).sort()).toStrictEqual(creations)
    for (const path of Reference.backtickedPaths(Reference.rule("L5"))) {
      expect(Operations.byPath.get(path)!.creation).toBe(false)
    }
  })

  it("L2 no creation is safe to repeat", () => {
    for (const op of Operations.all.filter((op) => op.creation)) expect(op.safeToRepeat, op.path).toBe(false)
  })

  it("C12 C13 list operations are exactly the documented ones answering {items, total}, all safe to repeat", () => {
    const pageable = Operations.all.filter(Operation.isPageable)
    const specLists = endpointHeadings.flat().filter((path) => {
      const heading = endpointHeadings.find((paths) => paths.includes(path))!.join(" and ")
      return /Response: `\{items: \[/.test(Reference.section(heading))
    })
    const declared = pageable.map((op) => op.path)
    expect(declared).toEqual(expect.arrayContaining(specLists))
    // A list operation the spec does not show as {items, total} is a written assumption.
    for (const op of pageable.filter((op) => !specLists.includes(op.path))) {
      expect(assumptions, op.path).toMatch(
        new RegExp(`^- \\*\\*[A-Z0-9 ]*${op.rule}[A-Z0-9 ]*\\*\\* .*${op.path}`, "m")
      )
    }
    for (const op of pageable) expect(op.safeToRepeat).toBe(true)
  })
})
