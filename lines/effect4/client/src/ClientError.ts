/**
 * The client's own errors on the Effect 4 line, beside the API's: the same tags, fields and messages
 * as the Effect 3 line's (`@community-api/client/ClientError`).
 *
 * @since 0.1.0
 */
import * as ClientErrors from "@community-api/core/ClientErrors"
import { type Cause, Schema } from "effect"

/** This line's schemas of the fields (`this["In"]`: what a literal or an optional field is of). */
interface Schemas extends ClientErrors.Schemas {
  readonly string: typeof Schema.String
  readonly number: typeof Schema.Number
  readonly instant: typeof Schema.DateTimeUtc
  readonly literals: Schema.Literals<Extract<this["In"], ReadonlyArray<string>>>
  readonly optional: Schema.optional<Extract<this["In"], Schema.Top>>
}

const { DateTimeUtc: instant, Literals: literals, Number: number, String: string, optional } = Schema
const makers: ClientErrors.Makers = { string, number, instant, literals, optional }

/** The base of the error class of `tag`: its fields from the core's table, its message the core's. */
const tagged = <Self>() => <Tag extends ClientErrors.Tag>(tag: Tag) => {
  const base = Schema.TaggedError<Self>()(tag, ClientErrors.fieldsOf(tag, makers) as Schema.Struct.Fields)
  return ClientErrors.withMessage(base as unknown as ClientErrors.ErrorClass) as unknown as Schema.Class<
    Self,
    Schema.TaggedStruct<Tag, ClientErrors.FieldsOf<Schemas, Tag>>,
    Cause.YieldableError
  >
}

/**
 * The request did not complete: the connection failed or was cut, or the answer was not HTTP 200.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends tagged<TransportError>()("TransportError") {}

/**
 * No answer within an attempt's timeout, or no result within the call's deadline.
 *
 * @since 0.1.0
 * @category errors
 */
export class TimeoutError extends tagged<TimeoutError>()("TimeoutError") {}

/**
 * The parameters do not fit the operation's schema; nothing was sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestEncodeError extends tagged<RequestEncodeError>()("RequestEncodeError") {}

/**
 * The answer is not the operation's envelope, or is longer than the client reads.
 *
 * @since 0.1.0
 * @category errors
 */
export class ResponseDecodeError extends tagged<ResponseDecodeError>()("ResponseDecodeError") {}

/**
 * Whether `error` is a body longer than the client reads.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { ClientError, CommunityApiClient } from "@community-api/effect4-client"
 * import { Ids } from "@community-api/effect4-schema"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted, Schema } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A client that reads at most 1 KiB of an answer: a page of bots is more, a `ResponseDecodeError`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner),
 *   maxResponseBytes: 1024
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoData.mainCommunity
 *   const error = yield* Effect.flip(api.bots.get({ group_id: Schema.decodeSync(Ids.GroupId)(group_id), channel }))
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
 * A creation was refused by the client's quota: the window's creations are used up.
 *
 * @since 0.1.0
 * @category errors
 */
export class CreationQuotaExceeded extends tagged<CreationQuotaExceeded>()("CreationQuotaExceeded") {}

/**
 * An operation that is not safe to repeat failed ambiguously: it may or may not have happened, so it
 * was not sent again.
 *
 * @since 0.1.0
 * @category errors
 */
export class OutcomeUnknownError extends tagged<OutcomeUnknownError>()("OutcomeUnknownError") {}

/**
 * A shared limiter's store could not admit the request; nothing was sent.
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
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Retry } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The connection drops on every attempt: not retried here, a `TransportError`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner),
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
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // Each answer takes 300 ms; an attempt may take 50 ms and the whole call 200: a `TimeoutError`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner),
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
 * // A page of 1,000 is more than the API gives: a `RequestEncodeError`, and nothing is sent.
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoData.mainCommunity
 *   const error = yield* Effect.flip(api.bots.get({ group_id: Schema.decodeSync(Ids.GroupId)(group_id), channel, count: 1000 }))
 *   strictEqual(error._tag, "RequestEncodeError")
 *   strictEqual(yield* server.requestCount, 0)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, CreationQuota } from "@community-api/effect4-client"
 * import { Ids } from "@community-api/effect4-schema"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted, Schema } from "effect"
 * import { TestClock } from "effect/testing"
 * import { strictEqual } from "node:assert"
 *
 * // One creation a minute, and a client that fails rather than wait: the second is a `CreationQuotaExceeded`.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner),
 *   onCreationLimit: "fail"
 * }).pipe(Layer.provide(Layer.merge(ReferenceServer.layerTest(), CreationQuota.layer({ perMinute: 1 }))))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const { channel, group_id } = DemoData.mainCommunity
 *   const create = (name: string) => api.lists.create({ group_id: Schema.decodeSync(Ids.GroupId)(group_id), channel, name })
 *   yield* create("Guests")
 *   const error = yield* Effect.flip(create("Hosts"))
 *   strictEqual(error._tag === "CreationQuotaExceeded" && error.window, "minute")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client), Effect.provide(TestClock.layer())))
 * ```
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Pacing } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The pacing is kept in a Redis that does not answer: a `LimiterUnavailable`, and nothing is sent.
 * const pacing = Pacing.layerRedis({ url: "redis://127.0.0.1:1", timeout: "200 millis" })
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
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
 * import { ClientError, CommunityApiClient } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
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
