/**
 * Discovery of an undocumented operation's shape: the JSON Schema inferred from the answers seen
 * ({@link infer}), and a draft of the contract's declaration for a person to review
 * ({@link declaration}, {@link draft}): the JSON Schema and the Effect Schema source the contract's
 * sections write (`lines/effect3/schema/src/operations/<section>.ts`). Nothing here calls the API
 * or changes the contract: what calls (`verify --discover`) hands the answers in, and the draft is
 * only ever printed.
 *
 * What is inferred, place by place in the answers (`response`, `response.items[]`, …):
 *
 * - the JSON types seen, `integer` apart from other numbers (both seen: `number`), `null` beside
 *   the others;
 * - of objects, every field seen, and as `required` those present in every object seen there;
 * - of lists, one schema for the items of every list seen there, merged;
 * - a small set of values (`enum`) under {@link enumRule}: strings alone or numbers alone, at most
 *   five distinct values, seen at least twice, with a value repeated (so a field whose every value
 *   differs, an id or a name, is never a set), and not object ids;
 * - strings that are all object ids (24 hexadecimal digits) as the object id `pattern`.
 *
 * @since 0.1.0
 */
import type * as ContractCheck from "./ContractCheck.js"
import * as Wire from "./Wire.js"

/**
 * A JSON value.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = ContractCheck.Json

/**
 * The JSON type of a value, `integer` apart from other numbers.
 *
 * @since 0.1.0
 * @category models
 */
export type JsonType = ContractCheck.JsonType

/**
 * The JSON Schema inferred from values: the keywords discovery writes, and no others.
 *
 * @since 0.1.0
 * @category models
 */
export interface JsonSchema {
  /** The JSON types seen: one, or several (`["string", "null"]`). Absent when nothing was seen. */
  readonly type?: JsonType | ReadonlyArray<JsonType>
  /** The small set of values seen (see {@link enumRule}), `null` among them when it was seen. */
  readonly enum?: ReadonlyArray<string | number | null>
  /** The object id pattern, when every string seen was an object id. */
  readonly pattern?: string
  /** The schema of the items of every list seen, merged. */
  readonly items?: JsonSchema
  /** Every field seen in the objects, by name, in the order first seen. */
  readonly properties?: { readonly [key: string]: JsonSchema }
  /** The fields present in every object seen. */
  readonly required?: ReadonlyArray<string>
}

/**
 * When the values seen at one place become a set (`enum`): at most `maxValues` distinct strings or
 * numbers (not both), over at least `minSamples` values, with at least one value repeated.
 *
 * @since 0.1.0
 * @category constants
 */
export const enumRule = { maxValues: 5, minSamples: 2 } as const

/** What was seen at one place of the answers. */
interface Seen {
  /** How many values were seen here: for a field, in how many objects it was present. */
  count: number
  readonly types: Set<JsonType>
  /** The distinct strings and numbers, `undefined` once more than the rule allows. */
  values: Map<string | number, number> | undefined
  /** How many strings and numbers were seen. */
  scalars: number
  /** Whether every string seen was an object id. */
  objectIds: boolean
  items: Seen | undefined
  objects: number
  readonly fields: Map<string, Seen>
}

const emptySeen = (): Seen => ({
  count: 0,
  types: new Set(),
  values: new Map(),
  scalars: 0,
  objectIds: true,
  items: undefined,
  objects: 0,
  fields: new Map()
})

const typeOf = (value: Json): JsonType => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number"
  return typeof value as "string" | "boolean" | "object"
}

const see = (seen: Seen, value: Json): void => {
  seen.count += 1
  seen.types.add(typeOf(value))
  if (typeof value === "string" || typeof value === "number") {
    seen.scalars += 1
    if (typeof value === "string" && !Wire.objectIdPattern.test(value)) seen.objectIds = false
    if (seen.values !== undefined) {
      seen.values.set(value, (seen.values.get(value) ?? 0) + 1)
      if (seen.values.size > enumRule.maxValues) seen.values = undefined
    }
    return
  }
  if (Array.isArray(value)) {
    const items = seen.items ?? emptySeen()
    seen.items = items
    for (const item of value) see(items, item)
    return
  }
  if (value !== null && typeof value === "object") {
    seen.objects += 1
    for (const [key, field] of Object.entries(value)) {
      const place = seen.fields.get(key) ?? emptySeen()
      seen.fields.set(key, place)
      see(place, field)
    }
  }
}

/** The order types are written in: the usual one of JSON Schema. */
const typeOrder: ReadonlyArray<JsonType> = ["object", "array", "string", "integer", "number", "boolean", "null"]

const typesOf = (seen: Seen): ReadonlyArray<JsonType> => {
  const types = typeOrder.filter((type) => seen.types.has(type))
  // An integer is a number: both seen is a number.
  return types.includes("number") ? types.filter((type) => type !== "integer") : types
}

const enumOf = (seen: Seen, types: ReadonlyArray<JsonType>): ReadonlyArray<string | number | null> | undefined => {
  const scalarTypes = types.filter((type) => type !== "null")
  const strings = scalarTypes.length === 1 && scalarTypes[0] === "string" && !seen.objectIds
  const numbers = scalarTypes.length > 0 && scalarTypes.every((type) => type === "integer" || type === "number")
  const values = seen.values
  if (!(strings || numbers) || values === undefined) return undefined
  if (seen.scalars < enumRule.minSamples || values.size >= seen.scalars) return undefined
  const sorted = [...values.keys()].sort((a, b) =>
    typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b))
  )
  return types.includes("null") ? [...sorted, null] : sorted
}

const schemaOf = (seen: Seen, enums: boolean): JsonSchema => {
  const types = typesOf(seen)
  if (types.length === 0) return {}
  const set = enums ? enumOf(seen, types) : undefined
  const objectIds = types.includes("string") && seen.objectIds
  const fields = [...seen.fields.entries()]
  return {
    type: types.length === 1 ? types[0]! : types,
    ...(set === undefined ? {} : { enum: set }),
    ...(objectIds ? { pattern: Wire.objectIdPattern.source } : {}),
    ...(seen.items === undefined ? {} : { items: schemaOf(seen.items, enums) }),
    ...(types.includes("object")
      ? {
        properties: Object.fromEntries(fields.map(([key, field]) => [key, schemaOf(field, enums)])),
        required: fields.flatMap(([key, field]) => field.count === seen.objects ? [key] : [])
      }
      : {})
  }
}

/**
 * The JSON Schema of the values seen at one place (the `response` of every answer, say): what
 * every value has in common, under the rules of the module. No value gives `{}`, which allows
 * anything. Every value seen is valid against the schema.
 *
 * @since 0.1.0
 * @category constructors
 */
export const infer = (values: ReadonlyArray<Json>): JsonSchema => {
  const seen = emptySeen()
  for (const value of values) see(seen, value)
  return schemaOf(seen, true)
}

/**
 * The JSON Schema of the parameters of the calls: an object with every parameter given, required
 * when every call gave it. A string of digits counts as an integer (the wire sends integers so in a
 * form body or the query), and no set is inferred (the values are what the calls chose).
 *
 * @since 0.1.0
 * @category constructors
 */
export const inferParameters = (calls: ReadonlyArray<{ readonly [key: string]: Json }>): JsonSchema => {
  const seen = emptySeen()
  for (const params of calls) {
    see(
      seen,
      Object.fromEntries(
        Object.entries(params).map(([key, value]) => [
          key,
          typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value
        ])
      )
    )
  }
  return schemaOf(seen, false)
}

/**
 * Where a schema stands in a declaration: in an answer, or among the parameters, where an integer is
 * the wire's (a number, or digits in a form body or the query).
 *
 * @since 0.1.0
 * @category models
 */
export type Place = "answer" | "parameter"

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

const typesIn = (schema: JsonSchema): ReadonlyArray<JsonType> =>
  schema.type === undefined ? [] : typeof schema.type === "string" ? [schema.type] : schema.type

const struct = (schema: JsonSchema, place: Place, indent: string): string => {
  const entries = Object.entries(schema.properties ?? {})
  if (entries.length === 0) return "Schema.Struct({})"
  const inner = `${indent}  `
  const required = new Set(schema.required ?? [])
  const fields = entries.map(([key, field]) => {
    const value = effectSchema(field, place, inner)
    return `${inner}${identifier.test(key) ? key : JSON.stringify(key)}: ${
      required.has(key) ? value : `Schema.optional(${value})`
    }`
  })
  return `Schema.Struct({\n${fields.join(",\n")}\n${indent}})`
}

const ofType = (schema: JsonSchema, type: JsonType, place: Place, indent: string): string => {
  switch (type) {
    case "string":
      return schema.pattern === Wire.objectIdPattern.source ? "ObjectId" : "Schema.String"
    case "integer":
      return place === "parameter" ? "WireInt" : "Schema.Int"
    case "number":
      return "Schema.Number"
    case "boolean":
      return "Schema.Boolean"
    case "null":
      return "Schema.Null"
    case "array":
      return `Schema.Array(${effectSchema(schema.items ?? {}, place, indent)})`
    case "object":
      return schema.properties === undefined || Object.keys(schema.properties).length === 0
        ? "Schema.Record({ key: Schema.String, value: Schema.Unknown })"
        : struct(schema, place, indent)
  }
}

/**
 * The Effect Schema source of `schema` as the contract's sections write it (Effect 3): `Schema.Struct`
 * with `Schema.optional` for the fields not required, `Schema.Literal` for a set, `Schema.NullOr`,
 * `Schema.Union` of several types, `Schema.Int` for integers (`WireInt` among the parameters),
 * `ObjectId` for object ids; `Schema.Unknown` where nothing was seen. Nested objects are indented
 * from `indent`.
 *
 * @since 0.1.0
 * @category utils
 */
export const effectSchema = (schema: JsonSchema, place: Place = "answer", indent = ""): string => {
  const types = typesIn(schema)
  if (types.length === 0) return "Schema.Unknown"
  const others = types.filter((type) => type !== "null")
  if (others.length === 0) return "Schema.Null"
  const values = schema.enum?.filter((value) => value !== null)
  const parts = values === undefined
    ? others.map((type) => ofType(schema, type, place, indent))
    : [`Schema.Literal(${values.map((value) => JSON.stringify(value)).join(", ")})`]
  const one = parts.length === 1 ? parts[0]! : `Schema.Union(${parts.join(", ")})`
  return types.includes("null") ? `Schema.NullOr(${one})` : one
}

/** The modules a draft's source names besides `effect`, by the name it uses. */
const importsByName: ReadonlyArray<readonly [name: string, line: string]> = [
  ["ObjectId", `import { ObjectId } from "../Ids.js"`],
  ["WireInt", `import { WireInt } from "../Wire.js"`]
]

/**
 * What a draft of a declaration is made from.
 *
 * @since 0.1.0
 * @category models
 */
export interface DraftInput {
  /** `section/method`. */
  readonly operation: string
  /** How many answers it was inferred from. */
  readonly answers: number
  /** How many of them differ from each other: an answer seen again tells nothing more. */
  readonly distinct: number
  /** The parameters sent ({@link inferParameters}). */
  readonly parameters: JsonSchema
  /** The answers' `response` ({@link infer}); `undefined` when no answer carried one. */
  readonly response: JsonSchema | undefined
}

/**
 * The draft of an operation's declaration for a person to review, as Effect 3 source: a comment that
 * says what it was inferred from and where it goes (the operation's entry in
 * `lines/effect3/schema/src/operations/<section>.ts`) with the imports it needs, then the entry, its
 * parameters and answer `assumed`, with a `reason` to write.
 *
 * @since 0.1.0
 * @category utils
 */
export const declaration = (input: DraftInput): string => {
  const [section = "", method = ""] = input.operation.split("/")
  const payload = struct(input.parameters, "parameter", "    ")
  const success = input.response === undefined ? "Schema.Void" : effectSchema(input.response, "answer", "    ")
  const imports = [
    `import { Schema } from "effect"`,
    ...importsByName.flatMap(([name, line]) => new RegExp(`\\b${name}\\b`).test(`${payload}\n${success}`) ? [line] : [])
  ]
  const answers = `${input.answers} answer${input.answers === 1 ? "" : "s"}${
    input.distinct === input.answers ? "" : ` (${input.distinct} distinct)`
  }`
  return [
    `// A draft of the declaration of ${input.operation}, inferred from ${answers} (community-api verify --discover).`,
    "// Review it before use: a field no answer held is missing, a set of values or a type may be wider.",
    `// In lines/effect3/schema/src/operations/${section}.ts it takes the place of \`${method}: {}\`, with:`,
    ...imports.map((line) => `//   ${line}`),
    `${identifier.test(method) ? method : JSON.stringify(method)}: {`,
    "  assumed: {",
    `    payload: ${payload},`,
    `    success: ${success},`,
    `    reason: ${JSON.stringify(`Seen in ${answers} of ${input.operation}: say on which account and when.`)}`,
    "  }",
    "}"
  ].join("\n")
}

/**
 * One call of an operation and its answer's `response` (`undefined` when the answer carried none).
 *
 * @since 0.1.0
 * @category models
 */
export interface Sample {
  readonly params: { readonly [key: string]: Json }
  readonly response: Json | undefined
}

/**
 * A draft of one operation's declaration: the JSON Schemas inferred and the source to review.
 *
 * @since 0.1.0
 * @category models
 */
export interface Draft extends DraftInput {
  /** The declaration's source ({@link declaration}). */
  readonly declaration: string
}

/**
 * The draft of `operation`'s declaration from the calls that answered: the parameters' and the
 * `response`'s JSON Schemas, and the source. Answers equal to one seen before are inferred from once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const draft = (operation: string, samples: ReadonlyArray<Sample>): Draft => {
  // An answer seen again (the same page for other parameters) tells nothing more: counted twice, its
  // values would look repeated and make sets of what are names.
  const responses = [
    ...new Map(
      samples.flatMap((sample) =>
        sample.response === undefined ? [] : [[JSON.stringify(sample.response), sample.response]]
      )
    ).values()
  ]
  const input: DraftInput = {
    operation,
    answers: samples.length,
    distinct: responses.length,
    parameters: inferParameters(samples.map((sample) => sample.params)),
    response: responses.length === 0 ? undefined : infer(responses)
  }
  return { ...input, declaration: declaration(input) }
}
