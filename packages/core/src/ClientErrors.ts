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
 * A field of a client error, as each line declares it with its `Schema`: a string or a number
 * (`?` when optional), an instant (a line's UTC date-time), one of some literals, or one of some
 * literals when present.
 *
 * @since 0.1.0
 * @category models
 */
export type Field =
  | "string"
  | "string?"
  | "number"
  | "number?"
  | "instant"
  | ReadonlyArray<string>
  | { readonly optional: ReadonlyArray<string> }

/**
 * The fields of each client error, by its tag: both lines declare their tagged classes from this
 * table, so that an error carries the same fields from either line.
 *
 * @since 0.1.0
 * @category models
 */
export const fields = {
  TransportError: {
    /** The operation, as `section/method`. */
    operation: "string",
    /**
     * What went wrong, without the request's headers or body: for a failed connection, in plain words
     * with its code, e.g. `connection refused by 127.0.0.1:8080 (ECONNREFUSED)`.
     */
    reason: "string",
    /**
     * A failed connection's code, as the system or TLS gave it: `ECONNREFUSED`, `ENOTFOUND`,
     * `ETIMEDOUT`, `ECONNRESET`, `EAI_AGAIN`, `CERT_HAS_EXPIRED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, ...
     */
    code: "string?",
    /** A failed connection's host: the address connected to, or the name looked up (never the URL's path or query). */
    host: "string?",
    /** A failed connection's port. */
    port: "number?"
  },
  TimeoutError: {
    operation: "string",
    /** The limit that passed, in milliseconds: the attempt's timeout, or the call's deadline. */
    timeoutMillis: "number",
    /** What the limit bounds: one attempt (the default when absent) or the whole call. */
    scope: { optional: timeoutScopes }
  },
  RequestEncodeError: { operation: "string", reason: "string" },
  ResponseDecodeError: {
    operation: "string",
    reason: "string",
    /** Set when the body exceeded the bound: the bound, in bytes. */
    limitBytes: "number?"
  },
  CreationQuotaExceeded: {
    operation: "string",
    window: quotaWindows,
    /** The start of the next window. */
    resetsAt: "instant"
  },
  OutcomeUnknownError: {
    operation: "string",
    /** What failed: `error 101`, `transport: …`, `timeout`, or `deadline: …` (the call's deadline passed in flight). */
    reason: "string"
  },
  LimiterUnavailable: {
    /** Which limiter could not admit the request. */
    limiter: limiters,
    /** The store, without credentials, e.g. `redis://127.0.0.1:6379/0`. */
    store: "string",
    /** What went wrong, e.g. `connect ECONNREFUSED 127.0.0.1:6379`. */
    reason: "string"
  },
  InvalidConfig: {
    /** The option of `ClientConfig`, e.g. `userKey`. */
    option: "string",
    /** Why it is refused; never the value of a secret. */
    reason: "string"
  }
} as const satisfies Record<string, Record<string, Field>>

/**
 * The tag of a client error.
 *
 * @since 0.1.0
 * @category models
 */
export type Tag = keyof typeof fields

/**
 * A line's schemas of the fields, as types: `literals` and `optional` read what they apply to from
 * `this["In"]` (the literals, or the schema made optional), so that {@link FieldsOf} can apply them.
 *
 * @since 0.1.0
 * @category type-level
 */
export interface Schemas {
  readonly In: unknown
  readonly string: unknown
  readonly number: unknown
  readonly instant: unknown
  readonly literals: unknown
  readonly optional: unknown
}

type With<S extends Schemas, K extends "literals" | "optional", In> = (S & { readonly In: In })[K]

/**
 * The schema a line declares a field with, of its {@link Schemas}.
 *
 * @since 0.1.0
 * @category type-level
 */
export type SchemaOf<S extends Schemas, F> = F extends "string" | "number" | "instant" ? S[F]
  : F extends `${infer T extends "string" | "number"}?` ? With<S, "optional", S[T]>
  : F extends { readonly optional: infer L } ? With<S, "optional", With<S, "literals", L>>
  : With<S, "literals", F>

/**
 * The fields of the error of `T`, as a line's {@link Schemas} declare them.
 *
 * @since 0.1.0
 * @category type-level
 */
export type FieldsOf<S extends Schemas, T extends Tag> = {
  readonly [K in keyof (typeof fields)[T]]: SchemaOf<S, (typeof fields)[T][K]>
}

/**
 * A line's schemas of the fields, as values: the plain ones, and how it makes literals and an
 * optional field.
 *
 * @since 0.1.0
 * @category models
 */
export interface Makers {
  readonly string: unknown
  readonly number: unknown
  readonly instant: unknown
  readonly literals: (literals: readonly [string, ...Array<string>]) => unknown
  readonly optional: (schema: any) => unknown
}

const schemaOf = (field: Field, makers: Makers): unknown =>
  typeof field !== "string"
    ? "optional" in field
      ? makers.optional(makers.literals(field.optional as readonly [string, ...Array<string>]))
      : makers.literals(field as readonly [string, ...Array<string>])
    : field.endsWith("?")
    ? makers.optional(makers[field.slice(0, -1) as "string" | "number"])
    : makers[field as "string" | "number" | "instant"]

/**
 * The fields of the error of `tag`, each declared by the line's `makers` (cast by the line to its
 * {@link FieldsOf}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fieldsOf = (tag: Tag, makers: Makers): Record<string, unknown> => {
  const declared: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(fields[tag])) declared[name] = schemaOf(field as Field, makers)
  return declared
}

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
