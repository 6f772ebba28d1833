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
   * @since 0.1.0
   * @category errors
   */
  AccessDeniedError,
  /**
   * @since 0.1.0
   * @category errors
   */
  ActionFailedError,
  /**
   * @since 0.1.0
   * @category constants
   */
  byCode,
  /**
   * @since 0.1.0
   * @category errors
   */
  InternalServerError,
  /**
   * @since 0.1.0
   * @category errors
   */
  InvalidParameterError,
  /**
   * @since 0.1.0
   * @category errors
   */
  InvalidTokenError,
  /**
   * @since 0.1.0
   * @category errors
   */
  KeyServiceUnavailableError,
  /**
   * @since 0.1.0
   * @category errors
   */
  RateLimitError,
  /**
   * @since 0.1.0
   * @category errors
   */
  UnexpectedApiError,
  /**
   * @since 0.1.0
   * @category errors
   */
  UnknownMethodError,
  /**
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
