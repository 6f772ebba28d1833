/**
 * The command line as one effect: parse the arguments, run the command, write one line on failure,
 * and give the exit code of {@link ExitCode}.
 *
 * @since 0.1.0
 */
import { Command, HelpDoc, ValidationError } from "@effect/cli"
import type { CliApp } from "@effect/cli"
import { Cause, Config, Console, Effect, Option } from "effect"
import * as Commands from "./Commands.js"
import * as ExitCode from "./ExitCode.js"
import * as Report from "./Report.js"
import * as Sandbox from "./Sandbox.js"
import { Stdio } from "./Stdio.js"

/**
 * The version shown by `--version`.
 *
 * @since 0.1.0
 */
export const version = "0.1.0"

/**
 * The help footer: the exit codes, from {@link ExitCode}, and where credentials come from.
 *
 * @since 0.1.0
 */
export const footer: HelpDoc.HelpDoc = HelpDoc.blocks([
  HelpDoc.h1("EXIT CODES"),
  ...ExitCode.describe().map((line) => HelpDoc.p(line)),
  HelpDoc.h1("CREDENTIALS"),
  HelpDoc.p(
    "COMMUNITY_API_BASE_URL (ending in /v2) and COMMUNITY_API_TOKEN, or the token from standard input with " +
      "--token-stdin. With no COMMUNITY_API_BASE_URL the calls go to an embedded sandbox with the demo data."
  )
])

const cli = Command.run(Commands.root, { name: "community-api", version, footer })

const colourCodes = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g")

const strip = (args: ReadonlyArray<unknown>) =>
  args.map((arg) => typeof arg === "string" ? arg.replace(colourCodes, "") : arg)

/**
 * A console that drops the colour codes of `@effect/cli`'s help and messages on the streams that are
 * not terminals (a pipe, a file), or everywhere when `NO_COLOR` is set.
 *
 * @since 0.1.0
 */
export const plainConsole = (
  console: Console.Console,
  terminals: { readonly stdout: boolean; readonly stderr: boolean }
): Console.Console => ({
  ...console,
  log: (...args) => terminals.stdout ? console.log(...args) : console.log(...strip(args)),
  error: (...args) => terminals.stderr ? console.error(...args) : console.error(...strip(args))
})

const terminals = Effect.gen(function*() {
  const noColor = yield* Effect.orDie(Config.option(Config.string("NO_COLOR")))
  const colour = Option.isNone(noColor) || noColor.value === ""
  const { stderr, stdout } = yield* Stdio
  return { stdout: colour && stdout.isTTY === true, stderr: colour && stderr.isTTY === true }
})

const logLevelFlag = "--log-level"

/**
 * `argv` with `--log-level <level>` (or `--log-level=<level>`) moved before the subcommand, the only
 * place where `@effect/cli` reads its built-in options, so that it may also follow a command's own
 * options. Nothing after `--` is moved.
 *
 * @since 0.1.0
 */
export const hoistLogLevel = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const head = argv.slice(0, 2)
  const rest = argv.slice(2)
  const moved: Array<string> = []
  const kept: Array<string> = []
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    if (arg === "--") {
      kept.push(...rest.slice(i))
      break
    }
    if (arg.startsWith(`${logLevelFlag}=`)) moved.push(arg)
    else if (arg === logLevelFlag && i + 1 < rest.length) moved.push(arg, rest[++i]!)
    else kept.push(arg)
  }
  return [...head, ...moved, ...kept]
}

/**
 * Runs the command line on `argv` (as `process.argv`: the runtime and the script first) and succeeds
 * with the exit code. A failure is reported in one line on standard error; a parse error was already
 * printed with its help by `@effect/cli`.
 *
 * @since 0.1.0
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<number, never, CliApp.CliApp.Environment> =>
  Effect.consoleWith((console) =>
    Effect.flatMap(terminals, (streams) => Effect.withConsole(cli(hoistLogLevel(argv)), plainConsole(console, streams)))
  )
    .pipe(
      Effect.as(ExitCode.kinds.success.code),
      Effect.catchAll((error) =>
        ValidationError.isValidationError(error)
          ? Effect.succeed(ExitCode.kinds.usage.code)
          : Effect.as(Console.error(Report.line(error)), ExitCode.ofError(error))
      ),
      Effect.catchAllCause((cause) =>
        Effect.as(
          Console.error(`${Report.prefix} internal error: ${Cause.pretty(cause).split("\n")[0]}`),
          ExitCode.kinds.internal.code
        )
      )
    )

/**
 * The program of the `community-api` executable on `argv` (as `process.argv`): `serve …` runs the
 * sandbox until it is stopped (see {@link Sandbox.argsOf}), anything else the command line
 * ({@link run}). Succeeds with the exit code; fails only when the sandbox cannot start. It reads the
 * environment through `Config`, standard input and whether the streams are terminals through
 * {@link Stdio}, and writes through `Console`: each can be given by a program that runs it in process.
 *
 * @since 0.1.0
 */
export const main = (argv: ReadonlyArray<string>): Effect.Effect<number, unknown, CliApp.CliApp.Environment> => {
  const sandboxArgs = Sandbox.argsOf(argv)
  return sandboxArgs === undefined ? run(argv) : Effect.as(Sandbox.serve(sandboxArgs), ExitCode.kinds.success.code)
}
