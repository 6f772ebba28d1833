/**
 * Where the command line sends its calls and with which token: the client's `Target` read from the
 * environment (`COMMUNITY_API_BASE_URL`, `COMMUNITY_API_TOKEN`, and `COMMUNITY_API_REDIS_URL` for the
 * limiters shared with the user's other processes), or the token from standard input
 * (`--token-stdin`); never from the command line, where other users and shell history would see it.
 * With no base URL the calls go to the embedded sandbox, with the demo owner's token unless one is given.
 *
 * @since 0.1.0
 */
import * as Target from "@community-api/client/Target"
import { Effect, Option, Redacted } from "effect"
import { readFirstLine } from "./internal/stdin.js"
import { Stdio } from "./Stdio.js"
import { UsageError } from "./UsageError.js"

/**
 * The environment variable of the base URL.
 *
 * @since 0.1.0
 */
export const baseUrlVariable = Target.baseUrlVariable

/**
 * The environment variable of the token.
 *
 * @since 0.1.0
 */
export const tokenVariable = Target.tokenVariable

/**
 * Resolves the target from the environment (`Target.settings`) and, with `tokenStdin`, the first line
 * of standard input ({@link Stdio}), which then stands for the environment's token.
 *
 * @since 0.1.0
 */
export const resolve = (options: { readonly tokenStdin: boolean }): Effect.Effect<Target.Target, UsageError> =>
  Effect.gen(function*() {
    const settings = yield* Effect.orDie(Target.settings)
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
    const token = Option.orElse(Option.map(fromStdin, Redacted.make), () => settings.token)
    return yield* Target.fromSettings({ ...settings, token }).pipe(
      Effect.mapError(() =>
        new UsageError({
          reason: `${baseUrlVariable} is set but no token: set ${tokenVariable} or pipe it with --token-stdin`
        })
      )
    )
  })
