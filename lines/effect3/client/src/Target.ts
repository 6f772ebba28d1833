/**
 * Where a program's calls go, read from the environment, and the client for it: a real API at
 * `COMMUNITY_API_BASE_URL` with `COMMUNITY_API_TOKEN` ({@link Remote}), or, with no base URL, an
 * embedded sandbox in the process ({@link Embedded}). With `COMMUNITY_API_REDIS_URL` set, the client of
 * a real API paces its requests and counts its creations in that Redis (`Pacing.layerRedis`,
 * `CreationQuota.layerRedis`), so that a user's scripts and assistant share one rate limit with the
 * user's services instead of each process spending it alone; the sandbox ignores it.
 *
 * ```ts
 * import { Target } from "@community-api/client"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Layer } from "effect"
 *
 * const ClientLive = Layer.unwrapEffect(Effect.map(Target.resolve, (target) =>
 *   Target.layer(target, {
 *     client: { timeout: "10 seconds" },
 *     sandbox: Effect.promise(() => import("@community-api/server/Embedded"))
 *   })
 * )).pipe(Layer.provide(NodeHttpClient.layer))
 * ```
 *
 * The command line and the MCP server both run on this module; each adds only its own budget (the
 * client options) and its framing.
 *
 * **What {@link layer} is given rather than imports.** The client depends on the schema alone, and the
 * reference server (`@community-api/server`) on the schema alone: neither loads the other. The
 * embedded sandbox is the reference server, so the client cannot import it (its users would have to
 * install the server, or it would have to be an optional peer loaded behind their back). Instead
 * {@link layer} takes an effect that loads a {@link Sandbox}: the server's `Embedded` module is one, and
 * a program that has the server imports it dynamically there, so that its code is read only for an
 * embedded target and a call to a real API never pays for it. Likewise the `HttpClient` of a real API
 * comes from the context, as for `CommunityApiClient.layer`: the programs give `NodeHttpClient.layer`
 * of `@effect/platform-node` (`node:http`; undici compiles its WebAssembly HTTP parser at the first
 * request, a third of a short command's start), which the client does not depend on.
 *
 * @since 0.1.0
 */
import * as Budget from "@community-api/core/Budget"
import * as Environment from "@community-api/core/Environment"
import * as Choice from "@community-api/core/Target"
import type { HttpClient } from "@effect/platform"
import { Config, Data, Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import type * as ClientError from "./ClientError.js"
import * as CommunityApiClient from "./CommunityApiClient.js"
import * as CreationQuota from "./CreationQuota.js"
import * as Pacing from "./Pacing.js"

/** A secret of the environment, as this line keeps it. */
type Secret = Redacted.Redacted<string>

/**
 * The environment variable of the base URL (`{base_url}`, ending with `/v2`).
 *
 * @since 0.1.0
 * @category constants
 */
export const baseUrlVariable = Environment.baseUrl

/**
 * The environment variable of the token.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenVariable = Environment.token

/**
 * The environment variable of the Redis that keeps the limiters shared by every process of a user
 * (`redis://…`; see `RedisStore`).
 *
 * @since 0.1.0
 * @category constants
 */
export const redisUrlVariable = Environment.redisUrl

/**
 * A real API at a base URL (without trailing slashes), with a token, and the Redis of the shared
 * limiters when one is set.
 *
 * @since 0.1.0
 * @category models
 */
export interface Remote extends Choice.Remote<Secret, Option.Option<Secret>> {}

/**
 * The sandbox in this process, with the demo data; with no token given, the demo owner's.
 *
 * @since 0.1.0
 * @category models
 */
export interface Embedded extends Choice.Embedded<Option.Option<Secret>> {}

/**
 * Where calls go.
 *
 * @since 0.1.0
 * @category models
 */
export type Target = Remote | Embedded

/**
 * Where the client of a target keeps the user's limits: `memory`, this process's own (its calls
 * alone), or `redis`, the Redis of {@link redisUrlVariable} (every process of the user that shares it).
 *
 * @since 0.1.0
 * @category models
 */
export const Limiters = Schema.Literal(...Budget.limiters)

/**
 * Where the limits are kept, `memory` or `redis`: the type {@link Limiters} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Limiters = typeof Limiters.Type

/**
 * Where the client of a target keeps its limits (see {@link layer}): in Redis for a real API with a
 * Redis URL (the embedded sandbox ignores it), else in this process's memory.
 *
 * @since 0.1.0
 * @category utils
 */
export const limitersOf = (target: Target): Limiters => Choice.limitersOf(Choice.unkeep(target, Option.getOrUndefined))

/**
 * The environment names a base URL but no token: nothing can be sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class MissingToken extends Data.TaggedError("MissingToken")<{}> {
  override get message() {
    return Choice.missingToken
  }
}

/**
 * What the environment says, each value trimmed; none when unset or blank.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings extends Choice.Settings<Option.Option<string>, Option.Option<Secret>> {}

// Trimmed, and none when blank (`Target.valueOf` of the core); a secret `Redacted`.
const optionalText = (name: string): Config.Config<Option.Option<string>> =>
  Config.map(Config.option(Config.string(name)), Option.flatMap((raw) => Option.fromNullable(Choice.valueOf(raw))))
const optionalSecret = (name: string) => Config.map(optionalText(name), Option.map(Redacted.make))

/**
 * The {@link Settings} of the environment ({@link baseUrlVariable}, {@link tokenVariable},
 * {@link redisUrlVariable}), read through Effect `Config`.
 *
 * @since 0.1.0
 * @category options
 */
export const settings: Config.Config<Settings> = Config.all({
  baseUrl: optionalText(baseUrlVariable),
  token: optionalSecret(tokenVariable),
  redisUrl: optionalSecret(redisUrlVariable)
})

// What this line's optional values hold, read for the core's choice (`Target.fromSettings`).
const optional: Choice.Optional<Option.Option<string>, Secret, Option.Option<Secret>> = {
  text: Option.getOrUndefined,
  secret: Option.getOrUndefined,
  wrap: Option.fromNullable
}

/**
 * The target of some {@link Settings}: a real API when a base URL is set (its trailing slashes
 * removed), which then needs a token; otherwise the embedded sandbox. A program that takes the token
 * from elsewhere too (the command line's `--token-stdin`) puts it in `token` first.
 *
 * @example
 * ```ts
 * import { Target } from "@community-api/client"
 * import { Either, Option } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A base URL without a token cannot be called: `MissingToken`.
 * const chosen = Target.fromSettings({
 *   baseUrl: Option.some("https://api.example/v2"),
 *   token: Option.none(),
 *   redisUrl: Option.none()
 * })
 * strictEqual(Either.isLeft(chosen) && chosen.left._tag, "MissingToken")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromSettings = (settings: Settings): Either.Either<Target, MissingToken> => {
  const chosen = Choice.fromSettings(settings, optional)
  return chosen._tag === "MissingToken" ? Either.left(new MissingToken()) : Either.right(chosen)
}

/**
 * The target of the environment: {@link fromSettings} of {@link settings}.
 *
 * @example
 * ```ts
 * import { Target } from "@community-api/client"
 * import { ConfigProvider, Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // No `COMMUNITY_API_BASE_URL`: the embedded sandbox. With one, the API there.
 * const read = (variables: Record<string, string>) =>
 *   Effect.runSync(Target.resolve.pipe(Effect.withConfigProvider(ConfigProvider.fromJson(variables))))
 *
 * strictEqual(read({})._tag, "Embedded")
 * strictEqual(read({ COMMUNITY_API_BASE_URL: "https://api.example/v2", COMMUNITY_API_TOKEN: "t" })._tag, "Remote")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const resolve: Effect.Effect<Target, MissingToken> = Effect.flatMap(
  // Optional text cannot fail to read: a ConfigError here would be a bug of the provider.
  Effect.orDie(settings),
  fromSettings
)

/**
 * An embedded sandbox: a server in this process with demo data, and an `HttpClient` to it. The
 * server's `Embedded` module (`@community-api/server/Embedded`) is one.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sandbox {
  /** The base URL its `HttpClient` answers at. */
  readonly baseUrl: string
  /** The token of an embedded target that names none. */
  readonly token: Redacted.Redacted<string>
  /** The server and an `HttpClient` whose requests go to it. */
  readonly layer: Layer.Layer<HttpClient.HttpClient>
}

/**
 * How {@link layer} makes the client.
 *
 * @since 0.1.0
 * @category options
 */
export interface LayerOptions {
  /** The client's options but the base URL and the token: a program's budget (timeouts, retries). */
  readonly client?: Omit<CommunityApiClient.ClientConfig, "baseUrl" | "token"> | undefined
  /** Loads the sandbox; run only for an {@link Embedded} target. */
  readonly sandbox: Effect.Effect<Sandbox>
}

/**
 * The client of a target. {@link Remote}: the client over the `HttpClient` of the context, and with
 * a Redis URL the Redis limiters (`Pacing.layerRedis` and `CreationQuota.layerRedis`, one connection
 * each for the layer's scope) in place of the process-wide ones. {@link Embedded}: the client over the
 * sandbox that `options.sandbox` loads, with its token unless the target names one; the context's
 * `HttpClient` is not used.
 *
 * @example
 * ```ts
 * import { CommunityApiClient, Target } from "@community-api/client"
 * import { DemoFixture } from "@community-api/server"
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Layer } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The client of the environment's target: here none is set, so the embedded sandbox, loaded on demand.
 * const client = Layer.unwrapEffect(Effect.map(Target.resolve, (target) =>
 *   Target.layer(target, {
 *     client: { timeout: "10 seconds" },
 *     sandbox: Effect.promise(() => import("@community-api/server/Embedded"))
 *   }))).pipe(Layer.provide(FetchHttpClient.layer))
 *
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   strictEqual((yield* api.users.me()).user_id, DemoFixture.userIds.owner)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  target: Target,
  options: LayerOptions
): Layer.Layer<CommunityApiClient.CommunityApiClient, ClientError.LimiterUnavailable, HttpClient.HttpClient> => {
  if (target._tag === "Remote") {
    const client = CommunityApiClient.layer({ ...options.client, baseUrl: target.baseUrl, token: target.token })
    return Option.match(target.redisUrl, {
      onNone: () => client,
      onSome: (url) => Layer.provide(client, Layer.merge(Pacing.layerRedis({ url }), CreationQuota.layerRedis({ url })))
    })
  }
  return Layer.unwrapEffect(Effect.map(options.sandbox, (sandbox) =>
    CommunityApiClient.layer({
      ...options.client,
      baseUrl: sandbox.baseUrl,
      token: Option.getOrElse(target.token, () => sandbox.token)
    }).pipe(Layer.provide(sandbox.layer))))
}
