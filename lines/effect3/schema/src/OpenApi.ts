/**
 * The OpenAPI 3.1 document of the API, built from the operation declarations: one `POST` path per
 * operation, its parameters as the request body, and every answer inside the envelope with HTTP
 * status 200, the error codes it can produce and its access and limit flags.
 *
 * The document describes the wire as the reference server reads and writes it: `count` above 500 is
 * replaced, not refused; names starting with `_` are refused; the token may ride in the body as
 * `api_key`; every number of the API is an integer. Examples are not part of the contract: the
 * generator passes them in (`scripts/openapi.ts` captures them from the reference server's demo data).
 * The document's plain data and its assembly are the core's (`@community-api/core/OpenApiDocument`),
 * shared with the Effect 4 line; this module gives it this line's JSON Schemas of the contract.
 *
 * @since 0.1.0
 */
import * as OpenApiDocument from "@community-api/core/OpenApiDocument"
import { SchemaAST } from "effect"
import * as ApiError from "./ApiError.js"
import * as Envelope from "./Envelope.js"
import * as JsonSchema from "./JsonSchema.js"
import type * as Operation from "./Operation.js"
import * as Operations from "./Operations.js"
import * as Page from "./Page.js"

/**
 * A JSON value of the document.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = JsonSchema.Json

export type {
  /**
   * The OpenAPI document: a plain JSON object.
   *
   * @since 0.1.0
   * @category models
   */
  Document,
  /**
   * One request of an operation and the answer to it, as the wire carries them: `request` is the JSON
   * body, `response` the whole envelope.
   *
   * @since 0.1.0
   * @category models
   */
  Example,
  /**
   * Examples by operation path (`section/method`).
   *
   * @since 0.1.0
   * @category models
   */
  Examples
} from "@community-api/core/OpenApiDocument"

export type {
  /**
   * What the document is made with besides the operations: the example request and response shown for
   * each operation.
   *
   * @since 0.1.0
   * @category options
   */
  Options
} from "@community-api/core/OpenApiDocument"

/**
 * Where the reusable schemas live in the document.
 *
 * @since 0.1.0
 * @category constants
 */
export const schemaPath = OpenApiDocument.schemaPath

/**
 * The name under which an example appears in `examples` of a request body and of a response.
 *
 * @since 0.1.0
 * @category constants
 */
export const exampleName = OpenApiDocument.exampleName

/**
 * The `operationId` of an operation: `section_method`.
 *
 * @since 0.1.0
 * @category utils
 */
export const operationId: (op: Operation.Any) => string = OpenApiDocument.operationId

/**
 * The codes the reference server answers to a request for any operation, whatever the operation
 * declares: 7 for a parameter whose name starts with `_` and for a body that is not a JSON object or
 * a form. The document lists them for every operation, beside the operation's own codes.
 *
 * @since 0.1.0
 * @category constants
 */
export const anyOperationErrorCodes: ReadonlyArray<ApiError.ErrorCode> = OpenApiDocument.anyOperationErrorCodes

/**
 * Every code the document lists for an operation: its declared codes and {@link anyOperationErrorCodes},
 * in ascending order.
 *
 * @since 0.1.0
 * @category utils
 */
export const errorCodes: (op: Operation.Any) => ReadonlyArray<ApiError.ErrorCode> = OpenApiDocument.errorCodes

/**
 * How the document derives a wire schema: named schemas as references to its components, and
 * unknown extra fields allowed, as decoding ignores them.
 */
const documentOptions = (references: JsonSchema.References): JsonSchema.Options => ({
  references,
  otherProperties: true
})

/** The identifier under which the contract's `count` lands among the definitions. */
const countIdentifier = SchemaAST.getIdentifierAnnotation(Page.Count.ast)

/**
 * Builds the OpenAPI 3.1 document from {@link Operations.all}, with `options.examples` when given: the
 * core's document around this line's JSON Schemas of the contract.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: OpenApiDocument.Options = {}): OpenApiDocument.Document => {
  const references: JsonSchema.References = { definitions: {}, path: schemaPath }
  return OpenApiDocument.make(Operations.all, {
    input: (op) => JsonSchema.input(op, documentOptions(references)),
    success: (op) => JsonSchema.make(op.success, documentOptions(references)),
    errorEnvelope: () => JsonSchema.make(Envelope.ErrorEnvelope, documentOptions(references)),
    definitions: () => JsonSchema.definitionsOf(references),
    countIdentifier: countIdentifier._tag === "Some" ? countIdentifier.value : undefined,
    errorTag: (code) => ApiError.byCode[code].name
  }, options)
}
