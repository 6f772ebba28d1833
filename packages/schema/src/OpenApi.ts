/**
 * The OpenAPI 3.1 document of the API, built from the operation declarations: one `POST` path per
 * operation (C1), its parameters as the request body, and every answer inside the envelope with
 * HTTP status 200 (C4, C5, C6), the error codes it can produce (X1) and its access and limit flags.
 *
 * @since 0.1.0
 */
import { JSONSchema } from "effect"
import * as ApiError from "./ApiError.js"
import * as Envelope from "./Envelope.js"
import * as Operation from "./Operation.js"
import * as Operations from "./Operations.js"

/**
 * A JSON value of the document.
 *
 * @since 0.1.0
 */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/**
 * The OpenAPI document: a plain JSON object.
 *
 * @since 0.1.0
 */
export interface Document {
  readonly openapi: "3.1.0"
  readonly info: { readonly [key: string]: Json }
  readonly paths: { readonly [path: string]: Json }
  readonly components: { readonly [key: string]: Json }
  readonly [key: string]: Json
}

/**
 * Where the reusable schemas live in the document.
 *
 * @since 0.1.0
 */
export const schemaPath = "#/components/schemas/"

/**
 * The `operationId` of an operation: `section_method`.
 *
 * @since 0.1.0
 */
export const operationId = (op: Operation.Any): string => `${op.section}_${op.method}`

/**
 * Effect marks "any value" schemas with `$id`s such as `/schemas/unknown`; repeated in one document
 * they would collide as identifiers, and a schema with no constraint means the same without them.
 */
const withoutIds = (json: unknown): Json => {
  if (Array.isArray(json)) return json.map(withoutIds)
  if (typeof json === "object" && json !== null) {
    return Object.fromEntries(
      Object.entries(json).filter(([key]) => key !== "$id").map(([key, value]) => [key, withoutIds(value)])
    )
  }
  return json as Json
}

/**
 * The JSON Schema of the wire form of a schema: effect's derivation describes the encoded side of
 * transformations (numbers for dates, any letter case for channels), which is what the wire carries.
 * Unknown extra fields are allowed, as decoding ignores them (and `api_key` may ride in the body, A2).
 */
const wireSchema = (definitions: Record<string, JSONSchema.JsonSchema7>) => (schema: Operation.Any["payload"]) =>
  withoutIds(JSONSchema.fromAST(schema.ast, {
    definitions,
    definitionPath: schemaPath,
    target: "openApi3.1",
    additionalPropertiesStrategy: "allow"
  }))

const codeLine = (code: ApiError.ErrorCode) =>
  `${code} ${ApiError.byCode[code].name} (${ApiError.classification[code].kind}): ${
    ApiError.classification[code].meaning
  }`

const successEnvelope = (op: Operation.Any, toJson: (schema: Operation.Any["payload"]) => Json): Json =>
  op.hasResponse
    ? {
      type: "object",
      required: ["status", "response"],
      properties: { status: { const: "ok" }, response: toJson(op.success) }
    }
    : { type: "object", required: ["status"], properties: { status: { const: "ok" } } }

const describeOperation = (op: Operation.Any): string =>
  [
    op.summary,
    op.documented
      ? `Rule ${op.rule}.`
      : `Rule E17: the operation exists, but its parameters and response are not shown in the spec.`,
    `Access: ${op.roleGroup === "none" ? "any valid token" : `role group \`${op.roleGroup}\``}.`,
    ...(op.creation ? ["Counts against the shared creation limit (20 per minute, 200 per day)."] : []),
    "The HTTP status is always 200; `status` tells success from error."
  ].join("\n\n")

const pathItem = (op: Operation.Any, toJson: (schema: Operation.Any["payload"]) => Json): Json => {
  const body = toJson(op.payload)
  return {
    post: {
      operationId: operationId(op),
      tags: [op.section],
      summary: op.summary,
      description: describeOperation(op),
      requestBody: {
        required: typeof body === "object" && body !== null && "required" in body && Array.isArray(body.required) &&
          body.required.length > 0,
        description: "The parameters: a JSON body, or a form body (C2).",
        content: {
          "application/json": { schema: body },
          "application/x-www-form-urlencoded": { schema: body }
        }
      },
      responses: {
        "200": {
          description: [
            op.hasResponse
              ? "`{status: 'ok', response}` on success, `{status: 'error', error, error_code}` on error."
              : "`{status: 'ok'}` with no `response` on success, `{status: 'error', error, error_code}` on error.",
            "Error codes of this operation (any other decodes as UnexpectedApiError):",
            ...op.errorCodes.map((code) => `- ${codeLine(code)}`)
          ].join("\n"),
          content: {
            "application/json": { schema: { oneOf: [successEnvelope(op, toJson), toJson(Envelope.ErrorEnvelope)] } }
          }
        }
      },
      "x-rule": op.rule,
      "x-documented": op.documented,
      "x-role-group": op.roleGroup,
      "x-creation-limit": op.creation,
      "x-safe-to-repeat": op.safeToRepeat,
      "x-pageable": Operation.isPageable(op),
      "x-error-codes": op.errorCodes.map((code) => ({
        code,
        tag: ApiError.byCode[code].name,
        kind: ApiError.classification[code].kind,
        meaning: ApiError.classification[code].meaning
      }))
    }
  }
}

/**
 * Builds the OpenAPI 3.1 document from {@link Operations.all}.
 *
 * @since 0.1.0
 */
export const make = (): Document => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const toJson = wireSchema(definitions)
  const paths = Object.fromEntries(Operations.all.map((op) => [`/${op.path}`, pathItem(op, toJson)]))
  return {
    openapi: "3.1.0",
    info: {
      title: "Community automation service: external API",
      version: "2",
      description: "Every operation is `POST {base_url}/{section}/{method}`; `{base_url}` ends with `/v2`. " +
        "Every answer has HTTP status 200 and an envelope whose `status` is `ok` or `error`."
    },
    servers: [{ url: "/external-api/v2", description: "version 2 below the service's address" }],
    security: [{ bearer: [] }, { api_key: [] }],
    tags: Object.keys(Operations.sections).map((name) => ({ name, description: `The \`${name}/*\` operations.` })),
    paths,
    components: {
      schemas: withoutIds(definitions),
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "`Authorization: Bearer <token>`, the main way; used when `api_key` is sent too."
        },
        api_key: {
          type: "apiKey",
          in: "query",
          name: "api_key",
          description: "The same token (prefix thp_, lhp_ or tha_) as a request parameter; the body " +
            "(JSON or form) is preferred over the query string, which servers log."
        }
      }
    }
  }
}
