/**
 * The API's errors, one class per error code.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { describe, fields } from "../internal/errors.js"

/**
 * Error 1, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownSectionError extends Schema.TaggedError<UnknownSectionError>()("UnknownSectionError", {
  code: Schema.Literal(1),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 3, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownMethodError extends Schema.TaggedError<UnknownMethodError>()("UnknownMethodError", {
  code: Schema.Literal(3),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 4, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidTokenError extends Schema.TaggedError<InvalidTokenError>()("InvalidTokenError", {
  code: Schema.Literal(4),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 5, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimitError extends Schema.TaggedError<RateLimitError>()("RateLimitError", {
  code: Schema.Literal(5),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 6, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class ActionFailedError extends Schema.TaggedError<ActionFailedError>()("ActionFailedError", {
  code: Schema.Literal(6),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 7, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidParameterError extends Schema.TaggedError<InvalidParameterError>()("InvalidParameterError", {
  code: Schema.Literal(7),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 8, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class AccessDeniedError extends Schema.TaggedError<AccessDeniedError>()("AccessDeniedError", {
  code: Schema.Literal(8),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 9, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class KeyServiceUnavailableError extends Schema.TaggedError<KeyServiceUnavailableError>()("KeyServiceUnavailableError", {
  code: Schema.Literal(9),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * Error 101, as `@community-api/schema/ApiError` declares it.
 *
 * @since 0.1.0
 * @category errors
 */
export class InternalServerError extends Schema.TaggedError<InternalServerError>()("InternalServerError", {
  code: Schema.Literal(101),
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * An error code the operation does not declare, or no code the contract knows.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedApiError extends Schema.TaggedError<UnexpectedApiError>()("UnexpectedApiError", {
  code: Schema.Int,
  ...fields
}) {
  override get message() {
    return describe(this)
  }
}

/**
 * The error class of each code.
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
