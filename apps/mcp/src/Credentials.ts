/**
 * Where the server sends its calls and with which token: the same environment variables as the
 * client's `configFromEnv`, and the definitions the command line reads them with, `COMMUNITY_API_BASE_URL` and `COMMUNITY_API_TOKEN`.
 * With no base URL the calls go to an embedded sandbox with the demo data, as the demo owner unless a
 * token is given. Standard input carries the protocol, so the token cannot be piped there.
 *
 * @since 0.1.0
 */
import { Config, Data, Effect, Option, Redacted } from "effect"

/**
 * The environment variable of the base URL (ends with `/v2`).
 *
 * @since 0.1.0
 */
export const baseUrlVariable = "COMMUNITY_API_BASE_URL"

/**
 * The environment variable of the token.
 *
 * @since 0.1.0
 */
export const tokenVariable = "COMMUNITY_API_TOKEN"

/**
 * A server at a base URL, with a token.
 *
 * @since 0.1.0
 */
export interface Remote {
  readonly _tag: "Remote"
  readonly baseUrl: string
  readonly token: Redacted.Redacted<string>
}

/**
 * The sandbox in this process; with no token given, the demo owner's.
 *
 * @since 0.1.0
 */
export interface Embedded {
  readonly _tag: "Embedded"
  readonly token: Option.Option<Redacted.Redacted<string>>
}

/**
 * Where calls go.
 *
 * @since 0.1.0
 */
export type Target = Remote | Embedded

/**
 * The environment names a base URL but no token: the server does not start.
 *
 * @since 0.1.0
 */
export class MissingToken extends Data.TaggedError("MissingToken")<{}> {
  override get message() {
    return `${baseUrlVariable} is set but ${tokenVariable} is not: set both, or neither for the embedded sandbox`
  }
}

/**
 * An environment variable's text, trimmed; none when unset or blank. Read by the command line too.
 *
 * @since 0.1.0
 */
export const optionalText = (name: string): Config.Config<Option.Option<string>> =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.map((value) => value.trim())),
    Config.map(Option.filter((value) => value !== ""))
  )

/**
 * The target of the environment (read through `Config`).
 *
 * @since 0.1.0
 */
export const resolve: Effect.Effect<Target, MissingToken> = Effect.gen(function*() {
  const baseUrl = yield* Effect.orDie(optionalText(baseUrlVariable))
  const token = Option.map(yield* Effect.orDie(optionalText(tokenVariable)), Redacted.make)
  if (Option.isNone(baseUrl)) return { _tag: "Embedded", token } as const
  if (Option.isNone(token)) return yield* new MissingToken()
  return { _tag: "Remote", baseUrl: baseUrl.value.replace(/\/+$/, ""), token: token.value } as const
})
