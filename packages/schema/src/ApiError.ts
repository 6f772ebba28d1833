/**
 * Errors of the API: one tagged error per `error_code`, the decoding of a wire error into them,
 * and what each code means for a caller (retry, wait, give up).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Limits from "./Limits.js"

/**
 * Every documented error code.
 *
 * @since 0.1.0
 * @category constants
 */
export const errorCodes = [1, 3, 4, 5, 6, 7, 8, 9, 101] as const

/**
 * @since 0.1.0
 * @category models
 */
export type ErrorCode = typeof errorCodes[number]

/**
 * What a code tells a caller to do.
 *
 * - `transient`: nothing was done; repeat later (9).
 * - `limit`: too many requests or creations; wait for the window and repeat (5).
 * - `ambiguous`: the server failed internally; the action may or may not have happened (101).
 * - `final`: repeating the same request gives the same answer (1, 3, 4, 6, 7, 8).
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorKind = "transient" | "limit" | "ambiguous" | "final"

/**
 * How each code is classified, and what it means.
 *
 * @since 0.1.0
 * @category constants
 */
export const classification: { readonly [C in ErrorCode]: { readonly kind: ErrorKind; readonly meaning: string } } = {
  1: { kind: "final", meaning: "section or method missing, no such section, or unknown version in the address" },
  3: { kind: "final", meaning: "no such method in the section" },
  4: { kind: "final", meaning: "token or key missing or unsuitable: expired, revoked, or issued for another product" },
  5: {
    kind: "limit",
    meaning:
      `too many requests (over ${Limits.requestsPerWindow} per second) or creations (over ${Limits.creationsPerMinute} per minute or ${Limits.creationsPerDay} per day)`
  },
  6: { kind: "final", meaning: "the method could not perform the action; the reason is in the text" },
  7: { kind: "final", meaning: "a required parameter is missing or wrong, or the object with that id is not found" },
  8: { kind: "final", meaning: "no access to the community or section" },
  9: { kind: "transient", meaning: "key-check service temporarily unavailable; repeat later" },
  101: { kind: "ambiguous", meaning: "internal server error" }
}

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
export type ErrorClass = typeof byCode[ErrorCode]

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
export type ErrorOf<C extends ErrorCode> = InstanceType<typeof byCode[C]>

/**
 * Tells whether a number is a documented error code.
 *
 * @since 0.1.0
 * @category guards
 */
export const isErrorCode = (code: number): code is ErrorCode => (errorCodes as ReadonlyArray<number>).includes(code)

/**
 * Turns a wire error (`error_code`, `error`) into its tagged error. A code outside `allowed` (by
 * default every documented code) becomes an {@link UnexpectedApiError}.
 *
 * @since 0.1.0
 * @category decoding
 */
export const fromWire = <const C extends ErrorCode = ErrorCode>(
  wire: { readonly error_code: number; readonly error: string },
  operation: string,
  allowed: ReadonlyArray<C> = errorCodes as unknown as ReadonlyArray<C>
): ErrorOf<C> | UnexpectedApiError => {
  const code = wire.error_code
  if (isErrorCode(code) && (allowed as ReadonlyArray<number>).includes(code)) {
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
export const make = <C extends ErrorCode>(code: C, text: string, operation: string): ErrorOf<C> =>
  fromWire({ error_code: code, error: text }, operation, [code]) as ErrorOf<C>

/**
 * The kind of any API error, `final` for an unexpected code.
 *
 * @since 0.1.0
 * @category utils
 */
export const kindOf = (error: { readonly code: number }): ErrorKind =>
  isErrorCode(error.code) ? classification[error.code].kind : "final"
