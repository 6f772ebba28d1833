/**
 * The client's own errors on the Effect 4 line, beside the API's: the same tags, fields and messages
 * as the Effect 3 line's (`@community-api/client/ClientError`).
 *
 * @since 0.1.0
 */
import * as ClientErrors from "@community-api/core/ClientErrors"
import { Schema } from "effect"

/**
 * The request did not complete: the connection failed or was cut, or the answer was not HTTP 200.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends ClientErrors.withMessage(
  Schema.TaggedError<TransportError>()("TransportError", {
    /** The operation, as `section/method`. */
    operation: Schema.String,
    /**
     * What went wrong, without the request's headers or body: for a failed connection, in plain words
     * with its code, e.g. `connection refused by 127.0.0.1:8080 (ECONNREFUSED)`.
     */
    reason: Schema.String,
    /**
     * A failed connection's code, as the system or TLS gave it: `ECONNREFUSED`, `ENOTFOUND`,
     * `ETIMEDOUT`, `ECONNRESET`, `EAI_AGAIN`, `CERT_HAS_EXPIRED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, ...
     */
    code: Schema.optional(Schema.String),
    /** A failed connection's host: the address connected to, or the name looked up (never the URL's path or query). */
    host: Schema.optional(Schema.String),
    /** A failed connection's port. */
    port: Schema.optional(Schema.Number)
  })
) {}

/**
 * No answer within an attempt's timeout, or no result within the call's deadline.
 *
 * @since 0.1.0
 * @category errors
 */
export class TimeoutError extends ClientErrors.withMessage(
  Schema.TaggedError<TimeoutError>()("TimeoutError", {
    operation: Schema.String,
    /** The limit that passed, in milliseconds: the attempt's timeout, or the call's deadline. */
    timeoutMillis: Schema.Number,
    /** What the limit bounds: one attempt (the default when absent) or the whole call. */
    scope: Schema.optional(Schema.Literals(ClientErrors.timeoutScopes))
  })
) {}

/**
 * The parameters do not fit the operation's schema; nothing was sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestEncodeError extends ClientErrors.withMessage(
  Schema.TaggedError<RequestEncodeError>()("RequestEncodeError", {
    operation: Schema.String,
    reason: Schema.String
  })
) {}

/**
 * The answer is not the operation's envelope, or is longer than the client reads.
 *
 * @since 0.1.0
 * @category errors
 */
export class ResponseDecodeError extends ClientErrors.withMessage(
  Schema.TaggedError<ResponseDecodeError>()("ResponseDecodeError", {
    operation: Schema.String,
    reason: Schema.String,
    /** Set when the body exceeded the bound: the bound, in bytes. */
    limitBytes: Schema.optional(Schema.Number)
  })
) {}

/**
 * Whether `error` is a body longer than the client reads.
 *
 * @since 0.1.0
 * @category guards
 */
export const isResponseTooLarge = (
  error: unknown
): error is ResponseDecodeError & { readonly limitBytes: number } =>
  error instanceof ResponseDecodeError && ClientErrors.isTooLarge(error)

/**
 * A creation was refused by the client's quota: the window's creations are used up.
 *
 * @since 0.1.0
 * @category errors
 */
export class CreationQuotaExceeded extends ClientErrors.withMessage(
  Schema.TaggedError<CreationQuotaExceeded>()("CreationQuotaExceeded", {
    operation: Schema.String,
    window: Schema.Literals(ClientErrors.quotaWindows),
    /** The start of the next window. */
    resetsAt: Schema.DateTimeUtc
  })
) {}

/**
 * An operation that is not safe to repeat failed ambiguously: it may or may not have happened, so it
 * was not sent again.
 *
 * @since 0.1.0
 * @category errors
 */
export class OutcomeUnknownError extends ClientErrors.withMessage(
  Schema.TaggedError<OutcomeUnknownError>()("OutcomeUnknownError", {
    operation: Schema.String,
    /** What failed: `error 101`, `transport: …`, `timeout`, or `deadline: …`. */
    reason: Schema.String
  })
) {}

/**
 * A shared limiter's store could not admit the request; nothing was sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class LimiterUnavailable extends ClientErrors.withMessage(
  Schema.TaggedError<LimiterUnavailable>()("LimiterUnavailable", {
    /** Which limiter could not admit the request. */
    limiter: Schema.Literals(ClientErrors.limiters),
    /** The store, without credentials, e.g. `redis://127.0.0.1:6379/0`. */
    store: Schema.String,
    /** What went wrong, e.g. `connect ECONNREFUSED 127.0.0.1:6379`. */
    reason: Schema.String
  })
) {}

/**
 * A client's configuration that cannot work, refused when the client is made (`make`, `layer`,
 * `layerConfig`), or a limiter's or its Redis store's when it is made (`Pacing.layer`, `layerRedis`,
 * `layerRedisConfig`, and `CreationQuota`'s): `option` names the option and `reason` says what it
 * takes, e.g. a `baseUrl` that is no URL or carries credentials, a `userKey` that is empty or
 * whitespace only, a `lease` of zero, a pacing `limit` above the API's 30 (the core's `OptionRules`).
 * Not an error of a call, and not in {@link ClientError}: nothing is made, and `make` dies with it (a
 * defect, as for any argument a program cannot get right at run time); find it in the cause with
 * `Cause` (the defect is an instance of this class).
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidConfig extends ClientErrors.withMessage(
  Schema.TaggedError<InvalidConfig>()("InvalidConfig", {
    /** The option of `ClientConfig`, e.g. `userKey`. */
    option: Schema.String,
    /** Why it is refused; never the value of a secret. */
    reason: Schema.String
  })
) {}

/**
 * Every error of the client's own.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient } from "@community-api/effect4-client"
 * import { Ids } from "@community-api/effect4-schema"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted, Schema } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   // The connection drops after the list was made: the client cannot know, and does not send it again.
 *   yield* server.setFaults({ dropConnection: { next: 1, paths: ["lists/create"], afterAction: true } })
 *   const group_id = Schema.decodeSync(Ids.GroupId)(DemoData.mainCommunity.group_id)
 *   const outcome = yield* api.lists.create({ group_id, channel: DemoData.mainCommunity.channel, name: "Guests" }).pipe(
 *     Effect.as("created"),
 *     Effect.catchTag("OutcomeUnknownError", (error) => Effect.succeed(`check ${error.operation} before repeating it`))
 *   )
 *   strictEqual(outcome, "check lists/create before repeating it")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type ClientError =
  | TransportError
  | TimeoutError
  | RequestEncodeError
  | ResponseDecodeError
  | CreationQuotaExceeded
  | LimiterUnavailable
  | OutcomeUnknownError
