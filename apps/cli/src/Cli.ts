/**
 * The command line as one effect: read what the words name ({@link Route}), answer `--help` from the
 * contract ({@link Help}), parse the flags with `@effect/cli`, run the command, write one line on any
 * failure (a usage error too), and give the exit code of {@link ExitCode}.
 *
 * @since 0.1.0
 */
import { InvalidConfig } from "@community-api/client/ClientError"
import { CliConfig, Command, CommandDescriptor as Descriptor, HelpDoc, ValidationError } from "@effect/cli"
import type { CliApp } from "@effect/cli"
import { Cause, Config, Console, Effect, Either, Exit, Logger, Option } from "effect"
import * as Commands from "./Commands.js"
import * as Credentials from "./Credentials.js"
import * as ExitCode from "./ExitCode.js"
import * as Global from "./Global.js"
import * as Help from "./Help.js"
import { quote } from "./internal/text.js"
import * as Mcp from "./Mcp.js"
import * as Report from "./Report.js"
import * as Route from "./Route.js"
import * as Sandbox from "./Sandbox.js"
import { Stdio } from "./Stdio.js"
import { UsageError } from "./UsageError.js"

/**
 * The version shown by `--version`.
 *
 * @since 0.1.0
 */
export const version = Commands.version

/**
 * The help footer of `@effect/cli`'s own screens (the wizard): the exit codes, from {@link ExitCode},
 * and where credentials come from. `--help` is written by {@link Help}.
 *
 * @since 0.1.0
 */
export const footer: HelpDoc.HelpDoc = HelpDoc.blocks([
  HelpDoc.h1("EXIT CODES"),
  ...ExitCode.describe().map((line) => HelpDoc.p(line)),
  HelpDoc.h1("CREDENTIALS"),
  HelpDoc.p(Commands.credentials)
])

/** The whole application of `@effect/cli`, for what only it does: completion scripts and the wizard. */
const cli = Command.run(Commands.root, { name: Route.executable, version, footer })

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
 * `argv` with `--log-level <level>` (or `--log-level=<level>`) moved before the subcommand, where a
 * global flag stands, so that it may also follow a command's own options (see
 * {@link Global.takeLogLevel}, which reads it there). Nothing after `--` is moved.
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

const usageError = (error: UsageError) => Effect.as(Console.error(Report.line(error)), ExitCode.kinds.usage.code)

const printHelp = (route: Route.Route) =>
  Effect.flatMap(Stdio, ({ stdout }) => Console.log(Help.render(route, Help.widthOf(stdout))))

const wizardFlag = "--wizard"

/** The parser's own built-in flags that only it handles: {@link cli} runs them. */
const handledByParser = ["--completions", wizardFlag]

const stdinIsTerminal = Effect.map(Stdio, ({ stdin }) => stdin.isTTY === true)

/**
 * The wizard asks its questions on standard input: from a pipe or a closed input it would wait for
 * answers that never come, so it is refused at once.
 */
const wizardWithoutTerminal = new UsageError({
  reason: `${wizardFlag} asks its questions on a terminal and standard input is not one; give the flags on ` +
    `the command line instead (${Route.executable} --help)`
})

/**
 * Parses the words with `@effect/cli` (which writes nothing itself here) and runs the command they
 * name. A parse error becomes a {@link UsageError} in the one-line form of every error.
 */
const parseAndRun = (route: Route.Route, words: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const config = Option.getOrElse(yield* Effect.serviceOption(CliConfig.CliConfig), () => CliConfig.defaultConfig)
    const directive = yield* Descriptor.parse(Commands.root.descriptor, [Route.executable, ...words], config).pipe(
      Effect.mapError((error) => Route.refused(route, error))
    )
    if (directive._tag === "BuiltIn") {
      // Help and the version are answered before parsing; what is left is the parser's.
      return yield* printHelp(route)
    }
    const [leftover] = directive.leftover
    if (leftover !== undefined) {
      return yield* Route.refused(
        route,
        ValidationError.invalidValue(HelpDoc.p(`Received unknown argument: '${leftover}'`))
      )
    }
    return yield* Commands.root.transform(Commands.root.handler(directive.value), directive.value).pipe(
      Effect.catchIf(ValidationError.isValidationError, (error) =>
        ValidationError.isHelpRequested(error) ? printHelp(route) : Effect.fail(Route.refused(route, error)))
    )
  })

/**
 * The exit code of the sandbox's end: it runs until stopped, so it ends only after its help or when it
 * cannot start, what stopped it already written (see {@link Sandbox.serve}).
 */
const serve = (words: ReadonlyArray<string>) => Sandbox.serve(words)

/**
 * Runs the command line on `argv` (as `process.argv`: the runtime and the script first) and succeeds
 * with the exit code. `--help` and `-h` print {@link Help} for what the words before them name; a
 * word that names nothing, a token on the command line, or anything the parser refuses is one line on
 * standard error (exit 2); `--log-level` may stand anywhere and applies to `serve` too; `serve …`
 * hands its words to the sandbox, and `mcp` runs the MCP server on standard input and output. Any
 * other failure is reported in one line as well.
 *
 * @since 0.1.0
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<number, unknown, CliApp.CliApp.Environment> =>
  Effect.gen(function*() {
    const taken = Global.takeLogLevel(hoistLogLevel(argv).slice(2))
    if (Either.isLeft(taken)) return yield* usageError(taken.left)
    const { level, rest: words } = taken.right
    const withLevel = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Option.match(level, { onNone: () => effect, onSome: (least) => Logger.withMinimumLogLevel(effect, least) })
    const token = Route.tokenOnCommandLine(words)
    if (token !== undefined) return yield* usageError(token)
    const resolved = Route.resolve(words)
    if (Either.isLeft(resolved)) return yield* usageError(resolved.left)
    const route = resolved.right
    if (Global.helpRequested(words) || route._tag === "Root" && words.length === 0 || route._tag === "Section") {
      // A section alone shows its methods, as the top level alone shows the commands.
      return yield* Effect.as(printHelp(route), ExitCode.kinds.success.code)
    }
    const flags = Global.flagWords(words)
    if (flags.includes("--version")) return yield* Effect.as(Console.log(version), ExitCode.kinds.success.code)
    if (flags.includes(wizardFlag) && !(yield* stdinIsTerminal)) return yield* usageError(wizardWithoutTerminal)
    if (flags.some((word) => handledByParser.includes(word))) {
      return yield* Effect.as(withLevel(cli(["node", Route.executable, ...words])), ExitCode.kinds.success.code)
    }
    if (route._tag === "Serve") return yield* withLevel(serve(words.slice(1)))
    if (route._tag === "Mcp") {
      const [extra] = words.filter((word) => word !== Route.mcpName)
      if (extra !== undefined) {
        return yield* usageError(
          new UsageError({
            reason: `${Route.mcpName} takes no word ${quote(extra)}: its settings are ` +
              `${Credentials.baseUrlVariable} and ${Credentials.tokenVariable} (${Route.executable} mcp --help)`
          })
        )
      }
      return yield* withLevel(Mcp.serve)
    }
    return yield* Effect.as(withLevel(parseAndRun(route, words)), ExitCode.kinds.success.code)
  }).pipe(
    Effect.catchAll((error) =>
      ValidationError.isValidationError(error)
        ? Effect.succeed(ExitCode.kinds.usage.code)
        : Effect.as(Console.error(Report.line(error)), ExitCode.ofError(error))
    ),
    Effect.catchAllCause((cause) => {
      // A setting the client refuses when it is made (a base URL that is no URL) is the user's to mend:
      // a usage error naming the variable, not an internal one.
      const refused = Option.filter(
        Cause.dieOption(cause),
        (defect): defect is InvalidConfig => defect instanceof InvalidConfig
      )
      return Option.isSome(refused)
        ? Effect.as(
          Console.error(Report.line(
            new UsageError({ reason: `${settingOf(refused.value.option)} is refused: ${refused.value.reason}` })
          )),
          ExitCode.kinds.usage.code
        )
        : Effect.as(
          Console.error(`${Report.prefix} internal error: ${Cause.pretty(cause).split("\n")[0]}`),
          ExitCode.kinds.internal.code
        )
    }),
    (effect) =>
      Effect.consoleWith((console) =>
        Effect.flatMap(terminals, (streams) => Effect.withConsole(effect, plainConsole(console, streams)))
      )
  )

/** The setting of the command line behind an option of the client's configuration. */
const settingOf = (option: string): string => option === "baseUrl" ? Credentials.baseUrlVariable : option

/**
 * Whether `argv` runs a server that runs until it is stopped: `serve` or `mcp`, not their help.
 */
const runsUntilStopped = (argv: ReadonlyArray<string>): boolean => {
  const taken = Global.takeLogLevel(hoistLogLevel(argv).slice(2))
  if (Either.isLeft(taken)) return false
  const words = taken.right.rest
  if (Global.helpRequested(words) || Global.flagWords(words).includes("--version")) return false
  const route = Route.resolve(words)
  return Either.isRight(route) && (route.right._tag === "Serve" || route.right._tag === "Mcp")
}

/**
 * The exit code of an interrupted program (Ctrl-C or SIGTERM, on which the executable's runtime
 * interrupts it): `serve` and `mcp` run until they are stopped, so that is their normal end, success;
 * any other command was cut short: {@link ExitCode.kinds}`.interrupted`.
 *
 * @since 0.1.0
 */
export const interruptedCode = (argv: ReadonlyArray<string>): number =>
  runsUntilStopped(argv) ? ExitCode.kinds.success.code : ExitCode.kinds.interrupted.code

/**
 * The exit code of the end of {@link main} on `argv`: its own when it ended, {@link interruptedCode}
 * when it was interrupted, and the internal error's for anything else (a defect it could not report).
 *
 * @since 0.1.0
 */
export const exitCode = (argv: ReadonlyArray<string>, exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return typeof exit.value === "number" ? exit.value : ExitCode.kinds.internal.code
  return Cause.isInterruptedOnly(exit.cause) ? interruptedCode(argv) : ExitCode.kinds.internal.code
}

/**
 * What an interrupted command says, once what it interrupted has been let go (the progress bar
 * erased): one line on standard error, in place of the `^C` a terminal echoed. `serve` and `mcp`
 * say nothing more here: being stopped is their normal end. The output written before is whole:
 * each piece of output is written in one go, between two steps where the interruption can fall.
 */
const sayInterrupted = (argv: ReadonlyArray<string>): Effect.Effect<void> =>
  runsUntilStopped(argv) ?
    Effect.void :
    Effect.flatMap(Stdio, ({ stderr }) =>
      Console.error(`${stderr.isTTY === true ? "\r" : ""}${Report.prefix} interrupted`))

/**
 * The program of the `community-api` executable on `argv` (as `process.argv`): the command line
 * ({@link run}), `serve` and `mcp` included. Succeeds with the exit code. It reads the environment
 * through `Config`, standard input and whether the streams are terminals through {@link Stdio}, and
 * writes through `Console`: each can be given by a program that runs it in process. Interrupted (the
 * executable's runtime interrupts it on Ctrl-C and SIGTERM), it says so unless it is a server, and
 * ends with {@link exitCode}'s code.
 *
 * @since 0.1.0
 */
export const main = (argv: ReadonlyArray<string>): Effect.Effect<number, unknown, CliApp.CliApp.Environment> =>
  Effect.onInterrupt(run(argv), () => sayInterrupted(argv))
