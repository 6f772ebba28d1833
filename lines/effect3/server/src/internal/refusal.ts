/**
 * The server's refusals: the contract's tagged error of each code (`ApiError`), made without a stack
 * trace. A refusal is an answer, not a fault: only its code and text reach the wire, and capturing a
 * stack would make every refused request (a flood past the rate limit, say) several times dearer.
 *
 * @internal
 */
import { ApiError } from "@community-api/schema"
import { Effect } from "effect"

/** The tagged error of `code` for the operation at `operation` (or the path of a routing error). */
export const make = <C extends ApiError.ErrorCode>(code: C, text: string, operation: string): ApiError.ErrorOf<C> => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return ApiError.make(code, text, operation)
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** Fails with the tagged error of `code`. */
export const fail = <C extends ApiError.ErrorCode>(
  code: C,
  text: string,
  operation: string
): Effect.Effect<never, ApiError.ErrorOf<C>> => Effect.fail(make(code, text, operation))
