/**
 * A failure of one call as both Effect lines' clients read it, whatever its class: its kind for the
 * retry table (`RetryTable`), what the client does next, which limit an error 5 stands for, the reason
 * an unknown outcome gives, and the bounded reason of an answer that could not be decoded. The lines
 * build their errors; what an error means is read here, from its tag, code and text.
 *
 * @since 0.1.0
 */
import * as ErrorCodes from "./ErrorCodes.js"
import type { CreationWindow } from "./Limits.js"
import * as RetryTable from "./RetryTable.js"

const has = <K extends string>(value: unknown, key: K): value is { readonly [P in K]: unknown } =>
  typeof value === "object" && value !== null && key in value

const tagOf = (error: unknown): unknown => has(error, "_tag") ? error._tag : undefined

/**
 * Whether `error` is a failure of the transport or a timeout: the request may have reached the server.
 *
 * @since 0.1.0
 * @category guards
 */
export const isAmbiguousTransport = (error: unknown): boolean =>
  tagOf(error) === "TransportError" || tagOf(error) === "TimeoutError"

/**
 * An error as the retry table reads it: a transport failure or a timeout is `"ambiguous"`, an answer of
 * the API (a tagged error with a numeric `code`) is its code's kind, anything else is `"final"`.
 *
 * @since 0.1.0
 * @category utils
 */
export const kindOf = (error: unknown): ErrorCodes.ErrorKind => {
  if (isAmbiguousTransport(error)) return "ambiguous"
  return has(error, "code") && typeof error.code === "number" && has(error, "_tag")
    ? ErrorCodes.kindOf({ code: error.code })
    : "final"
}

/**
 * What the client does after `error` of an operation with `flags` (the retry table's decision).
 *
 * @since 0.1.0
 * @category utils
 */
export const decide = (flags: RetryTable.Flags, error: unknown): RetryTable.Decision =>
  RetryTable.decide(flags, kindOf(error))

/**
 * Which limit refused an operation with `flags` with `error` (an error 5, whose `text` names its
 * cause), given the window the client's own quota count found used up (see `RetryTable.refusalOf`).
 *
 * @since 0.1.0
 * @category utils
 */
export const refusalOf = (
  flags: Pick<RetryTable.Flags, "creation">,
  error: unknown,
  counted?: CreationWindow | undefined
): RetryTable.Refusal =>
  RetryTable.refusalOf(flags, has(error, "text") && typeof error.text === "string" ? error.text : "", counted)

/**
 * Whether the server answered 9: its key check was unavailable and it did nothing (A6).
 *
 * @since 0.1.0
 * @category guards
 */
export const isNothingDone = (error: unknown): boolean => tagOf(error) === "KeyServiceUnavailableError"

/**
 * The reason of an unknown outcome after `error`: a timeout, a transport failure with its reason, or
 * an error code.
 *
 * @since 0.1.0
 * @category utils
 */
export const unknownOutcomeReason = (error: unknown): string => {
  if (tagOf(error) === "TimeoutError") return "timeout"
  if (tagOf(error) === "TransportError" && has(error, "reason")) return `transport: ${String(error.reason)}`
  if (has(error, "code")) return `error ${String(error.code)}`
  return "unknown failure"
}

/**
 * The longest reason a decode error quotes: a schema's report can quote a whole body.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxReasonLength = 2_000

/**
 * The reason of an answer that is not the operation's envelope, cut to {@link maxReasonLength}.
 *
 * @since 0.1.0
 * @category utils
 */
export const decodeReason = (reason: string): string =>
  reason.length > maxReasonLength ? `${reason.slice(0, maxReasonLength)}…` : reason

/**
 * The reason of a failure of the decoder itself (the body's depth is bounded before, so none is
 * expected): decoding never fails untyped.
 *
 * @since 0.1.0
 * @category utils
 */
export const decoderFailed = (defect: unknown): string =>
  decodeReason(`the decoder failed: ${defect instanceof Error ? `${defect.name}: ${defect.message}` : "defect"}`)
