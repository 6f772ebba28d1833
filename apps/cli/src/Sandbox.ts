/**
 * `community-api serve`: the sandbox of the reference server on a port, the very program `pnpm start`
 * runs (the server package's `Sandbox` module, behind its `community-api-sandbox` bin), with the same
 * flags (`Sandbox.flags`).
 *
 * @since 0.1.0
 */
import { Config, Console, Effect, Option } from "effect"
import * as ExitCode from "./ExitCode.js"
import * as Report from "./Report.js"
import { Stdio } from "./Stdio.js"

/**
 * The flags `serve` passes on to the sandbox, for the help text. A test keeps them equal to the
 * sandbox's own (`Sandbox.flags` of the server), which is not imported here: the server's code is
 * loaded only when `serve` runs.
 *
 * @since 0.1.0
 */
export const flags =
  "--port N (or PORT; default 8787), --host H, --fixture FILE, --faults JSON, --drift JSON, --answers FILE, " +
  "--latency MS, " +
  "--control-token T (or COMMUNITY_API_SANDBOX_CONTROL_TOKEN), --clock real|manual, --clock-start INSTANT, " +
  "--rate-clock real|manual, --headers-timeout MS, --body-timeout MS, " +
  "--keep-alive-timeout MS, --max-connections N, --quiet"

/**
 * Runs the sandbox with `args` (the words after `serve`) until it is stopped, and succeeds with the
 * exit code: the server's own `Sandbox.run`, loaded only when asked for, with `PORT` and the control
 * token's variable read through `Config` (the environment, unless a program running the command line
 * gives another), under the name `command` in its usage. What stops it before it serves is one line on
 * standard error: a usage error in the command line's form (`community-api: serve: …`, exit 2); a
 * fixture or a port exactly as `pnpm start` writes it (`cannot listen on 127.0.0.1:8787: already in
 * use`, exit 1). Stopped by Ctrl-C it prints the sandbox's last line, as `pnpm start` does.
 *
 * @since 0.1.0
 */
export const serve = (
  args: ReadonlyArray<string>,
  command: string = "community-api serve"
): Effect.Effect<number> =>
  Effect.gen(function*() {
    const ServerSandbox = yield* Effect.promise(() => import("@community-api/server/Sandbox"))
    const env: Record<string, string> = {}
    for (const name of ["PORT", ServerSandbox.controlTokenVariable]) {
      const value = yield* Effect.orDie(Config.option(Config.string(name)))
      if (Option.isSome(value)) env[name] = value.value
    }
    const { stdout } = yield* Stdio
    return yield* ServerSandbox.run(args, env, { command }).pipe(
      Effect.onInterrupt(() => Console.log(ServerSandbox.stoppedLine(stdout.isTTY === true))),
      Effect.as(ExitCode.kinds.success.code),
      Effect.catchAll((error) =>
        Effect.as(
          Console.error(
            error._tag === "UsageError"
              // The sandbox's refusal is two lines (what is wrong, its usage): one, as every usage error here.
              ? `${Report.prefix} serve: ${error.message.replace(/\s*\n\s*/g, "; ")}`
              // Not started (a fixture, a port): the sandbox's own line, the same as `pnpm start` writes.
              : error.message
          ),
          ServerSandbox.exitCode(error)
        )
      )
    )
  })
