/**
 * The two lines declare the same contract: the same operations with the same declarations, the same
 * resources under the same names, the same error classes. The Effect 3 line (`@community-api/schema`)
 * is loaded beside this one; they share no runtime value, only what they say.
 */
import * as Effect3Schema from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Effect4Schema from "../src/index.js"

const declarationOf = (op: {
  readonly path: string
  readonly errorCodes: ReadonlyArray<number>
  readonly roleGroup: string
  readonly creation: boolean
  readonly safeToRepeat: boolean
  readonly documented: boolean
  readonly rule: string
  readonly summary: string
  readonly hasResponse: boolean
  readonly item: unknown
  readonly assumption?: string | undefined
}) => ({
  path: op.path,
  errorCodes: op.errorCodes,
  roleGroup: op.roleGroup,
  creation: op.creation,
  safeToRepeat: op.safeToRepeat,
  documented: op.documented,
  rule: op.rule,
  summary: op.summary,
  hasResponse: op.hasResponse,
  pageable: op.item !== undefined,
  assumption: op.assumption
})

/** The names a module exports, types aside. */
const namesOf = (module: object) => Object.keys(module).sort()

describe("the two lines", () => {
  it("X1 the same operations, in the same order, with the same declarations", () => {
    expect(Effect4Schema.Operations.all.map(declarationOf)).toEqual(Effect3Schema.Operations.all.map(declarationOf))
  })

  it("X1 the same resources, under the same names, module by module", () => {
    for (const module of ["Account", "Bot", "Community", "Landing", "List", "Mailing", "Variable"] as const) {
      expect({ module, names: namesOf(Effect4Schema[module]) }).toEqual({
        module,
        names: namesOf(Effect3Schema[module])
      })
    }
  })

  it("X1 the same modules with the same exports: operations, sections, envelope, pages, ids, dates, channels", () => {
    const modules = ["Operations", "Envelope", "Page", "Ids", "Dates", "Channel", "Wire"] as const
    const missing = modules.flatMap((module) => {
      const mine = namesOf(Effect4Schema[module])
      return namesOf(Effect3Schema[module]).filter((name) => !mine.includes(name)).map((name) => `${module}.${name}`)
    })
    expect(missing).toEqual([])
  })

  it("X1 the same error classes, tag by code", () => {
    const tags = (byCode: Record<number, new(args: never) => { readonly _tag: string }>) =>
      Object.fromEntries(
        Object.entries(byCode).map(([code, ErrorClass]) => [
          code,
          new ErrorClass({ code: Number(code), text: "", operation: "" } as never)._tag
        ])
      )
    expect(tags(Effect4Schema.ApiError.byCode)).toEqual(tags(Effect3Schema.ApiError.byCode))
  })

  it("X1 the same plain data in the resource modules", () => {
    expect(Effect4Schema.Mailing.statusValues).toEqual(Effect3Schema.Mailing.statusValues)
    expect(Effect4Schema.Mailing.statusMeanings).toEqual(Effect3Schema.Mailing.statusMeanings)
    expect(Effect4Schema.Community.roleKeys).toEqual(Effect3Schema.Community.roleKeys)
    expect(Effect4Schema.Variable.forbiddenNameCharacters).toEqual(Effect3Schema.Variable.forbiddenNameCharacters)
  })

  it("C1 X1 the same OpenAPI document, built by each line from its own schemas", () => {
    expect(Effect4Schema.OpenApi.make()).toStrictEqual(Effect3Schema.OpenApi.make())
  })
})
