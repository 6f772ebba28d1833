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

/**
 * A client error as its message reads it: its tag and the fields the message names.
 *
 * @since 0.1.0
 * @category models
 */
export type Described =
  | { readonly _tag: "TransportError" } & Parameters<typeof transport>[0]
  | { readonly _tag: "TimeoutError" } & Parameters<typeof timeout>[0]
  | { readonly _tag: "RequestEncodeError" } & Parameters<typeof requestEncode>[0]
  | { readonly _tag: "ResponseDecodeError" } & Parameters<typeof responseDecode>[0]
  | {
    readonly _tag: "CreationQuotaExceeded"
    readonly operation: string
    readonly window: string
    /** The start of the next window, as ISO text by its `toJSON` (a line's date-time). */
    readonly resetsAt: { readonly toJSON: () => unknown }
  }
  | { readonly _tag: "OutcomeUnknownError" } & Parameters<typeof outcomeUnknown>[0]
  | { readonly _tag: "LimiterUnavailable" } & Parameters<typeof limiterUnavailable>[0]
  | { readonly _tag: "InvalidConfig" } & Parameters<typeof invalidConfig>[0]

/**
 * The message of a client error, by its tag.
 *
 * @since 0.1.0
 * @category errors
 */
export const message = (error: Described): string => {
  switch (error._tag) {
    case "TransportError":
      return transport(error)
    case "TimeoutError":
      return timeout(error)
    case "RequestEncodeError":
      return requestEncode(error)
    case "ResponseDecodeError":
      return responseDecode(error)
    case "CreationQuotaExceeded":
      return quotaExceeded(error, String(error.resetsAt.toJSON()))
    case "OutcomeUnknownError":
      return outcomeUnknown(error)
    case "LimiterUnavailable":
      return limiterUnavailable(error)
    case "InvalidConfig":
      return invalidConfig(error)
  }
}

/**
 * A constructor of a line's error class: an `Error` with a tag (a `Schema.TaggedError` class in
 * either line). Its rest parameter of `any` makes {@link withMessage} a mixin, which keeps the
 * class's own constructor and statics.
 *
 * @since 0.1.0
 * @category models
 */

export type ErrorClass = new(...args: Array<any>) => Error & { readonly _tag: string }

/**
 * `Base` with its message read from {@link message} by the error's tag: each line's error class
 * extends its tagged class through this, rather than write the same getter in every class of both
 * lines.
 *
 * @since 0.1.0
 * @category errors
 */
export const withMessage = <C extends ErrorClass>(Base: C) =>
  class extends Base {
    override get message(): string {
      return message(this as unknown as Described)
    }
  }
