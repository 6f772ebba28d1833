/**
 * The envelope every answer comes in, and a codec per operation: from a wire body to a
 * success or a typed error (the client's half), and from a success or an error to a wire body (the
 * server's half).
 *
 * @since 0.1.0
 */
import { Effect, Option, ParseResult, Schema } from "effect"
import * as ApiError from "./ApiError.js"
import * as FastDecode from "./internal/fastDecode.js"
import type * as Operation from "./Operation.js"

/**
 * An error body: `{status: 'error', error, error_code}`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorEnvelope = Schema.Struct({
  status: Schema.Literal("error"),
  error: Schema.String,
  error_code: Schema.Int
}).annotations({ identifier: "ErrorEnvelope" })

/**
 * The type {@link ErrorEnvelope} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorEnvelope = typeof ErrorEnvelope.Type

/**
 * A success body with no `response` field.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EmptySuccessEnvelope = Schema.Struct({ status: Schema.Literal("ok") }).annotations({
  identifier: "EmptySuccessEnvelope"
})

const successCache = new WeakMap<Operation.Any, Schema.Schema<any, any>>()

/**
 * The success body of an operation: `{status: 'ok', response}`, or `{status: 'ok'}` when it has no
 * response field.
 *
 * @since 0.1.0
 * @category schemas
 */
export const successEnvelope = <Op extends Operation.Any>(
  op: Op
): Schema.Schema<{ readonly status: "ok"; readonly response?: Operation.Success<Op> }, {
  readonly status: "ok"
  readonly response?: Schema.Schema.Encoded<Op["success"]>
}> => {
  let schema = successCache.get(op)
  if (schema === undefined) {
    schema = op.hasResponse
      ? Schema.Struct({ status: Schema.Literal("ok"), response: op.success })
      : EmptySuccessEnvelope
    successCache.set(op, schema)
  }
  return schema
}

/**
 * Why a body could not be read as an envelope of the operation.
 *
 * @since 0.1.0
 * @category errors
 */
export class EnvelopeDecodeError extends Schema.TaggedError<EnvelopeDecodeError>()("EnvelopeDecodeError", {
  operation: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.operation}: the answer is not a valid envelope: ${this.reason}`
  }
}

const fastCache = new WeakMap<Operation.Any, (body: unknown) => Option.Option<unknown>>()
const noFastPath = (): Option.Option<unknown> => Option.none()

const fastSuccess = (op: Operation.Any) => {
  let fast = fastCache.get(op)
  if (fast === undefined) {
    fast = FastDecode.make(successEnvelope(op).ast) ?? noFastPath
    fastCache.set(op, fast)
  }
  return fast
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/**
 * Reads a wire body (parsed JSON) as the answer of an operation: its decoded success, its typed error,
 * or an {@link EnvelopeDecodeError} when the body fits neither.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = <Op extends Operation.Any>(op: Op) =>
(
  body: unknown
): Effect.Effect<Operation.Success<Op>, Operation.Error<Op> | EnvelopeDecodeError> => {
  if (isObject(body) && body.status === "error") {
    return Schema.decodeUnknown(ErrorEnvelope)(body).pipe(
      Effect.mapError((error) =>
        new EnvelopeDecodeError({ operation: op.path, reason: ParseResult.TreeFormatter.formatErrorSync(error) })
      ),
      Effect.flatMap((wire) => Effect.fail(ApiError.fromWire(wire, op.path, op.errorCodes) as Operation.Error<Op>))
    )
  }
  // Valid answers (nearly all) take the compiled fast path; the schema's decoder decides the rest.
  const fast = fastSuccess(op)(body)
  if (Option.isSome(fast)) return Effect.succeed((fast.value as { readonly response?: unknown }).response as never)
  return Schema.decodeUnknown(successEnvelope(op))(body).pipe(
    Effect.map((envelope) => envelope.response as Operation.Success<Op>),
    Effect.mapError((error) =>
      new EnvelopeDecodeError({ operation: op.path, reason: ParseResult.TreeFormatter.formatErrorSync(error) })
    )
  )
}

/**
 * Writes the success body of an operation.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encodeSuccess = <Op extends Operation.Any>(op: Op) =>
(
  value: Operation.Success<Op>
): Effect.Effect<unknown, ParseResult.ParseError> =>
  Schema.encode(successEnvelope(op))(
    (op.hasResponse ? { status: "ok", response: value } : { status: "ok" }) as never
  )

/**
 * Writes the error body of an error.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encodeError = (error: { readonly code: number; readonly text: string }): ErrorEnvelope => ({
  status: "error",
  error: error.text,
  error_code: error.code
})
