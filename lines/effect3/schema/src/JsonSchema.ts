/**
 * The JSON Schema of what the wire carries, derived once from the contract's schemas: an operation's
 * input (its payload) and any other schema (a response). The OpenAPI document and the MCP server's
 * tools both read it; they differ only in {@link Options}: the document keeps named schemas as
 * references to its components and admits properties a payload does not name (the server ignores
 * them), a tool's input stands alone and refuses them (a misspelt name is refused before anything is
 * sent).
 *
 * The derivation is effect's own (bounds, allowed values, patterns, descriptions) of the encoded side of
 * each schema: numbers for dates, a channel in any letter case, which is what the wire carries.
 *
 * @since 0.1.0
 */
import type { Schema } from "effect"
import { JSONSchema, SchemaAST } from "effect"
import type * as Operation from "./Operation.js"

/**
 * A JSON value.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/**
 * A JSON object: a JSON Schema.
 *
 * @since 0.1.0
 * @category models
 */
export type JsonObject = { readonly [key: string]: Json }

/**
 * Where the named schemas (those with an identifier) are put, and the path a reference takes to them:
 * a document's components, filled as schemas are derived, for the document to publish with
 * {@link definitionsOf}.
 *
 * @since 0.1.0
 * @category models
 */
export interface References {
  readonly definitions: Record<string, JSONSchema.JsonSchema7>
  /** What a reference starts with: `#/components/schemas/`. */
  readonly path: string
}

/**
 * How a JSON Schema is made: whether named schemas stay references into shared definitions (the
 * OpenAPI document) or are inlined (a standalone schema, as the MCP tools give), and whether an object
 * admits properties it does not name.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /**
   * Named schemas kept as references into these definitions. Without it the schema stands alone, for a
   * client that may not follow references: every reference is replaced by its definition, and effect's
   * markers (`$id`, and the `title` it gives a check, such as `maxLength(120)`, which the bounds beside
   * it already state) are left out.
   */
  readonly references?: References | undefined
  /**
   * Whether an object admits properties it does not name: `true` for the wire as the server reads it
   * (decoding ignores them); `false`, the default, to refuse them.
   */
  readonly otherProperties?: boolean | undefined
}

const isObject = (json: unknown): json is JsonObject =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/** A literal union of whole numbers: effect derives `type: "number"` for `Schema.Literal(0, 1)`. */
const isWholeNumberLiteral = (json: JsonObject) =>
  json.type === "number" &&
  ((Array.isArray(json.enum) && json.enum.every(Number.isInteger)) || Number.isInteger(json.const))

/**
 * Effect marks "any value" schemas with `$id`s such as `/schemas/unknown`; repeated in one document
 * they would collide as identifiers, and a schema with no constraint means the same without them.
 * Literal unions of whole numbers (`active`, `archived`, a mailing's `status`) become `integer`, as the
 * API has no fractional number anywhere.
 */
const normalize = (json: unknown): Json => {
  if (Array.isArray(json)) return json.map(normalize)
  if (!isObject(json)) return json as Json
  const out = Object.fromEntries(
    Object.entries(json).filter(([key]) => key !== "$id").map(([key, value]) => [key, normalize(value)])
  )
  return isWholeNumberLiteral(out) ? { ...out, type: "integer" } : out
}

/** Keys a standalone schema leaves out (see {@link Options.references}); `$defs` once inlined. */
const dropped = new Set(["$schema", "$id", "$defs", "title"])

const definitionPrefix = "#/$defs/"

/** `json` with every reference to `definitions` replaced by the definition, and {@link dropped} keys left out. */
const inline = (json: unknown, definitions: Record<string, unknown>, seen: ReadonlyArray<string> = []): Json => {
  if (Array.isArray(json)) return json.map((item) => inline(item, definitions, seen))
  if (!isObject(json)) return json as Json
  const ref = json.$ref
  if (typeof ref === "string" && ref.startsWith(definitionPrefix)) {
    const name = ref.slice(definitionPrefix.length)
    // The contract's schemas are not recursive; a cycle would be a bug there, not a reason to loop.
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
 * The JSON Schema of the wire form of a schema. JSON Schema 2020-12, the dialect of OpenAPI 3.1 and of
 * MCP's tool schemas.
 *
 * @since 0.1.0
 * @category encoding
 */
export const make = (schema: Schema.Schema.AnyNoContext, options: Options = {}): Json => {
  const additionalPropertiesStrategy = options.otherProperties === true ? "allow" : "strict"
  const { references } = options
  if (references !== undefined) {
    return normalize(JSONSchema.fromAST(schema.ast, {
      definitions: references.definitions,
      definitionPath: references.path,
      target: "jsonSchema2020-12",
      additionalPropertiesStrategy
    }))
  }
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const json = JSONSchema.fromAST(schema.ast, {
    definitions,
    target: "jsonSchema2020-12",
    topLevelReferenceStrategy: "skip",
    additionalPropertiesStrategy
  })
  return inline(normalize(json), normalize(definitions) as JsonObject)
}

/**
 * The definitions gathered in `references`, in the form {@link make} gives schemas.
 *
 * @since 0.1.0
 * @category encoding
 */
export const definitionsOf = (references: References): JsonObject => normalize(references.definitions) as JsonObject

/** A struct with no fields: effect derives "any non-null value" for it, but a payload is always an object. */
const isEmptyStruct = (ast: SchemaAST.AST) =>
  SchemaAST.isTypeLiteral(ast) && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0

/**
 * The input schema of a payload: an object whose properties are the parameters, with what the
 * contract says of each. With {@link Options.references} a payload named as a whole (the free-form
 * payload of an operation whose parameters are not shown) is a reference.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromPayload = (payload: Schema.Schema.AnyNoContext, options: Options = {}): JsonObject => {
  if (isEmptyStruct(payload.ast)) {
    return { type: "object", properties: {}, additionalProperties: options.otherProperties === true }
  }
  const json = make(payload, options)
  // Every payload is a struct or a record (the contract's tests hold every declared one to that).
  if (!isObject(json)) throw new Error("a payload must be an object schema")
  return json
}

/**
 * The input schema of an operation: {@link fromPayload} of its payload.
 *
 * @since 0.1.0
 * @category encoding
 */
export const input = (op: Operation.Any, options: Options = {}): JsonObject => fromPayload(op.payload, options)
