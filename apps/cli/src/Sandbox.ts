/**
 * `community-api serve`: the sandbox of the reference server on a port, the very program `pnpm start`
 * runs (`@community-api/server/bin`), with the same flags: `--port N` (or `PORT`), `--host H`,
 * `--fixture FILE`, `--faults JSON`, `--latency MS`, `--quiet`.
 *
 * @since 0.1.0
 */
import { Config, Effect, Option } from "effect"

/**
 * The flags `serve` passes on to the sandbox, for the help text.
 *
 * @since 0.1.0
 */
export const flags = "--port N (or PORT; default 8787), --host H, --fixture FILE, --faults JSON, --latency MS, --quiet"

/**
 * Runs the sandbox with `args` (the words after `serve`) until it is stopped: the server's own
 * `Sandbox.run`, loaded only when asked for, with `PORT` read through `Config` (the environment,
 * unless a program running the command line gives another). A usage error or a bad fixture fails,
 * its message already written to stderr by the sandbox.
 *
 * @since 0.1.0
 */
export const serve = (args: ReadonlyArray<string>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const port = yield* Effect.orDie(Config.option(Config.string("PORT")))
    const ServerSandbox = yield* Effect.promise(() => import("@community-api/server/Sandbox"))
    return yield* ServerSandbox.run(args, Option.match(port, { onNone: () => ({}), onSome: (PORT) => ({ PORT }) }))
  })

/**
 * The words after `serve` when the command line asks for the sandbox (and not for help), else
 * `undefined`. `serve` takes the sandbox's own flags, which only the sandbox knows, so it is handed
 * over before the command parser sees them.
 *
 * @since 0.1.0
 */
export const argsOf = (argv: ReadonlyArray<string>): ReadonlyArray<string> | undefined => {
  const [command, ...rest] = argv.slice(2)
  if (command !== "serve" || rest.some((arg) => arg === "--help" || arg === "-h")) return undefined
  return rest
}
