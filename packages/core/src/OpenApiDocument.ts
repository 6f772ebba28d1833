/**
 * The OpenAPI 3.1 document of the API, as plain data around the JSON Schemas a line derives: one
 * `POST` path per operation, its parameters as the request body, and every answer inside the
 * envelope with HTTP status 200, the error codes it can produce and its access and limit flags.
 *
 * Everything here is the same on both Effect lines: the paths, the words, the flags, the error codes,
 * the schemas every request body shares. What a line adds is the JSON Schema of its own schemas (an
 * operation's parameters, its success, the error envelope, and the named schemas they refer to), given
 * as a {@link Derivation}; each line derives them from its schemas by the same conventions, so that
 * both lines build the same document.
 *
 * The document describes the wire as the reference server reads and writes it: `count` above 500 is
 * replaced, not refused; names starting with `_` are refused; the token may ride in the body as
 * `api_key`; every number of the API is an integer. Examples are not part of the contract: the caller
 * passes them in (the Effect 3 line's `scripts/openapi.ts` captures them from the reference server).
 *
 * @since 0.1.0
 */
import * as ErrorCodes from "./ErrorCodes.js"
import * as Limits from "./Limits.js"
import type * as Operation from "./Operation.js"
import * as Operations from "./Operations.js"
import * as Wire from "./Wire.js"

/**
 * A JSON value of the document.
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
 * What the document is made with besides the operations: the example request and response shown for
 * each operation.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** One example per operation; an operation without one gets none. */
  readonly examples?: Examples
}

/**
 * What the document reads of an operation of either line: the core's declaration, where it lives, and
 * of its schemas only whether there is a `response` and whether it is a list (it has an item).
 *
 * @since 0.1.0
 * @category models
 */
export interface DescribedOperation
  extends Omit<Operation.AnyDeclaration, "pageable">, Operation.Location<string, string>
{
  /** `false` when a success is `{status: 'ok'}` with no `response` field. */
  readonly hasResponse: boolean
  /** For a list operation, the schema of one item; `undefined` otherwise. */
  readonly item: unknown
  /** For an undocumented operation whose schemas are assumed: why they are what they are. */
  readonly assumption?: string | undefined
}

/**
 * The JSON Schemas a line derives from its own schemas, named schemas as references to
 * {@link schemaPath}. The document calls them operation by operation, in order (the parameters, then
 * the success, then the error envelope), then reads the named schemas they gathered.
 *
 * @since 0.1.0
 * @category models
 */
export interface Derivation<Op extends DescribedOperation> {
  /** The operation's parameters: an object schema, or a reference to one. */
  readonly input: (op: Op) => JsonObject
  /** What `response` holds on success (called only when the operation has a `response`). */
  readonly success: (op: Op) => Json
  /** The error envelope. */
  readonly errorEnvelope: () => Json
  /** The named schemas gathered by the calls above, by name. */
  readonly definitions: () => JsonObject
  /** The name the line gives its `count`, whose component the document replaces by the wire's. */
  readonly countIdentifier: string | undefined
  /** The tag of the error class of a code. */
  readonly errorTag: (code: ErrorCodes.ErrorCode) => string
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
export const operationId = (op: Operation.Location<string, string>): string => `${op.section}_${op.method}`

/**
 * The codes the reference server answers to a request for any operation, whatever the operation
 * declares: 7 for a parameter whose name starts with `_` and for a body that is not a JSON object or
 * a form. The document lists them for every operation, beside the operation's own codes.
 *
 * @since 0.1.0
 * @category constants
 */
export const anyOperationErrorCodes: ReadonlyArray<ErrorCodes.ErrorCode> = [7]

/**
 * Every code the document lists for an operation: its declared codes and {@link anyOperationErrorCodes},
 * in ascending order.
 *
 * @since 0.1.0
 * @category utils
 */
export const errorCodes = (
  op: { readonly errorCodes: ReadonlyArray<ErrorCodes.ErrorCode> }
): ReadonlyArray<ErrorCodes.ErrorCode> =>
  [...new Set([...op.errorCodes, ...anyOperationErrorCodes])].sort((a, b) => a - b)

const ref = (name: string): Json => ({ $ref: `${schemaPath}${name}` })

const isObject = (json: unknown): json is JsonObject =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/**
 * `count` as the wire takes it: the contract's schema describes the decoded range (at most 500), but
 * the server replaces a larger value by 500 instead of refusing it.
 *
 * @since 0.1.0
 * @category constants
 */
export const countSchema: JsonObject = {
  type: "integer",
  minimum: 1,
  default: Wire.defaultCount,
  description: `Items per page, at least 1 (default ${Wire.defaultCount}). A larger value than ${Wire.maxCount} ` +
    `is not refused: it is replaced by ${Wire.maxCount}.`
}

/**
 * The schemas every request body shares, beside those the operations name.
 *
 * @since 0.1.0
 * @category constants
 */
export const sharedSchemas: { readonly [name: string]: JsonObject } = {
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
const isEmptyObject = (payload: JsonObject) =>
  isObject(payload.properties) && Object.keys(payload.properties).length === 0 && payload.required === undefined &&
  payload.additionalProperties === true

/** The request body schema: the payload with `api_key` and the `_` rule merged in (or beside a reference). */
const requestSchema = (payload: JsonObject): Json => {
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

const describeOperation = (op: DescribedOperation): string => {
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

const pathItem = <Op extends DescribedOperation>(
  op: Op,
  derivation: Derivation<Op>,
  example: Example | undefined
): Json => {
  // The order of the calls is the order in which named schemas are first met; it decides nothing of
  // the document but is kept the same on both lines.
  const payload = derivation.input(op)
  const body = requestSchema(payload)
  const success: Json = op.hasResponse
    ? {
      type: "object",
      required: ["status", "response"],
      properties: { status: { const: "ok" }, response: derivation.success(op) }
    }
    : { type: "object", required: ["status"], properties: { status: { const: "ok" } } }
  const errorEnvelope = derivation.errorEnvelope()
  const codes = errorCodes(op)
  const codeLine = (code: ErrorCodes.ErrorCode) =>
    `${code} ${derivation.errorTag(code)} (${ErrorCodes.classification[code].kind}): ${
      ErrorCodes.classification[code].meaning
    }`
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
              schema: { oneOf: [success, errorEnvelope] },
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
      "x-pageable": op.item !== undefined,
      "x-error-codes": codes.map((code) => ({
        code,
        tag: derivation.errorTag(code),
        kind: ErrorCodes.classification[code].kind,
        meaning: ErrorCodes.classification[code].meaning
      }))
    }
  }
}

/**
 * Builds the OpenAPI 3.1 document of `operations` (a line's every operation, in the contract's order)
 * with the JSON Schemas of `derivation`, and `options.examples` when given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <Op extends DescribedOperation>(
  operations: ReadonlyArray<Op>,
  derivation: Derivation<Op>,
  options: Options = {}
): Document => {
  const paths = Object.fromEntries(
    operations.map((op) => [`/${op.path}`, pathItem(op, derivation, options.examples?.[op.path])])
  )
  const countIdentifier = derivation.countIdentifier
  return {
    openapi: "3.1.0",
    info: {
      title: "Community automation service: external API",
      version: "2",
      description: "Every operation is `POST {base_url}/{section}/{method}`; `{base_url}` ends with `/v2`. " +
        "Every answer has HTTP status 200 and an envelope whose `status` is `ok` or `error`. " +
        "The examples are requests on the reference server's demo data and its answers to them.",
      license: { name: "MIT", identifier: "MIT" }
    },
    servers: [{ url: "/external-api/v2", description: "version 2 below the service's address" }],
    security: [{ bearer: [] }, { api_key: [] }],
    tags: Operations.sectionNames.map((name) => ({ name, description: `The \`${name}/*\` operations.` })),
    paths,
    components: {
      schemas: {
        ...derivation.definitions(),
        ...(countIdentifier === undefined ? {} : { [countIdentifier]: countSchema }),
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
