/**
 * The OpenAPI 3.1 document of the API, built from this line's schemas: the same document as the Effect
 * 3 line's (`@community-api/schema/OpenApi`, its `openapi.json`), which a test holds equal.
 *
 * The document's plain data and its assembly (paths, words, flags, error codes, the schemas every
 * request body shares) are the core's (`@community-api/core/OpenApiDocument`); this module gives it
 * the JSON Schemas of this line's schemas, derived by the Effect 3 line's conventions.
 *
 * @since 0.1.0
 */
import * as OpenApiDocument from "@community-api/core/OpenApiDocument"
import * as ApiError from "./ApiError.js"
import * as Envelope from "./Envelope.js"
import * as JsonSchema from "./internal/jsonSchema.js"
import type * as Operation from "./Operation.js"
import * as Operations from "./Operations.js"
import * as Page from "./Page.js"

/**
 * A JSON value of the document.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = OpenApiDocument.Json

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
 * declares (7): the document lists them for every operation, beside the operation's own codes.
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

/** The name of the line's `count`, whose component the document replaces by the wire's. */
const countIdentifier = JsonSchema.identifierOf(Page.Count.ast)

/**
 * Builds the OpenAPI 3.1 document from {@link Operations.all}, with `options.examples` when given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: OpenApiDocument.Options = {}): OpenApiDocument.Document => {
  // Named schemas become components; an object admits properties it does not name, as decoding ignores them.
  const derivation: JsonSchema.Options = {
    references: { definitions: {}, path: schemaPath },
    otherProperties: true
  }
  return OpenApiDocument.make(Operations.all, {
    input: (op) => JsonSchema.fromPayload(op.payload.ast, derivation, `${op.path} payload`),
    success: (op) => JsonSchema.make(op.success.ast, derivation, `${op.path} success`),
    errorEnvelope: () => JsonSchema.make(Envelope.ErrorEnvelope.ast, derivation, "ErrorEnvelope"),
    definitions: () => JsonSchema.definitionsOf(derivation.references),
    countIdentifier,
    errorTag: (code) => ApiError.byCode[code].name
  }, options)
}
