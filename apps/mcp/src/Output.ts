/**
 * The output schema of every tool, derived from the contract: the structured content of an answer is
 * always an object with exactly one key, `result` on success or `error` on a tool error, and its schema
 * admits both, because an assistant's client validates `structuredContent` against it on error results
 * too (the official SDK's client does, and throws on a mismatch).
 *
 * Every schema here stands alone (no `$schema`, `$ref` or `$defs`: a client may not follow references)
 * and uses only keywords that mean the same in draft-07, the dialect the SDK's client validates with,
 * and in 2020-12, the dialect of MCP's tool schemas.
 *
 * @since 0.1.0
 */
import { JsonSchema, Operation } from "@community-api/schema"
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import type * as Advice from "./Advice.js"

/**
 * The output schema of a tool, as MCP wants it: an object root.
 *
 * @since 0.1.0
 * @category models
 */
export type Schema = NonNullable<Mcp.Tool["outputSchema"]>

const isObject = (json: JsonSchema.Json): json is JsonSchema.JsonObject =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/** A schema the derivation gives as an object (every schema derived from an Effect schema is one). */
const objectOf = (json: JsonSchema.Json, what: string): JsonSchema.JsonObject => {
  if (!isObject(json)) throw new Error(`the JSON Schema of ${what} is not an object`)
  return json
}

/**
 * The wire form of a value of the contract: other properties are allowed, as the API may add fields
 * that the contract does not name yet and the answer should still validate.
 */
const wire = (schema: Parameters<typeof JsonSchema.make>[0], what: string): JsonSchema.JsonObject =>
  objectOf(JsonSchema.make(schema, { otherProperties: true }), what)

/**
 * The result of a list tool: the items of the page (or of the pages gathered), `total` as the API
 * counts every match, and `next_offset` where items remain.
 *
 * @since 0.1.0
 * @category schemas
 */
export const pageSchema = (op: Operation.Pageable): JsonSchema.JsonObject => ({
  type: "object",
  properties: {
    items: { type: "array", items: wire(op.item, `${op.path}'s item`) },
    total: { type: "integer", minimum: 0 },
    next_offset: {
      type: "integer",
      minimum: 0,
      description: "Where the next call starts (offset) when items remain."
    }
  },
  required: ["items", "total"],
  additionalProperties: false
})

/**
 * The result of a tool of this server's own whose answer is the JSON of `schema` (such as the
 * client's `Budget.Json`): strict, as the server writes every property itself.
 *
 * @since 0.1.0
 * @category schemas
 */
export const fromSchema = (schema: Parameters<typeof JsonSchema.make>[0], what: string): JsonSchema.JsonObject =>
  objectOf(JsonSchema.make(schema), what)

/**
 * The result of an operation with no `response` field: `null`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const noData: JsonSchema.JsonObject = { type: "null" }

/**
 * The result of `call`: whatever the API answered, or `null`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const anyResult: JsonSchema.JsonObject = {}

/**
 * The result of the tool of a documented operation: a page for a list, the success in wire form, or
 * `null` when the API answers no `response` field.
 *
 * @since 0.1.0
 * @category schemas
 */
export const resultSchema = (op: Operation.Any): JsonSchema.JsonObject =>
  Operation.isPageable(op) ? pageSchema(op) : op.hasResponse ? wire(op.success, `${op.path}'s success`) : noData

/** A value a refused parameter may take: a literal of the contract, or a parameter's name. */
const allowedValue: JsonSchema.JsonObject = {
  anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "null" }]
}

/**
 * One parameter refused, and why; its allowed values when they are few.
 *
 * @since 0.1.0
 * @category schemas
 */
export const issueSchema: JsonSchema.JsonObject = {
  type: "object",
  properties: {
    parameter: { type: "string" },
    message: { type: "string" },
    allowed: { type: "array", items: allowedValue }
  },
  required: ["parameter", "message"],
  additionalProperties: false
}

/** The windows of a limit, as the answers name them. */
const windows: ReadonlyArray<Advice.Window> = ["second", "minute", "day"]

/**
 * The error of a tool error: its type (a key of {@link Advice.byTag}), the operation or tool, the API's
 * code and text or the client's message, advice in English, the parameters refused, and for a limit
 * the window and when to call again.
 *
 * @since 0.1.0
 * @category schemas
 */
export const errorSchema: JsonSchema.JsonObject = {
  type: "object",
  properties: {
    type: { type: "string" },
    operation: { type: "string" },
    code: { type: "integer" },
    text: { type: "string" },
    message: { type: "string" },
    advice: { type: "string" },
    issues: { type: "array", items: issueSchema },
    window: { type: "string", enum: windows },
    resets_at: { type: "string", description: "When the window opens again (ISO 8601)." },
    retry_after_ms: { type: "integer", minimum: 0, description: "How long to wait before calling again." }
  },
  required: ["type", "operation", "advice"],
  additionalProperties: false
}

/** What an open value is, when its schema has no description of its own. */
const notShown = "Any JSON value: the contract does not say what the API sends here."
const otherFields = "Fields the contract does not name yet, as the API sends them: any JSON value."

/** Every JSON type, one branch each (strict validators refuse a list of types): what a value the
 * contract leaves open may be, said rather than left empty. */
const anyJsonValue = ["string", "number", "boolean", "object", "array", "null"].map((type) => ({ type }))

/** The keywords that say what a schema admits; a schema with none of them admits anything. */
const constraining = ["type", "enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref", "properties", "items"]

/** The keywords whose value is one schema, and those whose value is a list or a map of schemas. */
const oneSchema = ["items", "additionalProperties", "not"] as const
const schemaLists = ["anyOf", "oneOf", "allOf"] as const

/**
 * `json` with every sub-schema that admits anything (`{}`: a value the spec does not show, the fields
 * the API may add) replaced by one that says so: every JSON type, and a description. An empty schema
 * is legal, but a portable client cannot tell it from a schema that was lost on the way.
 */
function explicit(json: JsonSchema.JsonObject, open: string): JsonSchema.JsonObject
function explicit(json: JsonSchema.Json, open: string): JsonSchema.Json
function explicit(json: JsonSchema.Json, open: string): JsonSchema.Json {
  if (!isObject(json)) return json
  if (!constraining.some((keyword) => keyword in json)) {
    return { ...json, anyOf: anyJsonValue, description: typeof json.description === "string" ? json.description : open }
  }
  const out: Record<string, JsonSchema.Json> = { ...json }
  for (const keyword of oneSchema) {
    const inner = json[keyword]
    if (isObject(inner)) {
      out[keyword] = explicit(inner, keyword === "additionalProperties" ? otherFields : open)
    }
  }
  for (const keyword of schemaLists) {
    const inner = json[keyword]
    if (Array.isArray(inner)) out[keyword] = inner.map((schema) => explicit(schema, open))
  }
  const properties = json.properties
  if (isObject(properties)) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, schema]) => [key, explicit(schema, open)])
    )
  }
  return out
}

/**
 * The output schema of a tool whose success is `result`: an object with exactly one of `result` and
 * `error`. An object root with no union at the top, so that it reads the same in both dialects. No
 * sub-schema is left empty (see {@link explicit}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (result: JsonSchema.JsonObject): Schema => ({
  type: "object",
  properties: { result: explicit(result, notShown), error: errorSchema },
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1
})

/**
 * The output schema of the tool of a documented operation.
 *
 * @since 0.1.0
 * @category constructors
 */
export const forOperation = (op: Operation.Any): Schema => make(resultSchema(op))

/**
 * The output schema of `call`.
 *
 * @since 0.1.0
 * @category constants
 */
export const forCall: Schema = make(anyResult)
