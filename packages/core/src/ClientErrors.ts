/**
 * The client's own errors as both Effect lines raise them: the values of their literal fields and
 * their messages, written once so that an error reads the same from either line. No message ever
 * contains the token: errors carry the operation path, never the request or its headers. Each line
 * declares the tagged classes (`ClientError`) over these.
 *
 * @since 0.1.0
 */

/**
 * What a {@link timeout} bounds: one attempt (the default when absent) or the whole call.
 *
 * @since 0.1.0
 * @category constants
 */
export const timeoutScopes = ["attempt", "call"] as const

/**
 * The windows of the creation quota.
 *
 * @since 0.1.0
 * @category constants
 */
export const quotaWindows = ["minute", "day"] as const

/**
 * The limiters a shared store can fail to admit a request for.
 *
 * @since 0.1.0
 * @category constants
 */
export const limiters = ["pacing", "creation quota"] as const

/**
 * The message of a `TransportError`: a failed connection read from its cause (`TransportCause`, which
 * names the host) says so in its own words, `bots/get: connection refused by 127.0.0.1:8080
 * (ECONNREFUSED)`; any other failure (a status without an envelope, an answer that broke off) is
 * named a transport failure.
 *
 * @since 0.1.0
 * @category errors
 */
export const transport = (
  error: { readonly operation: string; readonly reason: string; readonly host?: string | undefined }
): string =>
  error.host === undefined
    ? `${error.operation}: transport failed: ${error.reason}`
    : `${error.operation}: ${error.reason}`

/**
 * The message of a `TimeoutError`: an attempt's timeout, or the call's deadline (`scope: "call"`).
 *
 * @since 0.1.0
 * @category errors
 */
export const timeout = (
  error: { readonly operation: string; readonly timeoutMillis: number; readonly scope?: string | undefined }
): string =>
  error.scope === "call"
    ? `${error.operation}: no result within the call's deadline of ${error.timeoutMillis} ms (all attempts and waits)`
    : `${error.operation}: no answer within ${error.timeoutMillis} ms`

/**
 * The message of a `RequestEncodeError`.
 *
 * @since 0.1.0
 * @category errors
 */
export const requestEncode = (error: { readonly operation: string; readonly reason: string }): string =>
  `${error.operation}: invalid parameters, nothing was sent: ${error.reason}`

/**
 * The message of a `ResponseDecodeError`.
 *
 * @since 0.1.0
 * @category errors
 */
export const responseDecode = (error: { readonly operation: string; readonly reason: string }): string =>
  `${error.operation}: unreadable answer: ${error.reason}`

/**
 * Whether a `ResponseDecodeError` is a body larger than the client's bound: it names the bound.
 *
 * @since 0.1.0
 * @category guards
 */
export const isTooLarge = (error: { readonly limitBytes?: number | undefined }): boolean =>
  error.limitBytes !== undefined

/**
 * The message of a `CreationQuotaExceeded`, with the start of the next window as ISO text.
 *
 * @since 0.1.0
 * @category errors
 */
export const quotaExceeded = (
  error: { readonly operation: string; readonly window: string },
  resetsAt: string
): string => `${error.operation}: the creation quota of the ${error.window} is used up; it resets at ${resetsAt}`

/**
 * The message of an `OutcomeUnknownError`.
 *
 * @since 0.1.0
 * @category errors
 */
export const outcomeUnknown = (error: { readonly operation: string; readonly reason: string }): string =>
  `${error.operation}: the outcome is unknown (${error.reason}); the action may or may not have happened, ` +
  `so it was not sent again`

/**
 * The message of a `LimiterUnavailable`.
 *
 * @since 0.1.0
 * @category errors
 */
export const limiterUnavailable = (
  error: { readonly limiter: string; readonly store: string; readonly reason: string }
): string => `the shared ${error.limiter} limiter is unavailable (${error.store}): ${error.reason}; nothing was sent`

/**
 * The message of an `InvalidConfig`.
 *
 * @since 0.1.0
 * @category errors
 */
export const invalidConfig = (error: { readonly option: string; readonly reason: string }): string =>
  `the client's ${error.option} is refused: ${error.reason}`
