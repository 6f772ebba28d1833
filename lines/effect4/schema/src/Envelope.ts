/**
 * The envelope every answer comes in, on the Effect 4 line: from a wire body to a success or a typed
 * error (the client's half), and from a success or an error to a wire body.
 *
 * @since 0.1.0
 */
import { Effect, Result, Schema } from "effect"
import * as ApiError from "./ApiError.js"
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
}).annotate({ identifier: "ErrorEnvelope" })

/**
 * The type {@link ErrorEnvelope} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorEnvelope = typeof ErrorEnvelope.Type

/**
 * A success with no `response` field: `{status: 'ok'}`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EmptySuccessEnvelope = Schema.Struct({ status: Schema.Literal("ok") }).annotate({
  identifier: "EmptySuccessEnvelope"
})

const successCache = new WeakMap<Operation.Any, Schema.Codec<unknown, unknown>>()

/**
 * The success body of `op`: `{status: 'ok', response}`, or `{status: 'ok'}` when it answers no data.
 *
 * @since 0.1.0
 * @category schemas
 */
export const successEnvelope = <Op extends Operation.Any>(
  op: Op
): Schema.Codec<{ readonly status: "ok"; readonly response?: Operation.Success<Op> }, unknown> => {
  let schema = successCache.get(op)
  if (schema === undefined) {
    // A `response` of a schema that admits `undefined` (an undocumented operation's `unknown`) may be
    // missing, as on the Effect 3 line, whose struct reads a missing key of such a type as `undefined`.
    const response = Schema.is(op.success as Schema.Codec<unknown, unknown>)(undefined)
      ? Schema.optionalKey(op.success)
      : op.success
    schema = (op.hasResponse
      ? Schema.Struct({ status: Schema.Literal("ok"), response })
      : EmptySuccessEnvelope) as unknown as Schema.Codec<unknown, unknown>
    successCache.set(op, schema)
  }
  return schema as Schema.Codec<{ readonly status: "ok"; readonly response?: Operation.Success<Op> }, unknown>
}

/**
 * An answer that is neither envelope, or whose `response` does not fit the operation's schema.
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

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/**
 * The success or the typed error of `body`, an answer of `op`, without running an effect.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeResult = <Op extends Operation.Any>(op: Op) => {
  const success = Schema.decodeUnknownResult(successEnvelope(op))
  const error = Schema.decodeUnknownResult(ErrorEnvelope)
  return (body: unknown): Result.Result<Operation.Success<Op>, Operation.Error<Op> | EnvelopeDecodeError> => {
    if (isObject(body) && body.status === "error") {
      const wire = error(body)
      return Result.isSuccess(wire)
        ? Result.fail(ApiError.fromWire(wire.success, op.path, op.errorCodes) as Operation.Error<Op>)
        : Result.fail(new EnvelopeDecodeError({ operation: op.path, reason: wire.failure.message }))
    }
    const decoded = success(body)
    return Result.isSuccess(decoded)
      ? Result.succeed(decoded.success.response as Operation.Success<Op>)
      : Result.fail(new EnvelopeDecodeError({ operation: op.path, reason: decoded.failure.message }))
  }
}

/**
 * The success or the typed error of `body`, an answer of `op`.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = <Op extends Operation.Any>(op: Op) => {
  const decodeOne = decodeResult(op)
  return (body: unknown): Effect.Effect<Operation.Success<Op>, Operation.Error<Op> | EnvelopeDecodeError> =>
    Effect.fromResult(decodeOne(body))
}

/**
 * The success body of `value`, an answer of `op`.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encodeSuccess = <Op extends Operation.Any>(op: Op) => {
  const encode = Schema.encodeUnknownEffect(successEnvelope(op))
  return (value: Operation.Success<Op>): Effect.Effect<unknown, Schema.SchemaError> =>
    encode(op.hasResponse ? { status: "ok", response: value } : { status: "ok" })
}

/**
 * The error body of an error of the API.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encodeError = (error: { readonly code: number; readonly text: string }): ErrorEnvelope => ({
  status: "error",
  error: error.text,
  error_code: error.code
})
