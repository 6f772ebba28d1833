/**
 * The client of the API on the Effect 4 line: one method per operation of the contract, grouped by
 * section (`client.bots.enable({ bot_id })`), with typed parameters, decoded results and the exact
 * tagged errors of each operation; retries on 9, pacing under the rate limit, the creation quota and
 * paginated streams, all on by default, as on the Effect 3 line.
 *
 * It needs only an `HttpClient` of `effect/http` (fetch, or the reference server in process). It
 * follows no redirect, reads no body past `maxResponseBytes` (16 MiB) or deeper than 256 levels, and
 * no call runs past its `deadline` (120 s, all attempts and waits together).
 *
 * **Limiters.** `Pacing` and `CreationQuota` are `Context.Reference`s: with no layer providing them,
 * a client uses the process-wide instances, shared by every client of the process. Provide
 * `Pacing.layer()` and `CreationQuota.layer()` (or their Redis layers) once, above every client that
 * should share them.
 *
 * @since 0.1.0
 */
import * as BaseUrl from "@community-api/core/BaseUrl"
import type * as ClientOptions from "@community-api/core/ClientOptions"
import type * as ClientTypes from "@community-api/core/ClientTypes"
import * as Environment from "@community-api/core/Environment"
import type { ApiError, Operation, Operations } from "@community-api/effect4-schema"
import { Config, Context, Effect, Layer, Schema } from "effect"
import type { DateTime, Duration, Redacted, Stream } from "effect"
import type { HttpClient } from "effect/http"
import type * as Budget from "./Budget.js"
import type * as ClientError from "./ClientError.js"
import * as internal from "./internal/client.js"
import type * as Paginate from "./Paginate.js"
import type * as Retry from "./Retry.js"

export type {
  /**
   * How the token is sent: the `Authorization: Bearer` header (default), or `api_key` in the JSON body.
   *
   * @since 0.1.0
   * @category models
   */
  AuthMode
} from "@community-api/core/ClientOptions"

/**
 * The configuration of a client: the core's options (`ClientOptions.Config`, each documented there),
 * with the token `Redacted`, durations as Effect takes them and this line's retry policy.
 *
 * @since 0.1.0
 * @category options
 */
export interface ClientConfig extends ClientOptions.Config<Redacted.Redacted<string>, Duration.Input, Retry.Policy> {}

/**
 * The errors of a call of `Op`: its API errors and the client's own that can happen to it.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Errors<Op extends Operation.Any> =
  | Operation.Error<Op>
  | ClientTypes.OwnErrors<
    Op,
    ClientError.ClientError,
    ClientError.CreationQuotaExceeded,
    ClientError.OutcomeUnknownError
  >

/**
 * The method of an operation.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Method<Op extends Operation.Any> = ClientTypes.MethodOf<Kinds, Op>

/**
 * The parameters of a list operation, without its position.
 *
 * @since 0.1.0
 * @category type-level
 */
export type ListParams<Op extends Operation.Any> = ClientTypes.ListParams<Operation.Params<Op>>

/**
 * The stream of a list operation.
 *
 * @since 0.1.0
 * @category type-level
 */
export type StreamMethod<Op extends Operation.Pageable> = ClientTypes.StreamOf<Kinds, Op>

/** This line's types of an operation (`this["Op"]`), from which the core derives the client's types. */
interface Kinds extends ClientTypes.Kinds {
  readonly Any: Operation.Any
  readonly Pageable: Operation.Pageable
  readonly params: Operation.Params<Extract<this["Op"], Operation.Any>>
  readonly result: Result<Extract<this["Op"], Operation.Any>>
  readonly items: Items<Extract<this["Op"], Operation.Pageable>>
}

/** What a call of `Op` gives. */
type Result<Op extends Operation.Any> = Effect.Effect<Operation.Success<Op>, Errors<Op>>

/** Every item of the list operation `Op`. */
type Items<Op extends Operation.Pageable> = Stream.Stream<Operation.Item<Op>, Errors<Op>>

/**
 * Every operation's method, by section.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient } from "@community-api/effect4-client"
 * import { Ids } from "@community-api/effect4-schema"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted, Schema } from "effect"
 * import { ok, strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * // One method of each section.
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const community = { group_id: Schema.decodeSync(Ids.GroupId)(DemoData.mainCommunity.group_id), channel: DemoData.mainCommunity.channel }
 *   const uid = Schema.decodeSync(Ids.Uid)(DemoData.subscriberUid)
 *   strictEqual((yield* api.users.me()).user_id, DemoData.userIds.owner)
 *   ok((yield* api.groups.get({})).total > 0)
 *   ok((yield* api.bots.get(community)).total > 0)
 *   ok((yield* api.mailings.get(community)).total > 0)
 *   yield* api.lists.addUser({ list_id: Schema.decodeSync(Ids.ListId)(DemoData.listId), uid })
 *   ok((yield* api.contacts.getBots({ ...community, uid })).total > 0)
 *   ok((yield* api.vars.list(community)).total > 0)
 *   ok((yield* api.globalVars.list(community)).total > 0)
 *   ok((yield* api.landings.get(community)).total > 0)
 *   // Methods whose parameters the API does not document take any; the reference server does not model them.
 *   for (const call of [api.attachments.getById({}), api.funnels.get(community), api.stats.getMailingsStats(community)]) {
 *     const error = yield* Effect.flip(call)
 *     strictEqual(error._tag, "ActionFailedError")
 *   }
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category type-level
 */
export type Sections = ClientTypes.Sections<Operations.Sections, Kinds>

/**
 * Every list operation's stream, by section.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Streams = ClientTypes.Streams<Operations.Sections, Kinds>

/**
 * The schemas of a call by path.
 *
 * @since 0.1.0
 * @category options
 */
export interface CallOptions<A, P> {
  /** Decodes `response`; without it the result is `unknown`. */
  readonly success?: Schema.Codec<A, any> | undefined
  /** Encodes the parameters; without it they are sent as given. */
  readonly payload?: Schema.Codec<P, any> | undefined
}

/**
 * A client.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { DateTime, Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   // By path, with no schema: the answer's `response`, unread.
 *   const me = yield* api.call("users/me")
 *   strictEqual((me as { user_id: number }).user_id, DemoData.userIds.owner)
 *   // What is left of the user's limits, and whether 30 creations fit in the next two minutes.
 *   const budget = yield* api.budget
 *   strictEqual(budget.creations.minute.limit, 20)
 *   const estimate = yield* api.estimateCreations(30, DateTime.makeUnsafe(Date.now() + 120_000))
 *   strictEqual(estimate._tag, "InTime")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Client extends Sections, ClientTypes.Methods<Kinds, Paginate.Position> {
  /** Streams of every item of each list operation, by section. */
  readonly streams: Streams
  /** Calls an operation by `section/method` with caller-supplied schemas. */
  readonly call: <A = unknown, P = Record<string, unknown>>(
    path: string,
    params?: P,
    options?: CallOptions<A, P>
  ) => Effect.Effect<A, ApiError.ApiError | ApiError.UnexpectedApiError | ClientError.ClientError>
  /**
   * What is left of this client's user's limits now, as its limiters (memory or Redis) see them: the
   * requests of the rate window and the creations of the minute and the day, with when each comes back.
   */
  readonly budget: Effect.Effect<Budget.OfUser, ClientError.LimiterUnavailable>
  /**
   * Whether `count` creations of this client's user can all be sent by `deadline` as its quota stands
   * now (the limits only, not the time the requests take): `InTime` with the instant the last can be
   * sent, or `Late` with the earliest instant they could all be sent by.
   */
  readonly estimateCreations: (
    count: number,
    deadline: DateTime.DateTime
  ) => Effect.Effect<Budget.Estimate, ClientError.LimiterUnavailable>
}

/**
 * The client's service.
 *
 * @since 0.1.0
 * @category tags
 */
export class CommunityApiClient extends Context.Service<CommunityApiClient, Client>()(
  "@community-api/effect4-client/CommunityApiClient"
) {}

/**
 * Makes a client over the `HttpClient` of the context.
 *
 * A configuration that cannot work, of any type (a `baseUrl` that is no URL or carries a query string
 * or credentials, a token empty or not `Redacted`, a `timeout` or `deadline` not greater than zero, a
 * `userKey` empty or of whitespace only, an unknown `auth`, `lane` or `onCreationLimit`…: the core's
 * `OptionRules`) is refused at once: the effect dies with `ClientError.InvalidConfig`, which names the
 * option and says what it takes. So do {@link layer} and {@link layerConfig}.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A client made inside a program, over the `HttpClient` of its context (here the in-process server's).
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.make({
 *     baseUrl: ReferenceServer.inProcessBaseUrl,
 *     token: Redacted.make(DemoData.tokens.owner),
 *     timeout: "10 seconds"
 *   })
 *   const me = yield* api.users.me()
 *   strictEqual(me.user_id, DemoData.userIds.owner)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(ReferenceServer.layerTest())))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (config: ClientConfig) => Effect.Effect<Client, never, HttpClient.HttpClient> = internal.make

/**
 * A client as a layer.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A client of the demo owner over the reference server in this process: no network.
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const me = yield* api.users.me()
 *   strictEqual(me.user_id, DemoData.userIds.owner)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (config: ClientConfig): Layer.Layer<CommunityApiClient, never, HttpClient.HttpClient> =>
  Layer.effect(CommunityApiClient, make(config))

/**
 * The base URL and the token from the environment (`COMMUNITY_API_BASE_URL`, `COMMUNITY_API_TOKEN`).
 *
 * @since 0.1.0
 * @category options
 */
export const configFromEnv: Config.Config<ClientConfig> = Config.all({
  // A base URL the client would refuse is a configuration error here, typed, naming the variable.
  baseUrl: Config.schema(
    Schema.String.check(Schema.makeFilter((text: string) => BaseUrl.problem(text) ?? true)),
    Environment.baseUrl
  ),
  token: Config.Redacted(Environment.token)
})

/**
 * A client from a configuration (the environment's by default).
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Config, ConfigProvider, Duration, Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // `COMMUNITY_API_BASE_URL` and `COMMUNITY_API_TOKEN`, here given as a record instead of the environment.
 * const environment = ConfigProvider.fromEnv({
 *   env: { COMMUNITY_API_BASE_URL: ReferenceServer.inProcessBaseUrl, COMMUNITY_API_TOKEN: DemoData.tokens.owner }
 * })
 * // The configuration of the environment, with an option of the program's own.
 * const config = Config.map(CommunityApiClient.configFromEnv, (config) => ({ ...config, timeout: Duration.seconds(10) }))
 * const client = CommunityApiClient.layerConfig(config).pipe(
 *   Layer.provide(ReferenceServer.layerTest()),
 *   Layer.provide(ConfigProvider.layer(environment))
 * )
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   strictEqual((yield* api.users.me()).user_id, DemoData.userIds.owner)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config<ClientConfig> = configFromEnv
): Layer.Layer<CommunityApiClient, Config.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(CommunityApiClient, Effect.flatMap(config, make))
