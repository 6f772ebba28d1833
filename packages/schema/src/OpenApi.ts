/**
 * The OpenAPI 3.1 document of the API, built from the operation declarations: one `POST` path per
 * operation, its parameters as the request body, and every answer inside the envelope with HTTP
 * status 200, the error codes it can produce and its access and limit flags.
 *
 * The document describes the wire as the reference server reads and writes it: `count` above 500 is
 * replaced, not refused; names starting with `_` are refused; the token may ride in the body as
 * `api_key`; every number of the API is an integer. Examples are not part of the contract: the
 * generator passes them in (`scripts/openapi.ts` captures them from the reference server's demo data).
 *
 * @since 0.1.0
 */
import { SchemaAST } from "effect"
import * as ApiError from "./ApiError.js"
import * as Envelope from "./Envelope.js"
import * as JsonSchema from "./JsonSchema.js"
import * as Limits from "./Limits.js"
import * as Operation from "./Operation.js"
import * as Operations from "./Operations.js"
import * as Page from "./Page.js"

/**
 * A JSON value of the document.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = JsonSchema.Json

/**
 * The OpenAPI document: a plain JSON object.
 *
 * @since 0.1.0
 * @category models
 */
export interface Document {
  readonly openapi: "3.1.0"
  readonly info: { readonly [key: string]: Json }
  readonly paths: { readonly [path: string]: Json }
  readonly components: { readonly [key: string]: Json }
  readonly [key: string]: Json
}

/**
 * One request of an operation and the answer to it, as the wire carries them: `request` is the JSON
 * body, `response` the whole envelope.
 *
 * @since 0.1.0
 * @category models
 */
export interface Example {
  readonly request: Json
  readonly response: Json
}

/**
 * Examples by operation path (`section/method`).
 *
 * @since 0.1.0
 * @category models
 */
export type Examples = { readonly [path: string]: Example }

/**
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** One example per operation; an operation without one gets none. */
  readonly examples?: Examples
}

/**
 * Where the reusable schemas live in the document.
 *
 * @since 0.1.0
 * @category constants
 */
export const schemaPath = "#/components/schemas/"

/**
 * The name under which an example appears in `examples` of a request body and of a response.
 *
 * @since 0.1.0
 * @category constants
 */
export const exampleName = "demo"

/**
 * The `operationId` of an operation: `section_method`.
 *
 * @since 0.1.0
 * @category utils
 */
export const operationId = (op: Operation.Any): string => `${op.section}_${op.method}`

/**
 * The codes the reference server answers to a request for any operation, whatever the operation
 * declares: 7 for a parameter whose name starts with `_` and for a body that is not a JSON object or
 * a form. The document lists them for every operation, beside the operation's own codes.
 *
 * @since 0.1.0
 * @category constants
 */
export const anyOperationErrorCodes: ReadonlyArray<ApiError.ErrorCode> = [7]

/**
 * Every code the document lists for an operation: its declared codes and {@link anyOperationErrorCodes},
 * in ascending order.
 *
 * @since 0.1.0
 * @category utils
 */
export const errorCodes = (op: Operation.Any): ReadonlyArray<ApiError.ErrorCode> =>
  [...new Set([...op.errorCodes, ...anyOperationErrorCodes])].sort((a, b) => a - b)

const ref = (name: string): Json => ({ $ref: `${schemaPath}${name}` })

const isObject = (json: unknown): json is { readonly [key: string]: Json } =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/**
 * How the document derives a wire schema: named schemas as references to its components, and
 * unknown extra fields allowed, as decoding ignores them.
 */
const documentOptions = (references: JsonSchema.References): JsonSchema.Options => ({
  references,
  otherProperties: true
})

/** The wire schema of a response, or of the input of an operation, in the document. */
interface ToJson {
  readonly schema: (schema: Operation.Any["success"]) => Json
  readonly input: (op: Operation.Any) => JsonSchema.JsonObject
}

const toJsonOf = (references: JsonSchema.References): ToJson => ({
  schema: (schema) => JsonSchema.make(schema, documentOptions(references)),
  input: (op) => JsonSchema.input(op, documentOptions(references))
})

/**
 * `count` as the wire takes it: the contract's schema describes the decoded range (at most 500), but
 * the server replaces a larger value by 500 instead of refusing it.
 */
const countSchema: Json = {
  type: "integer",
  minimum: 1,
  default: Page.defaultCount,
  description: `Items per page, at least 1 (default ${Page.defaultCount}). A larger value than ${Page.maxCount} ` +
    `is not refused: it is replaced by ${Page.maxCount}.`
}

/** The schemas every request body shares, beside those the operations name. */
const sharedSchemas: { readonly [name: string]: Json } = {
  ApiKey: {
    type: "string",
    description: "The token (prefix `thp_`, `lhp_` or `tha_`) as a parameter: in the body, JSON or form, " +
      "the preferred way, or in the query string, which servers log. When the `Authorization` header is sent " +
      "too, the header is used. The server never treats it as a parameter of the operation."
  },
  ParameterName: {
    type: "string",
    not: { pattern: "^_" },
    description: "A parameter whose name starts with `_` is reserved and not accepted: the server answers " +
      "error 7."
  }
}

/** What every request body takes whatever the operation: `api_key`, and no `_` names. */
const requestRules = {
  properties: { api_key: ref("ApiKey") },
  propertyNames: ref("ParameterName")
}

/** An object schema with no property: an operation without parameters. */
const isEmptyObject = (payload: JsonSchema.JsonObject) =>
  isObject(payload.properties) && Object.keys(payload.properties).length === 0 && payload.required === undefined &&
  payload.additionalProperties === true

/** The request body schema: the payload with `api_key` and the `_` rule merged in (or beside a reference). */
const requestSchema = (payload: JsonSchema.JsonObject): Json => {
  if (isEmptyObject(payload)) return { type: "object", ...requestRules, additionalProperties: true }
  if (payload.type === "object" && isObject(payload.properties)) {
    return {
      ...payload,
      properties: { ...payload.properties, ...requestRules.properties },
      propertyNames: requestRules.propertyNames
    }
  }
  return { allOf: [payload, { type: "object", ...requestRules }] }
}

const codeLine = (code: ApiError.ErrorCode) =>
  `${code} ${ApiError.byCode[code].name} (${ApiError.classification[code].kind}): ${
    ApiError.classification[code].meaning
  }`

const successEnvelope = (op: Operation.Any, toJson: ToJson): Json =>
  op.hasResponse
    ? {
      type: "object",
      required: ["status", "response"],
      properties: { status: { const: "ok" }, response: toJson.schema(op.success) }
    }
    : { type: "object", required: ["status"], properties: { status: { const: "ok" } } }

const describeOperation = (op: Operation.Any): string => {
  const assumption = op.assumption
  return [
    op.summary,
    ...(op.documented
      ? []
      : ["The operation exists, but the API does not document its parameters or its response."]),
    ...(assumption === undefined ? [] : [
      `Assumed: the parameters and response below are what the contract and the reference server assume ` +
      `(\`x-assumed\`): ${assumption}`
    ]),
    `Access: ${op.roleGroup === "none" ? "any valid token" : `role group \`${op.roleGroup}\``}.`,
    ...(op.creation
      ? [
        `Counts against the shared creation limit (${Limits.creationsPerMinute} per minute, ` +
        `${Limits.creationsPerDay} per day).`
      ]
      : []),
    "The HTTP status is always 200; `status` tells success from error."
  ].join("\n\n")
}

const demo = (summary: string, value: Json | undefined) =>
  value === undefined ? {} : { examples: { [exampleName]: { summary, value } } }

const pathItem = (op: Operation.Any, toJson: ToJson, example: Example | undefined): Json => {
  const payload = toJson.input(op)
  const body = requestSchema(payload)
  const codes = errorCodes(op)
  const assumption = op.assumption
  return {
    post: {
      operationId: operationId(op),
      tags: [op.section],
      summary: op.summary,
      description: describeOperation(op),
      requestBody: {
        required: Array.isArray(payload.required) && payload.required.length > 0,
        description: "The parameters: a JSON body, or a form body. The token may be sent here as `api_key`; " +
          "a parameter whose name starts with `_` is refused with error 7.",
        content: {
          "application/json": {
            schema: body,
            ...demo("A request on the sandbox's demo data, with the owner's token", example?.request)
          },
          "application/x-www-form-urlencoded": { schema: body }
        }
      },
      responses: {
        "200": {
          description: [
            op.hasResponse
              ? "`{status: 'ok', response}` on success, `{status: 'error', error, error_code}` on error."
              : "`{status: 'ok'}` with no `response` on success, `{status: 'error', error, error_code}` on error.",
            "Error codes of this operation:",
            ...codes.map((code) => `- ${codeLine(code)}`)
          ].join("\n"),
          content: {
            "application/json": {
              schema: { oneOf: [successEnvelope(op, toJson), toJson.schema(Envelope.ErrorEnvelope)] },
              ...demo("What the sandbox answers to the request example on its demo data", example?.response)
            }
          }
        }
      },
      "x-rule": op.rule,
      "x-documented": op.documented,
      ...(assumption === undefined ? {} : { "x-assumed": assumption }),
      "x-role-group": op.roleGroup,
      "x-creation-limit": op.creation,
      "x-safe-to-repeat": op.safeToRepeat,
      "x-pageable": Operation.isPageable(op),
      "x-error-codes": codes.map((code) => ({
        code,
        tag: ApiError.byCode[code].name,
        kind: ApiError.classification[code].kind,
        meaning: ApiError.classification[code].meaning
      }))
    }
  }
}

/** The identifier under which the contract's `count` lands among the definitions. */
const countIdentifier = SchemaAST.getIdentifierAnnotation(Page.Count.ast)

/**
 * Builds the OpenAPI 3.1 document from {@link Operations.all}, with `options.examples` when given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Document => {
  const references: JsonSchema.References = { definitions: {}, path: schemaPath }
  const toJson = toJsonOf(references)
  const paths = Object.fromEntries(
    Operations.all.map((op) => [`/${op.path}`, pathItem(op, toJson, options.examples?.[op.path])])
  )
  const schemas = JsonSchema.definitionsOf(references)
  return {
    openapi: "3.1.0",
    info: {
      title: "Community automation service: external API",
      version: "2",
      description: "Every operation is `POST {base_url}/{section}/{method}`; `{base_url}` ends with `/v2`. " +
        "Every answer has HTTP status 200 and an envelope whose `status` is `ok` or `error`. " +
        "The examples are requests on the reference server's demo data and its answers to them."
    },
    servers: [{ url: "/external-api/v2", description: "version 2 below the service's address" }],
    security: [{ bearer: [] }, { api_key: [] }],
    tags: Object.keys(Operations.sections).map((name) => ({ name, description: `The \`${name}/*\` operations.` })),
    paths,
    components: {
      schemas: {
        ...schemas,
        ...(countIdentifier._tag === "Some" ? { [countIdentifier.value]: countSchema } : {}),
        ...sharedSchemas
      },
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
          description: "The same token (prefix `thp_`, `lhp_` or `tha_`) as the request parameter `api_key`. " +
            "An OpenAPI security scheme can name only a header, a query parameter or a cookie, so this one " +
            "says query string; the body (JSON or form), which the spec prefers because servers log query " +
            "strings, is described by the `api_key` property of every request body (schema `ApiKey`)."
        }
      }
    }
  }
}
