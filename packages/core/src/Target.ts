/**
 * Where a program's calls go, as both Effect lines read it from the environment ({@link Environment}):
 * a real API at the base URL with the token, and the Redis of the shared limiters when one is set; or,
 * with no base URL, the embedded sandbox, which ignores the Redis URL. Each value is trimmed, and a
 * blank one is taken for unset. Generic over the form a line keeps a secret in (`Redacted`).
 *
 * @since 0.1.0
 */
import * as BaseUrl from "./BaseUrl.js"
import type * as Budget from "./Budget.js"
import * as Environment from "./Environment.js"

/**
 * A value of the environment as a target reads it: trimmed, none when unset or blank.
 *
 * @since 0.1.0
 * @category decoding
 */
export const valueOf = (raw: string | undefined): string | undefined => {
  const value = raw?.trim()
  return value === "" ? undefined : value
}

/**
 * What the environment says ({@link valueOf} of each variable), the secrets in a line's form `S`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Values<S> {
  readonly baseUrl: string | undefined
  readonly token: S | undefined
  readonly redisUrl: S | undefined
}

/**
 * Where calls go: a real API (its base URL without trailing slashes) or the embedded sandbox (with the
 * token when one is given).
 *
 * @since 0.1.0
 * @category models
 */
export type Target<S> = Remote<S, S | undefined> | Embedded<S | undefined>

/**
 * What the environment chooses: a {@link Target}, or nowhere: a base URL without a token.
 *
 * @since 0.1.0
 * @category models
 */
export type Choice<S> = Target<S> | { readonly _tag: "MissingToken" }

/**
 * The target of some {@link Values}: a real API when a base URL is set (its trailing slashes
 * removed), which then needs a token; otherwise the embedded sandbox. A program that takes the token
 * from elsewhere too (the command line's `--token-stdin`) puts it in `token` first.
 *
 * @example
 * ```ts
 * import * as Target from "@community-api/core/Target"
 * import { deepStrictEqual } from "node:assert"
 *
 * // No base URL: the embedded sandbox. A base URL: that API, which needs a token.
 * const none = { baseUrl: undefined, token: undefined, redisUrl: undefined }
 * deepStrictEqual(Target.choose(none), { _tag: "Embedded", token: undefined })
 * deepStrictEqual(Target.choose({ ...none, baseUrl: "https://api.example/v2/" }), { _tag: "MissingToken" })
 * deepStrictEqual(Target.choose({ ...none, baseUrl: "https://api.example/v2/", token: "t" }), {
 *   _tag: "Remote",
 *   baseUrl: "https://api.example/v2",
 *   token: "t",
 *   redisUrl: undefined
 * })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const choose = <S>(values: Values<S>): Choice<S> => {
  if (values.baseUrl === undefined) return { _tag: "Embedded", token: values.token }
  if (values.token === undefined) return { _tag: "MissingToken" }
  return {
    _tag: "Remote",
    baseUrl: BaseUrl.trimTrailingSlashes(values.baseUrl),
    token: values.token,
    redisUrl: values.redisUrl
  }
}

/**
 * The message of a base URL without a token: it names both variables.
 *
 * @since 0.1.0
 * @category constants
 */
export const missingToken =
  `${Environment.baseUrl} is set but ${Environment.token} is not: set both, or neither for the embedded sandbox`

/**
 * Where the client of a target keeps its limits: in Redis for a real API with a Redis URL (the
 * embedded sandbox ignores it), else in this process's memory.
 *
 * @example
 * ```ts
 * import * as Target from "@community-api/core/Target"
 * import { strictEqual } from "node:assert"
 *
 * // Where a target's limits are counted: in Redis when a real API's Redis URL is set, else in memory.
 * strictEqual(Target.limitersOf({ _tag: "Embedded", token: undefined }), "memory")
 * strictEqual(
 *   Target.limitersOf({ _tag: "Remote", baseUrl: "https://api.example/v2", token: "t", redisUrl: "redis://r:6379" }),
 *   "redis"
 * )
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const limitersOf = <S>(target: Target<S>): Budget.Limiters =>
  target._tag === "Remote" && target.redisUrl !== undefined ? "redis" : "memory"

/**
 * A real API as a line keeps it: a base URL (without trailing slashes), a token as `S`, and the Redis
 * of the shared limiters when one is set, as `O` (Effect's `Option` of a `Redacted`). Each line's
 * `Target.Remote` is this one, in its forms.
 *
 * @since 0.1.0
 * @category models
 */
export interface Remote<S, O> {
  readonly _tag: "Remote"
  readonly baseUrl: string
  readonly token: S
  readonly redisUrl: O
}

/**
 * The embedded sandbox as a line keeps it: the token, when one is given, as `O`. Each line's
 * `Target.Embedded` is this one, in its forms.
 *
 * @since 0.1.0
 * @category models
 */
export interface Embedded<O> {
  readonly _tag: "Embedded"
  readonly token: O
}

/**
 * A target as a line keeps it: its optional secrets in the line's form `O` (Effect's `Option` of a
 * `Redacted`), its token of a real API as `S`.
 *
 * @since 0.1.0
 * @category models
 */
export type Kept<S, O> = Remote<S, O> | Embedded<O>

/**
 * `target` as a line keeps it, each optional secret made the line's by `wrap`.
 *
 * @since 0.1.0
 * @category utils
 */
export const keep = <S, O>(target: Target<S>, wrap: (secret: S | undefined) => O): Kept<S, O> =>
  target._tag === "Remote"
    ? { _tag: "Remote", baseUrl: target.baseUrl, token: target.token, redisUrl: wrap(target.redisUrl) }
    : { _tag: "Embedded", token: wrap(target.token) }

/**
 * The target that a line keeps as `kept`, each optional secret read back by `unwrap`.
 *
 * @since 0.1.0
 * @category utils
 */
export const unkeep = <S, O>(kept: Kept<S, O>, unwrap: (secret: O) => S | undefined): Target<S> =>
  kept._tag === "Remote"
    ? { _tag: "Remote", baseUrl: kept.baseUrl, token: kept.token, redisUrl: unwrap(kept.redisUrl) }
    : { _tag: "Embedded", token: unwrap(kept.token) }

/**
 * What a line reads of the environment, in its forms: the base URL as `T`, each secret as `O` (Effect's
 * `Option` of a string and of a `Redacted`), each none when unset or blank. Each line's
 * `Target.Settings` is this one, in its forms.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings<T, O> {
  readonly baseUrl: T
  readonly token: O
  readonly redisUrl: O
}

/**
 * How a line's optional values read: what the base URL (`text`) and a secret (`secret`) hold, none as
 * `undefined`; and a secret made optional again in the line's form (`wrap`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Optional<T, S, O> {
  readonly text: (value: T) => string | undefined
  readonly secret: (value: O) => S | undefined
  readonly wrap: (secret: S | undefined) => O
}

/**
 * The target of a line's {@link Settings} ({@link choose} of what they hold), kept in the line's
 * forms; or nowhere, a base URL without a token.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromSettings = <T, S, O>(
  settings: Settings<T, O>,
  optional: Optional<T, S, O>
): Kept<S, O> | { readonly _tag: "MissingToken" } => {
  const chosen = choose({
    baseUrl: optional.text(settings.baseUrl),
    token: optional.secret(settings.token),
    redisUrl: optional.secret(settings.redisUrl)
  })
  return chosen._tag === "MissingToken" ? chosen : keep(chosen, optional.wrap)
}
