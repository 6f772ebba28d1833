/**
 * The API's errors on the Effect 4 line: one tagged class per error code, each with the server's
 * Russian text and the operation that failed, and a class for a code the operation does not declare.
 * The classes are generated from the Effect 3 line's; the codes and their meaning are the core's.
 *
 * @since 0.1.0
 */
import * as ErrorCodes from "@community-api/core/ErrorCodes"
import * as Errors from "./generated/Errors.js"

/**
 * The codes and their meaning, the core's.
 *
 * @since 0.1.0
 */
export * from "@community-api/core/ErrorCodes"

export {
  /**
   * Error 8: no access to the community or section, or enabling a bot in an archived community.
   *
   * @since 0.1.0
   * @category errors
   */
  AccessDeniedError,
  /**
   * Error 6: the method could not perform the action; the text says why.
   *
   * @since 0.1.0
   * @category errors
   */
  ActionFailedError,
  /**
   * The error classes by code.
   *
   * @since 0.1.0
   * @category constants
   */
  byCode,
  /**
   * Error 101: internal server error; the action may or may not have happened.
   *
   * @since 0.1.0
   * @category errors
   */
  InternalServerError,
  /**
   * Error 7: a parameter is missing or wrong, or the object is not found (another community's object
   * gives the same answer).
   *
   * @since 0.1.0
   * @category errors
   */
  InvalidParameterError,
  /**
   * Error 4: the token or key is missing, expired, revoked or issued for another product.
   *
   * @since 0.1.0
   * @category errors
   */
  InvalidTokenError,
  /**
   * Error 9: the key-check service is temporarily unavailable; nothing was done, repeat later.
   *
   * @since 0.1.0
   * @category errors
   */
  KeyServiceUnavailableError,
  /**
   * Error 5: over the request rate or the creation limit.
   *
   * @since 0.1.0
   * @category errors
   */
  RateLimitError,
  /**
   * An error envelope whose code the operation is not documented to produce, or no documented code at all.
   *
   * @since 0.1.0
   * @category errors
   */
  UnexpectedApiError,
  /**
   * Error 3: no such method in the section.
   *
   * @since 0.1.0
   * @category errors
   */
  UnknownMethodError,
  /**
   * Error 1: section or method missing, no such section, or an unknown version in the address.
   *
   * @since 0.1.0
   * @category errors
   */
  UnknownSectionError
} from "./generated/Errors.js"

/**
 * The class of an error code.
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorClass = typeof Errors.byCode[ErrorCodes.ErrorCode]

/**
 * An error of the API with a code the contract knows.
 *
 * @since 0.1.0
 * @category models
 */
export type ApiError = InstanceType<ErrorClass>

/**
 * The error of code `C`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type ErrorOf<C extends ErrorCodes.ErrorCode> = InstanceType<typeof Errors.byCode[C]>

/**
 * The error of an error body, for `operation`: the class of its code when the operation declares it
 * (`allowed`), else {@link Errors.UnexpectedApiError}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromWire = <const C extends ErrorCodes.ErrorCode = ErrorCodes.ErrorCode>(
  wire: { readonly error_code: number; readonly error: string },
  operation: string,
  allowed: ReadonlyArray<C> = ErrorCodes.errorCodes as unknown as ReadonlyArray<C>
): ErrorOf<C> | Errors.UnexpectedApiError => {
  const code = wire.error_code
  if (ErrorCodes.isErrorCode(code) && (allowed as ReadonlyArray<number>).includes(code)) {
    const ErrorClass = Errors.byCode[code] as unknown as new(
      args: { code: number; text: string; operation: string }
    ) => ErrorOf<C>
    return new ErrorClass({ code, text: wire.error, operation })
  }
  return new Errors.UnexpectedApiError({ code, text: wire.error, operation })
}

/**
 * The error of `code` with `text`, for `operation`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <C extends ErrorCodes.ErrorCode>(code: C, text: string, operation: string): ErrorOf<C> =>
  fromWire({ error_code: code, error: text }, operation, [code]) as ErrorOf<C>
