/**
 * The API's error codes as a plain table: every documented code, what it tells a caller to do, and
 * what it means. Each Effect line makes its own error values of these codes and reads their kind here.
 *
 * @since 0.1.0
 */
import * as Limits from "./Limits.js"

/**
 * Every documented error code.
 *
 * @since 0.1.0
 * @category constants
 */
export const errorCodes = [1, 3, 4, 5, 6, 7, 8, 9, 101] as const

/**
 * One documented error code, one of {@link errorCodes}.
 *
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

/**
 * The codes every authenticated call can produce: token (4), rate (5), key check (9), internal (101).
 *
 * @since 0.1.0
 * @category constants
 */
export const commonErrorCodes = [4, 5, 9, 101] as const

/**
 * One of the codes every authenticated call can produce, one of {@link commonErrorCodes}.
 *
 * @since 0.1.0
 * @category models
 */
export type CommonErrorCode = typeof commonErrorCodes[number]

/**
 * Tells whether a number is a documented error code.
 *
 * @since 0.1.0
 * @category guards
 */
export const isErrorCode = (code: number): code is ErrorCode => (errorCodes as ReadonlyArray<number>).includes(code)

/**
 * The kind of any API error, `final` for an undocumented code.
 *
 * @example
 * ```ts
 * import * as ErrorCodes from "@community-api/core/ErrorCodes"
 * import { strictEqual } from "node:assert"
 *
 * strictEqual(ErrorCodes.kindOf({ code: 9 }), "transient") // the key check is down: retry
 * strictEqual(ErrorCodes.kindOf({ code: 5 }), "limit") // too many requests: wait for the window
 * strictEqual(ErrorCodes.kindOf({ code: 101 }), "ambiguous") // it may have happened
 * strictEqual(ErrorCodes.kindOf({ code: 42 }), "final") // not a documented code
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const kindOf = (error: { readonly code: number }): ErrorKind =>
  isErrorCode(error.code) ? classification[error.code].kind : "final"
