import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, type FastCheck, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as Api from "../src/index.js"

const runs = { fastCheck: { numRuns: 50 } }

/**
 * Effect's decoding drops an own `__proto__` key of a record (prototype-pollution guard), so values
 * holding one cannot round-trip and are left out; the wire never needs such a key.
 */
const hasProtoKey = (u: unknown): boolean =>
  typeof u === "object" && u !== null &&
  (Object.hasOwn(u, "__proto__") || Object.values(u).some(hasProtoKey))

/** The arbitrary that the schema itself derives, without values holding a `__proto__` key. */
const arbitrary = <A, I>(schema: Schema.Schema<A, I>): FastCheck.Arbitrary<A> =>
  Arbitrary.make(schema).filter((a) => !hasProtoKey(a))

/** Encodes then decodes a value; the result must equal the value. */
const roundTrip = <A, I>(schema: Schema.Schema<A, I>, value: A): void => {
  const encoded = Schema.encodeSync(schema)(value)
  expect(Schema.decodeUnknownSync(schema)(encoded)).toStrictEqual(value)
}

/** The rule IDs a source module names in its header comment (`Bots (R3, R4, R5).`). */
const moduleRules = (module: string): string => {
  const header = readFileSync(new URL(`../src/${module}.ts`, import.meta.url), "utf8").split("*/")[0]!
  const ids = [...new Set(header.match(/\b[A-Z]\d{1,2}\b/g) ?? [])]
  // Operation.ts names no rule; the only schema it exports is the E17 payload.
  return ids.length > 0 ? ids.join(" ") : "E17"
}

/** Every schema a module of the package exports, by `Module.name`. */
const exportedSchemas = Object.entries(Api).flatMap(([module, exports]) =>
  Object.entries(exports as Record<string, unknown>).flatMap(([name, value]) =>
    Schema.isSchema(value) ? [{ module, name, schema: value as Schema.Schema<unknown, unknown> }] : []
  )
)

describe("C2 C7 C8 C9 C10 C11 C12 C13 S5 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 X1 every exported schema round-trips", () => {
  it("C1 the package exports the resource schemas", () => {
    const names = exportedSchemas.map(({ module, name }) => `${module}.${name}`)
    for (const resource of ["Community.Community", "Bot.Bot", "Mailing.Mailing", "Landing.Landing"]) {
      expect(names).toContain(resource)
    }
  })
  for (const { module, name, schema } of exportedSchemas) {
    it.prop(
      `${moduleRules(module)} ${module}.${name}: decode(encode(a)) equals a`,
      [arbitrary(schema)],
      ([value]) => roundTrip(schema, value),
      runs
    )
  }
})

describe("C2 C5 E1 E2 E3 E4 E5 E6 E7 E8 E9 E10 E11 E12 E13 E14 E15 E16 E17 every operation's payload and success round-trip", () => {
  for (const op of Api.Operations.all) {
    it.prop(
      `${op.rule} C2 ${op.path} payload: decode(encode(a)) equals a`,
      [arbitrary(op.payload)],
      ([value]) => roundTrip(op.payload, value),
      runs
    )
    it.prop(
      `${op.rule} C5 ${op.path} success envelope: decode(encode(a)) equals a`,
      [arbitrary(op.success)],
      ([value]) =>
        roundTrip(
          Api.Envelope.successEnvelope(op),
          op.hasResponse ? { status: "ok", response: value } : { status: "ok" }
        ),
      runs
    )
  }
})
