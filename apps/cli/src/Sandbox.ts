/**
 * `community-api serve`: the sandbox of the reference server on a port, the very program `pnpm start`
 * runs (`@community-api/server/bin`), with the same flags: `--port N` (or `PORT`), `--host H`,
 * `--fixture FILE`, `--faults JSON`, `--latency MS`, `--control-token T` (or
 * `COMMUNITY_API_SANDBOX_CONTROL_TOKEN`), `--headers-timeout MS`, `--body-timeout MS`,
 * `--keep-alive-timeout MS`, `--max-connections N`, `--quiet`.
 *
 * @since 0.1.0
 */
import { Config, Effect, Option } from "effect"
import * as Report from "./Report.js"

/**
 * The flags `serve` passes on to the sandbox, for the help text.
 *
 * @since 0.1.0
 */
export const flags = "--port N (or PORT; default 8787), --host H, --fixture FILE, --faults JSON, --latency MS, " +
  "--control-token T (or COMMUNITY_API_SANDBOX_CONTROL_TOKEN), --headers-timeout MS, --body-timeout MS, " +
  "--keep-alive-timeout MS, --max-connections N, --quiet"

/**
 * Runs the sandbox with `args` (the words after `serve`) until it is stopped: the server's own
 * `Sandbox.run`, loaded only when asked for, with `PORT` and the control token's variable read
 * through `Config` (the environment, unless a program running the command line gives another). A
 * usage error or a bad fixture fails; the sandbox's message is written to stderr as one line after
 * `community-api: serve:`.
 *
 * @since 0.1.0
 */
export const serve = (args: ReadonlyArray<string>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const ServerSandbox = yield* Effect.promise(() => import("@community-api/server/Sandbox"))
    const env: Record<string, string> = {}
    for (const name of ["PORT", ServerSandbox.controlTokenVariable]) {
      const value = yield* Effect.orDie(Config.option(Config.string(name)))
      if (Option.isSome(value)) env[name] = value.value
    }
    return yield* ServerSandbox.run(args, env)
  }).pipe(
    (effect) =>
      Effect.consoleWith((console) =>
        Effect.withConsole(effect, {
          ...console,
          // The sandbox's refusal is two lines (what is wrong, its usage): one, as every error here.
          error: (...lines) =>
            console.error(`${Report.prefix} serve: ${lines.map(String).join(" ").replace(/\s*\n\s*/g, "; ")}`)
        })
      )
  )
