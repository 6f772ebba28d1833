/**
 * Errors the client adds to those of the API: the request could not be sent or answered, the answer
 * could not be read, a creation quota is used up, the store of the shared limiters cannot be reached,
 * or the outcome of an action is unknown; and, before any call, a configuration refused when the
 * client is made ({@link InvalidConfig}). No message ever contains the token: errors carry the
 * operation path, never the request or its headers.
 *
 * @since 0.1.0
 */
import * as ClientErrors from "@community-api/core/ClientErrors"
import { Schema } from "effect"

/** This line's schemas of the fields (`this["In"]`: what a literal or an optional field is of). */
interface Schemas extends ClientErrors.Schemas {
  readonly string: typeof Schema.String
  readonly number: typeof Schema.Number
  readonly instant: typeof Schema.DateTimeUtcFromSelf
  readonly literals: Schema.Literal<[...Extract<this["In"], readonly [string, ...Array<string>]>]>
  readonly optional: Schema.optional<Extract<this["In"], Schema.Schema.All>>
}

const makers: ClientErrors.Makers = {
  string: Schema.String,
  number: Schema.Number,
  instant: Schema.DateTimeUtcFromSelf,
  literals: (literals) => Schema.Literal(...literals),
  optional: Schema.optional
}

/** The base of the error class of `tag`: its fields from the core's table, its message the core's. */
const tagged = <Self>() => <Tag extends ClientErrors.Tag>(tag: Tag) => {
  const fields = ClientErrors.fieldsOf(tag, makers) as Schema.Struct.Fields
  const base = ClientErrors.withMessage(Schema.TaggedError<Self>()(tag, fields) as unknown as ClientErrors.ErrorClass)
  // The fields' types, as the core's table and this line's schemas give them.
  type Fields = { readonly _tag: Schema.tag<Tag> } & ClientErrors.FieldsOf<Schemas, Tag>
  return base as unknown as Schema.TaggedErrorClass<Self, Tag, Fields>
}

/**
 * The request did not reach the server or no answer came back (connection refused or dropped, DNS,
 * a non-200 status without an envelope). Retried only for operations safe to repeat.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends tagged<TransportError>()("TransportError") {}

/**
 * No answer within the time allowed. Two limits end a call so:
 *
 * - one attempt ran past the client's `timeout` (`scope` absent or `"attempt"`): retried only for
 *   operations safe to repeat;
 * - the whole call (every attempt, retry, pacing and quota wait) ran past the client's `deadline`
 *   (`scope: "call"`): never retried. When an attempt of an operation that is not safe to repeat was
 *   in flight at that moment, the call fails with {@link OutcomeUnknownError} instead.
 *
 * @since 0.1.0
 * @category errors
 */
export class TimeoutError extends tagged<TimeoutError>()("TimeoutError") {}

/**
 * The parameters do not satisfy the operation's schema; nothing was sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestEncodeError extends tagged<RequestEncodeError>()("RequestEncodeError") {}

/**
 * The answer could not be read as the envelope the contract describes for the operation: not JSON,
 * nested deeper than the client reads, not the operation's envelope, or larger than the client's
 * bound on a body (`maxResponseBytes`). In the last case `limitBytes` names the bound: the client
 * stopped reading there and closed the connection, and never held more of the body. Never retried:
 * the same request would get the same answer.
 *
 * @since 0.1.0
 * @category errors
 */
export class ResponseDecodeError extends tagged<ResponseDecodeError>()("ResponseDecodeError") {}

/**
 * Tells whether an error is a body larger than the client's bound (a {@link ResponseDecodeError}
 * with `limitBytes`).
 *
 * @example
 * ```ts
 * import { ClientError, CommunityApiClient } from "@community-api/client"
 * import { GroupId } from "@community-api/schema/Ids"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A client that reads at most 1 KiB of an answer: a page of bots is more, a `ResponseDecodeError`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner),
 *   maxResponseBytes: 1024
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoFixture.mainCommunity
 *   const error = yield* Effect.flip(api.bots.get({ group_id: GroupId.make(group_id), channel }))
 *   strictEqual(error._tag, "ResponseDecodeError")
 *   strictEqual(ClientError.isResponseTooLarge(error) && error.limitBytes, 1024)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const isResponseTooLarge = (
  error: unknown
): error is ResponseDecodeError & { readonly limitBytes: number } =>
  error instanceof ResponseDecodeError && ClientErrors.isTooLarge(error)

/**
 * The creation quota of this user is used up: 20 per calendar minute or 200 per day (the day
 * starts at 03:00 Moscow time). Nothing was sent; `resetsAt` tells when the window opens again.
 *
 * @since 0.1.0
 * @category errors
 */
export class CreationQuotaExceeded extends tagged<CreationQuotaExceeded>()("CreationQuotaExceeded") {}

/**
 * An operation that is not safe to repeat (a creation, `bots/addUser`) failed after it may have reached
 * the server: an internal error (101), a transport failure or a timeout. The action may or may not
 * have happened, so the client does not send it again; check before repeating it.
 *
 * @since 0.1.0
 * @category errors
 */
export class OutcomeUnknownError extends tagged<OutcomeUnknownError>()("OutcomeUnknownError") {}

/**
 * The store that shares the limiters of a user between processes (Redis, see `Pacing.layerRedis` and
 * `CreationQuota.layerRedis`) could not be reached or did not answer in time, so the request could not
 * be admitted under the limits shared with the user's other processes. **Nothing was sent**: the
 * client fails closed rather than exceed the limits silently. Not retried by the client; the store
 * may be back a moment later. With `onUnavailable: "fallback"` the client uses this process's own
 * limiters instead and this error never occurs.
 *
 * `store` names the store without credentials (the password of a Redis URL is never in it).
 *
 * @since 0.1.0
 * @category errors
 */
export class LimiterUnavailable extends tagged<LimiterUnavailable>()("LimiterUnavailable") {}

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
export class InvalidConfig extends tagged<InvalidConfig>()("InvalidConfig") {}

/**
 * Every error the client adds to the API's own.
 *
 * @example
 * ```ts
 * import { CommunityApiClient } from "@community-api/client"
 * import { GroupId } from "@community-api/schema/Ids"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   // The connection drops after the list was made: the client cannot know, and does not send it again.
 *   yield* server.setFaults({ dropConnection: { next: 1, paths: ["lists/create"], afterAction: true } })
 *   const { channel, group_id } = DemoFixture.mainCommunity
 *   const outcome = yield* api.lists.create({ group_id: GroupId.make(group_id), channel, name: "Guests" }).pipe(
 *     Effect.as("created"),
 *     Effect.catchTag("OutcomeUnknownError", (error) => Effect.succeed(`check ${error.operation} before repeating it`))
 *   )
 *   strictEqual(outcome, "check lists/create before repeating it")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Retry } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The connection drops on every attempt: not retried here, a `TransportError`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner),
 *   retry: Retry.never
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   yield* server.setFaults({ dropConnection: { next: 10 } })
 *   const error = yield* Effect.flip(api.users.me())
 *   strictEqual(error._tag, "TransportError")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @example
 * ```ts
 * import { CommunityApiClient } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // Each answer takes 300 ms; an attempt may take 50 ms and the whole call 200: a `TimeoutError`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner),
 *   timeout: "50 millis",
 *   deadline: "200 millis"
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest({ faults: { latency: { fixed: 300 } } })))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const error = yield* Effect.flip(api.users.me())
 *   strictEqual(error._tag, "TimeoutError")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @example
 * ```ts
 * import { CommunityApiClient } from "@community-api/client"
 * import { GroupId } from "@community-api/schema/Ids"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provideMerge(ReferenceServer.layerTest()))
 *
 * // A page of 1,000 is more than the API gives: a `RequestEncodeError`, and nothing is sent.
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoFixture.mainCommunity
 *   const error = yield* Effect.flip(api.bots.get({ group_id: GroupId.make(group_id), channel, count: 1000 }))
 *   strictEqual(error._tag, "RequestEncodeError")
 *   strictEqual(yield* server.requestCount, 0)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @example
 * ```ts
 * import { CommunityApiClient, CreationQuota } from "@community-api/client"
 * import { GroupId } from "@community-api/schema/Ids"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted, TestContext } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // One creation a minute, and a client that fails rather than wait: the second is a `CreationQuotaExceeded`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner),
 *   onCreationLimit: "fail"
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), CreationQuota.layer({ perMinute: 1 }))))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoFixture.mainCommunity
 *   const create = (name: string) => api.lists.create({ group_id: GroupId.make(group_id), channel, name })
 *   yield* create("Guests")
 *   const error = yield* Effect.flip(create("Hosts"))
 *   strictEqual(error._tag === "CreationQuotaExceeded" && error.window, "minute")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client), Effect.provide(TestContext.TestContext)))
 * ```
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Pacing } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The pacing is kept in a Redis that does not answer: a `LimiterUnavailable`, and nothing is sent.
 * const pacing = Pacing.layerRedis({ url: "redis://127.0.0.1:1", timeout: "200 millis" })
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provideMerge(Layer.merge(ReferenceServer.layerTest(), pacing)))
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const error = yield* Effect.flip(api.users.me())
 *   strictEqual(error._tag, "LimiterUnavailable")
 *   strictEqual(yield* server.requestCount, 0)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @example
 * ```ts
 * import { ClientError, CommunityApiClient } from "@community-api/client"
 * import { ReferenceServer } from "@community-api/server"
 * import { Cause, Effect, Exit, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A base URL with a query string cannot work: the client is not made, and the defect is an `InvalidConfig`.
 * const made = CommunityApiClient.make({ baseUrl: "https://api.example/v2?x=1", token: Redacted.make("t") })
 * const exit = await Effect.runPromiseExit(made.pipe(Effect.provide(ReferenceServer.layerTest())))
 * const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
 * strictEqual(defect instanceof ClientError.InvalidConfig && defect.option, "baseUrl")
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export type ClientError =
  | TransportError
  | TimeoutError
  | RequestEncodeError
  | ResponseDecodeError
  | CreationQuotaExceeded
  | LimiterUnavailable
  | OutcomeUnknownError
