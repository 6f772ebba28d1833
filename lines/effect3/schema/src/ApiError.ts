/**
 * Errors of the API: one tagged error per `error_code`, the decoding of a wire error into them,
 * and what each code means for a caller (retry, wait, give up).
 *
 * @since 0.1.0
 */
import * as ErrorCodes from "@community-api/core/ErrorCodes"
import { Schema } from "effect"

/**
 * The error-code table, from the core: `errorCodes`, `ErrorCode`, `ErrorKind`, `classification` (each
 * code's kind and meaning), the common codes, `isErrorCode` and `kindOf`.
 *
 * @since 0.1.0
 */
export * from "@community-api/core/ErrorCodes"

const errorFields = {
  /** The Russian text the server sent. */
  text: Schema.String,
  /** The operation that failed, as `section/method`. */
  operation: Schema.String
}

const describe = (self: { readonly operation: string; readonly code: number; readonly text: string }) =>
  `${self.operation} failed with error ${self.code}: ${self.text}`

/**
 * Error 1: section or method missing, no such section, or an unknown version in the address.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownSectionError extends Schema.TaggedError<UnknownSectionError>()("UnknownSectionError", {
  code: Schema.Literal(1),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 3: no such method in the section.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownMethodError extends Schema.TaggedError<UnknownMethodError>()("UnknownMethodError", {
  code: Schema.Literal(3),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 4: the token or key is missing, expired, revoked or issued for another product.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidTokenError extends Schema.TaggedError<InvalidTokenError>()("InvalidTokenError", {
  code: Schema.Literal(4),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 5: over the request rate or the creation limit.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimitError extends Schema.TaggedError<RateLimitError>()("RateLimitError", {
  code: Schema.Literal(5),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 6: the method could not perform the action; the text says why.
 *
 * @since 0.1.0
 * @category errors
 */
export class ActionFailedError extends Schema.TaggedError<ActionFailedError>()("ActionFailedError", {
  code: Schema.Literal(6),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 7: a parameter is missing or wrong, or the object is not found (another community's object
 * gives the same answer).
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidParameterError extends Schema.TaggedError<InvalidParameterError>()("InvalidParameterError", {
  code: Schema.Literal(7),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 8: no access to the community or section, or enabling a bot in an archived community.
 *
 * @since 0.1.0
 * @category errors
 */
export class AccessDeniedError extends Schema.TaggedError<AccessDeniedError>()("AccessDeniedError", {
  code: Schema.Literal(8),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 9: the key-check service is temporarily unavailable; nothing was done, repeat later.
 *
 * @since 0.1.0
 * @category errors
 */
export class KeyServiceUnavailableError
  extends Schema.TaggedError<KeyServiceUnavailableError>()("KeyServiceUnavailableError", {
    code: Schema.Literal(9),
    ...errorFields
  })
{
  override get message() {
    return describe(this)
  }
}

/**
 * Error 101: internal server error; the action may or may not have happened.
 *
 * @since 0.1.0
 * @category errors
 */
export class InternalServerError extends Schema.TaggedError<InternalServerError>()("InternalServerError", {
  code: Schema.Literal(101),
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * An error envelope whose code the operation is not documented to produce, or no documented code at all.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedApiError extends Schema.TaggedError<UnexpectedApiError>()("UnexpectedApiError", {
  code: Schema.Int,
  ...errorFields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * The error classes by code.
 *
 * @since 0.1.0
 * @category constants
 */
export const byCode = {
  1: UnknownSectionError,
  3: UnknownMethodError,
  4: InvalidTokenError,
  5: RateLimitError,
  6: ActionFailedError,
  7: InvalidParameterError,
  8: AccessDeniedError,
  9: KeyServiceUnavailableError,
  101: InternalServerError
} as const

/**
 * Any error class of {@link byCode}.
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorClass = typeof byCode[ErrorCodes.ErrorCode]

/**
 * Any documented API error.
 *
 * @since 0.1.0
 * @category models
 */
export type ApiError = InstanceType<ErrorClass>

/**
 * The error class of a code.
 *
 * @since 0.1.0
 * @category type-level
 */
export type ErrorOf<C extends ErrorCodes.ErrorCode> = InstanceType<typeof byCode[C]>

/**
 * Turns a wire error (`error_code`, `error`) into its tagged error. A code outside `allowed` (by
 * default every documented code) becomes an {@link UnexpectedApiError}.
 *
 * @since 0.1.0
 * @category decoding
 */
export const fromWire = <const C extends ErrorCodes.ErrorCode = ErrorCodes.ErrorCode>(
  wire: { readonly error_code: number; readonly error: string },
  operation: string,
  allowed: ReadonlyArray<C> = ErrorCodes.errorCodes as unknown as ReadonlyArray<C>
): ErrorOf<C> | UnexpectedApiError => {
  const code = wire.error_code
  if (ErrorCodes.isErrorCode(code) && (allowed as ReadonlyArray<number>).includes(code)) {
    const ErrorClass = byCode[code] as unknown as new(
      args: { code: number; text: string; operation: string }
    ) => ErrorOf<C>
    return new ErrorClass({ code, text: wire.error, operation })
  }
  return new UnexpectedApiError({ code, text: wire.error, operation })
}

/**
 * Makes the tagged error of a code, for the server's side.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <C extends ErrorCodes.ErrorCode>(code: C, text: string, operation: string): ErrorOf<C> =>
  fromWire({ error_code: code, error: text }, operation, [code]) as ErrorOf<C>
