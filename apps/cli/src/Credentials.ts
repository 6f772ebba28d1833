/**
 * Where the command line sends its calls and with which token. The base URL and the token come from
 * `COMMUNITY_API_BASE_URL` and `COMMUNITY_API_TOKEN`, or the token from standard input
 * (`--token-stdin`); never from the command line, where other users and shell history would see it.
 * With no base URL the calls go to the embedded sandbox, with the demo owner's token unless one is given.
 *
 * @since 0.1.0
 */
import * as Shared from "@community-api/mcp/Credentials"
import { Effect, Option, Redacted } from "effect"
import { readFirstLine } from "./internal/stdin.js"
import { Stdio } from "./Stdio.js"
import { UsageError } from "./UsageError.js"

/**
 * The environment's names and the targets, shared with the MCP server (`community-api mcp`).
 *
 * @since 0.1.0
 */
export const { baseUrlVariable, tokenVariable } = Shared

/**
 * A server at a base URL, with a token.
 *
 * @since 0.1.0
 */
export type Remote = Shared.Remote

/**
 * The sandbox in this process; with no token given, the demo owner's.
 *
 * @since 0.1.0
 */
export type Embedded = Shared.Embedded

/**
 * Where calls go.
 *
 * @since 0.1.0
 */
export type Target = Shared.Target

const { optionalText } = Shared

/**
 * Resolves the target from the environment (`Config`) and, with `tokenStdin`, the first line of
 * standard input ({@link Stdio}).
 *
 * @since 0.1.0
 */
export const resolve = (options: { readonly tokenStdin: boolean }): Effect.Effect<Target, UsageError> =>
  Effect.gen(function*() {
    const baseUrl = yield* Effect.orDie(optionalText(baseUrlVariable))
    const { stdin } = yield* Stdio
    if (options.tokenStdin && stdin.isTTY === true) {
      // Typed on a terminal the token would be echoed on the screen: it must come through a pipe.
      return yield* new UsageError({
        reason: "--token-stdin reads the token from a pipe (secret-tool … | community-api … --token-stdin), " +
          "not from a terminal"
      })
    }
    const fromStdin = options.tokenStdin
      ? Option.some(yield* readFirstLine(stdin)).pipe(Option.filter((line) => line !== ""))
      : Option.none()
    if (options.tokenStdin && Option.isNone(fromStdin)) {
      return yield* new UsageError({ reason: "--token-stdin was given but standard input has no token" })
    }
    const fromEnv = yield* Effect.orDie(optionalText(tokenVariable))
    const token = Option.orElse(fromStdin, () => fromEnv).pipe(Option.map(Redacted.make))
    if (Option.isNone(baseUrl)) return { _tag: "Embedded", token } as const
    if (Option.isNone(token)) {
      return yield* new UsageError({
        reason: `${baseUrlVariable} is set but no token: set ${tokenVariable} or pipe it with --token-stdin`
      })
    }
    return { _tag: "Remote", baseUrl: baseUrl.value.replace(/\/+$/, ""), token: token.value } as const
  })
