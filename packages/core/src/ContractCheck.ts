/**
 * One answer of the API, taken as plain JSON, compared with what the contract declares of it: the
 * differences as data, or that it conforms. The contract's declaration of an answer is plain data
 * too: the JSON Schema of its `response` and the error codes it may answer, as the OpenAPI document
 * both lines build holds them ({@link fromDocument}). Nothing here sends a request: what calls the
 * API (`verify`) hands each envelope it got to {@link check}.
 *
 * The differences: a field the contract does not know (with its JSON type and the shape of its value,
 * never the value itself, which may be personal data), a required field missing, a value of another
 * JSON type than declared, a value outside a declared set (`enum`, `const`), an error code the
 * operation is not declared to answer, and an answer that is no envelope at all. A field is located
 * by its path from the envelope: `response.items[].name`, `[]` standing for every item of a list.
 *
 * @since 0.1.0
 */
import type * as OpenApiDocument from "./OpenApiDocument.js"

/**
 * A JSON value.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = OpenApiDocument.Json

/**
 * The JSON type of a value, `integer` apart from other numbers (every number of the API is one).
 *
 * @since 0.1.0
 * @category models
 */
export type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "array" | "object"

/**
 * What the contract declares of an operation's answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Contract {
  /** `section/method`. */
  readonly path: string
  /** The JSON Schema of `response` on success; `undefined` when a success carries no `response`. */
  readonly response: Json | undefined
  /** Every error code the operation is declared to answer. */
  readonly errorCodes: ReadonlyArray<number>
  /** The named schemas the `$ref`s of {@link response} point to, by name. */
  readonly definitions: { readonly [name: string]: Json }
}

/**
 * One way an answer differs from its declaration.
 *
 * - `UnknownField`: a field the contract does not know, its JSON type and the shape of its value.
 * - `MissingField`: a field the contract requires, absent.
 * - `TypeMismatch`: a value of another JSON type than the ones declared.
 * - `OutsideSet`: a value outside the set the contract declares (`enum` or `const`).
 * - `UndeclaredErrorCode`: an error code the operation is not declared to answer.
 * - `NotAnEnvelope`: neither `{status: 'ok', …}` nor `{status: 'error', error_code, …}`.
 *
 * @since 0.1.0
 * @category models
 */
export type Difference =
  | { readonly _tag: "UnknownField"; readonly path: string; readonly type: JsonType; readonly shape: string }
  | { readonly _tag: "MissingField"; readonly path: string }
  | {
    readonly _tag: "TypeMismatch"
    readonly path: string
    readonly expected: ReadonlyArray<JsonType>
    readonly found: JsonType
    readonly shape: string
  }
  | { readonly _tag: "OutsideSet"; readonly path: string; readonly allowed: ReadonlyArray<Json>; readonly found: Json }
  | { readonly _tag: "UndeclaredErrorCode"; readonly code: number; readonly declared: ReadonlyArray<number> }
  | { readonly _tag: "NotAnEnvelope"; readonly shape: string }

/**
 * What a comparison finds: the answer conforms, or how it differs (each kind at each path once).
 *
 * @since 0.1.0
 * @category models
 */
export type Verdict =
  | { readonly _tag: "Conforms" }
  | { readonly _tag: "Differs"; readonly differences: ReadonlyArray<Difference> }

/**
 * The JSON type of `value`.
 *
 * @since 0.1.0
 * @category utils
 */
export const typeOf = (value: Json): JsonType => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number"
  return typeof value as "string" | "boolean" | "object"
}

/** How deep a shape goes into objects and lists before it says `…`. */
const shapeDepth = 3

/**
 * The shape of `value` without its content, safe to show whatever the value holds: `string`,
 * `integer`, `{ id: string, tags: Array<string> }`, `Array<{ … }>`, `[]` for an empty list.
 *
 * @since 0.1.0
 * @category utils
 */
export const shapeOf = (value: Json, depth = shapeDepth): string => {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]"
    return depth === 0 ? "Array<…>" : `Array<${shapeOf(value[0]!, depth - 1)}>`
  }
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value)
    if (keys.length === 0) return "{}"
    if (depth === 0) return "{ … }"
    const record = value as { readonly [key: string]: Json }
    return `{ ${keys.map((key) => `${key}: ${shapeOf(record[key]!, depth - 1)}`).join(", ")} }`
  }
  return typeOf(value)
}

type Schema = { readonly [key: string]: Json }

const isObject = (json: Json | undefined): json is { readonly [key: string]: Json } =>
  typeof json === "object" && json !== null && !Array.isArray(json)

const refPrefix = "#/components/schemas/"

/** The schema with its `$ref` replaced by the definition it names (the other keywords kept beside it). */
const resolve = (schema: Schema, definitions: Contract["definitions"]): Schema => {
  const { $ref, ...rest } = schema
  if (typeof $ref !== "string") return schema
  const name = $ref.startsWith(refPrefix) ? $ref.slice(refPrefix.length) : $ref
  const target = definitions[name]
  if (!isObject(target)) throw new Error(`the contract names no schema ${$ref}`)
  return { ...resolve(target, definitions), ...rest }
}

const typesOf = (schema: Schema): ReadonlyArray<JsonType> | undefined => {
  const type = schema.type
  if (typeof type === "string") return [type as JsonType]
  if (Array.isArray(type)) return type as ReadonlyArray<JsonType>
  return undefined
}

const typeMatches = (expected: ReadonlyArray<JsonType>, found: JsonType) =>
  expected.includes(found) || (found === "integer" && expected.includes("number"))

const sameJson = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b)

const join = (path: string, key: string) => path === "" ? key : `${path}.${key}`

/** The differences of the branch closest to `value` (none when one branch takes it as it is). */
const closest = (
  branches: ReadonlyArray<Json>,
  value: Json,
  definitions: Contract["definitions"],
  path: string
): ReadonlyArray<Difference> => {
  let best: ReadonlyArray<Difference> | undefined
  for (const branch of branches) {
    if (!isObject(branch)) continue
    const found = differences(branch, value, definitions, path)
    if (found.length === 0) return found
    // A branch of the value's own type says more than one of another.
    const mismatched = (list: ReadonlyArray<Difference>) =>
      list.some((d) => d._tag === "TypeMismatch" && d.path === path)
    if (
      best === undefined || (mismatched(best) && !mismatched(found)) ||
      (mismatched(best) === mismatched(found) && found.length < best.length)
    ) best = found
  }
  return best ?? []
}

/** The fields of an object value against an object schema. */
const fields = (
  schema: Schema,
  value: { readonly [key: string]: Json },
  definitions: Contract["definitions"],
  path: string
): ReadonlyArray<Difference> => {
  const properties = isObject(schema.properties) ? schema.properties : undefined
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === "string") : []
  // An explicit schema of the other fields (a record, or fields declared open) declares them; `true`,
  // the default of a closed list of fields, does not.
  const others = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined
  const found: Array<Difference> = []
  for (const key of required) {
    if (!Object.hasOwn(value, key)) found.push({ _tag: "MissingField", path: join(path, key) })
  }
  for (const [key, field] of Object.entries(value)) {
    const declared = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : others
    if (isObject(declared)) found.push(...differences(declared, field, definitions, join(path, key)))
    else if (properties !== undefined || others === undefined) {
      found.push({ _tag: "UnknownField", path: join(path, key), type: typeOf(field), shape: shapeOf(field) })
    }
  }
  return found
}

/**
 * The differences of `value` from `schema` (the subset of JSON Schema the contract's schemas use:
 * `$ref`, `oneOf`, `anyOf`, `allOf`, `type`, `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`), each located by its path below `path`. Bounds and patterns of
 * values are the decoders' to check, not this comparison's.
 *
 * @since 0.1.0
 * @category utils
 */
export const differences = (
  schema: Schema,
  value: Json,
  definitions: Contract["definitions"],
  path: string
): ReadonlyArray<Difference> => {
  const resolved = resolve(schema, definitions)
  const branches = Array.isArray(resolved.oneOf) ? resolved.oneOf : Array.isArray(resolved.anyOf) ? resolved.anyOf : []
  if (branches.length > 0) return closest(branches, value, definitions, path)
  if (Array.isArray(resolved.allOf)) {
    return resolved.allOf.flatMap((part) => isObject(part) ? differences(part, value, definitions, path) : [])
  }
  const found = typeOf(value)
  const types = typesOf(resolved)
  if ("const" in resolved) {
    const expected = resolved.const!
    if (sameJson(expected, value)) return []
    return typeMatches([typeOf(expected)], found)
      ? [{ _tag: "OutsideSet", path, allowed: [expected], found: value }]
      : [{ _tag: "TypeMismatch", path, expected: [typeOf(expected)], found, shape: shapeOf(value) }]
  }
  if (types !== undefined && !typeMatches(types, found)) {
    return [{ _tag: "TypeMismatch", path, expected: types, found, shape: shapeOf(value) }]
  }
  if (Array.isArray(resolved.enum) && !resolved.enum.some((allowed) => sameJson(allowed, value))) {
    return [{ _tag: "OutsideSet", path, allowed: resolved.enum, found: value }]
  }
  if (Array.isArray(value)) {
    return isObject(resolved.items)
      ? value.flatMap((item) => differences(resolved.items as Schema, item, definitions, `${path}[]`))
      : []
  }
  if (isObject(value) && (types?.includes("object") || isObject(resolved.properties))) {
    return fields(resolved, value, definitions, path)
  }
  return []
}

const keyOf = (difference: Difference): string =>
  difference._tag === "UndeclaredErrorCode"
    ? `${difference._tag} ${difference.code}`
    : difference._tag === "NotAnEnvelope"
    ? difference._tag
    : `${difference._tag} ${difference.path}`

/**
 * `differences` with each kind at each path once (the first seen kept): a list of a thousand items
 * that all lack a field is one finding, not a thousand.
 *
 * @since 0.1.0
 * @category utils
 */
export const distinct = (differences: ReadonlyArray<Difference>): ReadonlyArray<Difference> => {
  const seen = new Map<string, Difference>()
  for (const difference of differences) if (!seen.has(keyOf(difference))) seen.set(keyOf(difference), difference)
  return [...seen.values()]
}

/**
 * The verdict of `differences`: `Conforms` when there is none.
 *
 * @since 0.1.0
 * @category constructors
 */
export const verdictOf = (differences: ReadonlyArray<Difference>): Verdict =>
  differences.length === 0 ? { _tag: "Conforms" } : { _tag: "Differs", differences: distinct(differences) }

/**
 * Compares one whole answer (the envelope, as plain JSON) with the operation's `contract`: on success
 * its `response` with the declared schema (and no `response` where none is declared), on error its
 * code with the declared codes.
 *
 * @since 0.1.0
 * @category utils
 */
export const check = (contract: Contract, envelope: Json): Verdict => {
  if (!isObject(envelope)) return verdictOf([{ _tag: "NotAnEnvelope", shape: shapeOf(envelope) }])
  if (envelope.status === "error") {
    const code = envelope.error_code
    if (typeof code !== "number") return verdictOf([{ _tag: "NotAnEnvelope", shape: shapeOf(envelope) }])
    return verdictOf(
      contract.errorCodes.includes(code) ? [] : [{ _tag: "UndeclaredErrorCode", code, declared: contract.errorCodes }]
    )
  }
  if (envelope.status !== "ok") return verdictOf([{ _tag: "NotAnEnvelope", shape: shapeOf(envelope) }])
  const found: Array<Difference> = []
  for (const [key, field] of Object.entries(envelope)) {
    if (key === "status" || (key === "response" && contract.response !== undefined)) continue
    found.push({ _tag: "UnknownField", path: key, type: typeOf(field), shape: shapeOf(field) })
  }
  if (contract.response !== undefined) {
    if (!Object.hasOwn(envelope, "response")) found.push({ _tag: "MissingField", path: "response" })
    else if (isObject(contract.response)) {
      found.push(...differences(contract.response, envelope.response!, contract.definitions, "response"))
    }
  }
  return verdictOf(found)
}

type Loose = { readonly [key: string]: Json | undefined }

const at = (json: Json | undefined, ...keys: ReadonlyArray<string | number>): Json | undefined => {
  let here = json
  for (const key of keys) {
    if (typeof key === "number") here = Array.isArray(here) ? here[key] : undefined
    else here = isObject(here) ? (here as Loose)[key] : undefined
  }
  return here
}

/**
 * Every operation's {@link Contract}, by `section/method`, read from the OpenAPI document a line
 * builds (`OpenApiDocument.make`): the success branch of each answer's schema, the codes of
 * `x-error-codes`, and the document's named schemas.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromDocument = (document: OpenApiDocument.Document): ReadonlyMap<string, Contract> => {
  const definitions = at(document.components, "schemas")
  const named = isObject(definitions) ? definitions : {}
  const contracts = new Map<string, Contract>()
  for (const [route, item] of Object.entries(document.paths)) {
    const post = at(item, "post")
    const success = at(post, "responses", "200", "content", "application/json", "schema", "oneOf", 0)
    const codes = at(post, "x-error-codes")
    const path = route.replace(/^\//, "")
    contracts.set(path, {
      path,
      response: at(success, "properties", "response"),
      errorCodes: Array.isArray(codes) ?
        codes.flatMap((entry) => {
          const code = at(entry, "code")
          return typeof code === "number" ? [code] : []
        }) :
        [],
      definitions: named
    })
  }
  return contracts
}

/**
 * One difference in words, for a report: where, and how the answer differs there.
 *
 * @since 0.1.0
 * @category utils
 */
export const describe = (difference: Difference): string => {
  switch (difference._tag) {
    case "UnknownField":
      return `${difference.path}: a field the contract does not know (${difference.shape})`
    case "MissingField":
      return `${difference.path}: missing`
    case "TypeMismatch":
      return `${difference.path}: ${difference.found} where the contract says ${difference.expected.join(" or ")}`
    case "OutsideSet":
      return `${difference.path}: ${JSON.stringify(difference.found)} is none of ${JSON.stringify(difference.allowed)}`
    case "UndeclaredErrorCode":
      return `error ${difference.code}, which it is not declared to answer`
    case "NotAnEnvelope":
      return `not an envelope (${difference.shape})`
  }
}
