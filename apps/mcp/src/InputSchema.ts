/**
 * The input JSON Schema of a tool, from its operation's payload schema: effect's own derivation (the
 * wire form: bounds, allowed values, patterns, descriptions), made self-contained for an assistant's
 * client, which may not follow references: every `$ref` is replaced by its definition.
 *
 * @since 0.1.0
 */
import type { Operation } from "@community-api/schema"
import { JSONSchema, SchemaAST } from "effect"

/**
 * A JSON value.
 *
 * @since 0.1.0
 */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/**
 * A JSON Schema object.
 *
 * @since 0.1.0
 */
export type JsonObject = { readonly [key: string]: Json }

const isObject = (json: unknown): json is JsonObject =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/**
 * Keys dropped: `$schema` and `$id` (effect's markers, meaningless inside a tool), and `title`, which
 * effect fills with the name of a check (`maxLength(120)`) that the bounds beside it already state.
 */
const dropped = new Set(["$schema", "$id", "$defs", "title"])

const definitionPrefix = "#/$defs/"

/** `json` with every reference to `definitions` replaced by the definition, and {@link dropped} keys left out. */
const inline = (json: unknown, definitions: Record<string, unknown>, seen: ReadonlyArray<string> = []): Json => {
  if (Array.isArray(json)) return json.map((item) => inline(item, definitions, seen))
  if (!isObject(json)) return json as Json
  const ref = json.$ref
  if (typeof ref === "string" && ref.startsWith(definitionPrefix)) {
    const name = ref.slice(definitionPrefix.length)
    // The contract's payloads are not recursive; a cycle would be a bug there, not a reason to loop.
    if (seen.includes(name) || !Object.hasOwn(definitions, name)) throw new Error(`cannot inline ${ref}`)
    const { $ref: _, ...rest } = json
    const definition = inline(definitions[name], definitions, [...seen, name]) as JsonObject
    return { ...definition, ...inline(rest, definitions, seen) as JsonObject }
  }
  return Object.fromEntries(
    Object.entries(json).filter(([key]) => !dropped.has(key)).map(([key, value]) => [
      key,
      // The keys of `properties` are parameter names (`title` among them), not keywords to drop.
      key === "properties" && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, inline(schema, definitions, seen)]))
        : inline(value, definitions, seen)
    ])
  )
}

/**
 * The input schema of a payload: an object whose properties are the operation's parameters, with
 * what the contract says of each, and no other property.
 *
 * @since 0.1.0
 */
export const fromPayload = (payload: Operation.Any["payload"]): JsonObject => {
  const ast = payload.ast
  // A struct with no fields: effect derives "any non-null value", but a tool's input is an object.
  if (SchemaAST.isTypeLiteral(ast) && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return { type: "object", properties: {}, additionalProperties: false }
  }
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const json = JSONSchema.fromAST(ast, { definitions, topLevelReferenceStrategy: "skip" })
  const inlined = inline(json, definitions)
  if (!isObject(inlined) || inlined.type !== "object") throw new Error("a payload must be an object schema")
  return inlined
}

/**
 * Adds properties to an object schema (after the operation's own).
 *
 * @since 0.1.0
 */
export const withProperties = (schema: JsonObject, properties: { readonly [key: string]: JsonObject }): JsonObject => ({
  ...schema,
  properties: { ...(isObject(schema.properties) ? schema.properties : {}), ...properties }
})
