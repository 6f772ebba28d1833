/**
 * The sandbox: the reference server on a port, with the demo fixture or a fixture file, a banner with
 * the demo tokens and a `curl` example, and one log line per request (never a token).
 *
 * ```sh
 * npx -y pnpm@10 start                              # http://127.0.0.1:8787/external-api/v2
 * npx -y pnpm@10 start -- --port 9000 --fixture my.json --faults '{"latency":{"fixed":300}}'
 * npx -y pnpm@10 start -- --clock manual --clock-start 2026-01-01T00:00:00Z   # POST /_sandbox/clock turns it
 * npx -y pnpm@10 -s start -- --help                 # every flag, one a line
 * ```
 *
 * Its flags are {@link flags}. What stops it before it serves is one line: a usage error (and where
 * `--help` is), a fixture that cannot be read (the file and the cause, or its first bad field), or a
 * port that cannot be bound (`cannot listen on 127.0.0.1:8787: already in use`). The command line's
 * `community-api serve` runs the same.
 *
 * @since 0.1.0
 */
import * as CoreClock from "@community-api/core/Clock"
import type * as Drift from "@community-api/core/Drift"
import { HttpServer } from "@effect/platform"
import { Clock, Console, Effect, Either, Layer, Predicate, Redacted, Schema } from "effect"
import * as Fs from "node:fs"
import * as DemoFixture from "./DemoFixture.js"
import * as Faults from "./Faults.js"
import * as Fixture from "./Fixture.js"
import * as ClockRoutes from "./internal/clockRoutes.js"
import * as Issues from "./internal/issues.js"
import { plainCause } from "./internal/systemErrors.js"
import * as ReferenceServer from "./ReferenceServer.js"

/**
 * A command-line word the sandbox does not understand, or a value it refuses. Its message is the
 * problem on one line and, on a second, the usage with a pointer to `--help`.
 *
 * @since 0.1.0
 * @category errors
 */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", { message: Schema.String }) {}

/**
 * The port could not be bound: `reason` in plain words (`already in use`, `permission denied`, or
 * the system's code).
 *
 * @since 0.1.0
 * @category errors
 */
export class ListenError extends Schema.TaggedError<ListenError>()("ListenError", {
  host: Schema.String,
  port: Schema.Number,
  reason: Schema.String
}) {
  override get message() {
    // An IPv6 address is bracketed, as in a URL, so that the port stays apart from it.
    return `cannot listen on ${this.host.includes(":") ? `[${this.host}]` : this.host}:${this.port}: ${this.reason}`
  }
}

/**
 * What stops the sandbox before it serves.
 *
 * @since 0.1.0
 * @category errors
 */
export type RunError = UsageError | Fixture.FixtureError | ListenError

/**
 * The exit code of a sandbox that could not start ({@link RunError}): 2 for a usage error (as the command line's), 1
 * otherwise. Stopped by Ctrl-C, or after `--help`, it exits 0.
 *
 * @since 0.1.0
 * @category utils
 */
export const exitCode = (error: unknown): 1 | 2 => Predicate.isTagged(error, "UsageError") ? 2 : 1

/**
 * The name the sandbox's usage and help give it when {@link RunOptions} name no other.
 *
 * @since 0.1.0
 * @category constants
 */
export const executable = "community-api-sandbox"

/**
 * The environment variable that gives the control token when `--control-token` does not.
 *
 * @since 0.1.0
 * @category constants
 */
export const controlTokenVariable = "COMMUNITY_API_SANDBOX_CONTROL_TOKEN"

/**
 * A flag of the sandbox.
 *
 * @since 0.1.0
 * @category models
 */
export interface Flag {
  /** Without its dashes: `port`. */
  readonly name: string
  /** What its value is (`N`, `MS`, `FILE`, …); a switch has none. */
  readonly value?: string
  readonly description: string
}

const defaults = ReferenceServer.serveDefaults

/** The flags of `layerServe`'s bounds: a positive whole number each, given to the option named. */
const numberFlags = {
  "headers-timeout": "headersTimeout",
  "body-timeout": "bodyTimeout",
  "keep-alive-timeout": "keepAliveTimeout",
  "max-connections": "maxConnections"
} as const

/**
 * Every flag of the sandbox, in the order `--help` lists them. The parser knows no other.
 *
 * @since 0.1.0
 * @category constants
 */
export const flags: ReadonlyArray<Flag> = [
  { name: "port", value: "N", description: `the port (or PORT; default ${defaults.port}); 0 takes any free port` },
  { name: "host", value: "H", description: `the address to listen on (default ${defaults.host}: this machine only)` },
  { name: "fixture", value: "FILE", description: "the data to serve, a fixture JSON file (default: the demo data)" },
  { name: "faults", value: "JSON", description: "faults on from the start, as POST /_sandbox/faults takes them" },
  {
    name: "drift",
    value: "JSON",
    description: "answers altered by a declared drift, a JSON list of changes " +
      "(e.g. [{\"_tag\":\"Rename\",\"operation\":\"lists/get\",\"at\":\"response.items[].name\",\"to\":\"title\"}]; " +
      "Rename, Remove, Add, Set, ErrorCode), in the sandbox's world and its tenants"
  },
  {
    name: "answers",
    value: "FILE",
    description: "declared answers of undocumented reading operations the sandbox does not model, a JSON file " +
      "of responses by operation (e.g. {\"bots/getSteps\": [{\"id\": \"s1\", \"type\": \"text\"}]}), " +
      "answered instead of error 6, in the sandbox's world and its tenants"
  },
  { name: "latency", value: "MS", description: "a fixed delay before every answer, in milliseconds" },
  {
    name: "control-token",
    value: "T",
    description: `the token of /_sandbox/ (or ${controlTokenVariable}; default: the demo one)`
  },
  {
    name: "clock",
    value: "real|manual",
    description: "the sandbox's time: real (default), or manual: it moves only by POST /_sandbox/clock"
  },
  {
    name: "clock-start",
    value: "INSTANT",
    description: "with --clock manual, the time it starts at (2026-01-01T00:00:00Z or unix ms; default: now)"
  },
  {
    name: "rate-clock",
    value: "real|manual",
    description: "the clock of the per-second rate and the latency: real (default), or manual: the sandbox's"
  },
  {
    name: "headers-timeout",
    value: "MS",
    description: `how long a connection may take to send a request's headers (default ${defaults.headersTimeout})`
  },
  {
    name: "body-timeout",
    value: "MS",
    description: `how long a request may take to arrive whole (default ${defaults.bodyTimeout})`
  },
  {
    name: "keep-alive-timeout",
    value: "MS",
    description: `how long a connection may stay idle between requests (default ${defaults.keepAliveTimeout})`
  },
  {
    name: "max-connections",
    value: "N",
    description: `the most connections open at once (default ${defaults.maxConnections})`
  },
  { name: "quiet", description: "no request log" },
  { name: "help", description: "this help" }
]

const flagByName: ReadonlyMap<string, Flag> = new Map(flags.map((flag) => [flag.name, flag]))

/** `--port N`, `-h, --help`: the left column of the help. */
const flagLabel = (flag: Flag) =>
  `${flag.name === "help" ? "-h, " : ""}--${flag.name}${flag.value === undefined ? "" : ` ${flag.value}`}`

/**
 * The text of `--help`: what the sandbox is, its usage under `command`, and every flag on a line.
 *
 * @since 0.1.0
 * @category utils
 */
export const help = (command: string = executable): string => {
  const width = Math.max(...flags.map((flag) => flagLabel(flag).length))
  return [
    `${command}: the community API's reference server on a port, with the demo data or a fixture.`,
    "",
    `usage: ${command} [flags]`,
    "",
    ...flags.map((flag) => `  ${flagLabel(flag).padEnd(width)}  ${flag.description}`),
    "",
    "Ctrl-C stops it."
  ].join("\n")
}

/**
 * Options of {@link run}.
 *
 * @since 0.1.0
 * @category options
 */
export interface RunOptions {
  /** The name the usage and the help give the command: {@link executable} by default. */
  readonly command?: string
}

interface Args {
  readonly port: number
  readonly host: string
  readonly fixture: string | undefined
  readonly faults: string | undefined
  readonly drift: string | undefined
  readonly answers: string | undefined
  readonly latency: number | undefined
  /** Given by a flag or the environment; the demo value otherwise. */
  readonly controlToken: Redacted.Redacted<string> | undefined
  readonly limits: Partial<Record<(typeof numberFlags)[keyof typeof numberFlags], number>>
  readonly quiet: boolean
  /** `--clock manual`: the instant it starts at (`undefined`: the time at start); `undefined` on the real clock. */
  readonly manualClock: { readonly start: number | undefined; readonly rate: "real" | "manual" } | undefined
}

/** A usage error: the problem, then the usage and where the flags are listed. */
const refuse = (command: string, problem: string) =>
  Effect.fail(new UsageError({ message: `${problem}\nusage: ${command} [flags] (--help lists them)` }))

/** The words of the command line as {@link Args}, or `"help"` when `--help` or `-h` comes first. */
const parseArgs = (
  argv: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  command: string
): Effect.Effect<Args | "help", UsageError> =>
  Effect.suspend((): Effect.Effect<Args | "help", UsageError> => {
    const values = new Map<string, string>()
    let quiet = false
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!
      // `pnpm start -- --port 9000` passes the `--` on.
      if (arg === "--") continue
      if (arg === "-h" || arg === "--help") return Effect.succeed("help")
      if (arg === "--quiet") {
        quiet = true
        continue
      }
      const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
      const flag = match === null ? undefined : flagByName.get(match[1]!)
      if (flag?.value === undefined) return refuse(command, `unknown argument ${arg}`)
      const value = match![2] ?? argv[++i]
      if (value === undefined) return refuse(command, `--${flag.name} needs a value (${flag.value})`)
      values.set(flag.name, value)
    }
    const portFrom = !values.has("port") && env.PORT !== undefined ? "PORT" : "--port"
    const portText = values.get("port") ?? env.PORT ?? String(defaults.port)
    const port = Number(portText)
    if (portText.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
      return refuse(command, `${portFrom} needs a port from 0 to 65535 (0: any free port), not ${portText}`)
    }
    const limits: Args["limits"] = {}
    for (const [flag, option] of Object.entries(numberFlags)) {
      const text = values.get(flag)
      if (text === undefined) continue
      const value = Number(text)
      if (!Number.isSafeInteger(value) || value < 1) {
        return refuse(command, `--${flag} needs a positive whole number, not ${text}`)
      }
      limits[option] = value
    }
    const latencyText = values.get("latency")
    const latency = latencyText === undefined ? undefined : Number(latencyText)
    if (latency !== undefined && (latencyText!.trim() === "" || !Number.isSafeInteger(latency) || latency < 0)) {
      return refuse(command, `--latency needs a whole number of milliseconds, 0 or more, not ${latencyText}`)
    }
    const controlToken = values.get("control-token") ?? env[controlTokenVariable]
    // It travels as `Authorization: Bearer <token>`: one word.
    if (controlToken !== undefined && !/^\S+$/.test(controlToken)) {
      return refuse(command, "the control token must be one word, with no spaces")
    }
    const clock = values.get("clock") ?? "real"
    const rateClock = values.get("rate-clock") ?? "real"
    for (const [flag, mode] of [["clock", clock], ["rate-clock", rateClock]] as const) {
      if (mode !== "real" && mode !== "manual") return refuse(command, `--${flag} needs real or manual, not ${mode}`)
    }
    const startText = values.get("clock-start")
    if (clock !== "manual" && (startText !== undefined || rateClock === "manual")) {
      return refuse(command, `--${startText !== undefined ? "clock-start" : "rate-clock manual"} needs --clock manual`)
    }
    const start = startText === undefined ? undefined : ClockRoutes.parseInstant(startText)
    if (startText !== undefined && start === undefined) {
      return refuse(command, `--clock-start needs ${ClockRoutes.instantExpected}, not ${startText}`)
    }
    return Effect.succeed({
      port,
      host: values.get("host") ?? defaults.host,
      fixture: values.get("fixture"),
      faults: values.get("faults"),
      drift: values.get("drift"),
      answers: values.get("answers"),
      latency,
      controlToken: controlToken === undefined ? undefined : Redacted.make(controlToken),
      limits,
      quiet,
      manualClock: clock === "manual" ? { start, rate: rateClock === "manual" ? "manual" : "real" } : undefined
    })
  })

/** The fault settings of `--faults` and `--latency`, checked as `POST /_sandbox/faults` checks a body. */
const faultsOf = (args: Args, command: string): Effect.Effect<Faults.FaultSettings, UsageError> =>
  Effect.gen(function*() {
    const json = args.faults === undefined ? {} : yield* Effect.try({
      try: () => JSON.parse(args.faults!) as unknown,
      catch: (cause) => cause
    }).pipe(Effect.catchAll((cause) => refuse(command, `--faults is not JSON: ${plainCause(cause)}`)))
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return yield* refuse(command, "--faults needs a JSON object, as POST /_sandbox/faults takes")
    }
    const latency = args.latency === undefined ? {} : { latency: { fixed: args.latency } }
    return yield* Schema.decodeUnknown(Faults.FaultSettings)({ ...json, ...latency }, { onExcessProperty: "error" })
      .pipe(Effect.catchAll((error) => refuse(command, `--faults: ${Issues.describe(error)}`)))
  })

/** The declared drift of `--drift`, if any. */
const driftOf = (args: Args, command: string): Effect.Effect<Drift.Drift | undefined, UsageError> =>
  args.drift === undefined ? Effect.succeed(undefined) : Effect.try({
    try: () => JSON.parse(args.drift!) as unknown,
    catch: (cause) => cause
  }).pipe(
    Effect.catchAll((cause) => refuse(command, `--drift is not JSON: ${plainCause(cause)}`)),
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Faults.DriftSettings)(json, { onExcessProperty: "error" }).pipe(
        Effect.catchAll((error) => refuse(command, `--drift: ${Issues.describe(error)}`))
      )
    )
  )

/** The declared answers of `--answers FILE`, if any, checked as the server checks them. */
const answersOf = (
  args: Args,
  command: string
): Effect.Effect<Faults.UndocumentedAnswers | undefined, UsageError> =>
  args.answers === undefined ? Effect.succeed(undefined) : Effect.try({
    try: () => JSON.parse(Fs.readFileSync(args.answers!, "utf8")) as unknown,
    catch: (cause) => cause
  }).pipe(
    Effect.catchAll((cause) => refuse(command, `--answers ${args.answers}: ${plainCause(cause)}`)),
    Effect.flatMap((json) =>
      Schema.decodeUnknown(Faults.UndocumentedAnswersSettings)(json).pipe(
        Effect.catchAll((error) => refuse(command, `--answers: ${Issues.describe(error)}`))
      )
    ),
    Effect.tap((answers) =>
      Either.match(ReferenceServer.checkUndocumentedAnswers(answers), {
        onLeft: (error) => refuse(command, `--answers: ${error.message}`),
        onRight: () => Effect.void
      })
    )
  )

const tokenTable = (): string => {
  const rows = Object.entries(DemoFixture.tokens)
  const width = Math.max(...rows.map(([role]) => role.length), 4)
  return [
    `  ${"role".padEnd(width)} | token`,
    `  ${"-".repeat(width)} | ${"-".repeat(36)}`,
    ...rows.map(([role, token]) => `  ${role.padEnd(width)} | ${token}`)
  ].join("\n")
}

/**
 * The server's clocks of `--clock manual` and the banner's lines about them; none on the real clock.
 * The request's pace (the per-second rate, the latency) stays on the real time unless
 * `--rate-clock manual`, so that clients which pace on the real time keep working.
 */
const clocksOf = (setting: Args["manualClock"]) =>
  Effect.map(Clock.currentTimeMillis, (now): {
    readonly options: Pick<ReferenceServer.Options, "clock" | "rateClock">
    readonly lines: ReadonlyArray<string>
  } => {
    if (setting === undefined) return { options: {}, lines: [] }
    const clock = CoreClock.manual(setting.start ?? now)
    return {
      options: setting.rate === "manual" ? { clock } : { clock, rateClock: CoreClock.system },
      lines: [
        `Clock: manual, at ${new Date(clock.now()).toISOString()}, the per-second rate on the ${
          setting.rate === "manual" ? "same clock" : "real time"
        };`,
        `  POST /_sandbox/clock {"advance": <ms>} or {"set": "<instant>"} moves it, GET tells it (control token too).`
      ]
    }
  })

const banner = (usesDemo: boolean, demoControl: boolean, clock: ReadonlyArray<string>) =>
  HttpServer.addressWith((address) => {
    const base = address._tag === "TcpAddress"
      ? `http://${address.hostname}:${address.port}/external-api/v2`
      : `unix:${address.path}`
    // The page reads the same control routes; over a port only, as a browser cannot open a socket file.
    const page = address._tag === "TcpAddress" ? `http://${address.hostname}:${address.port}/_sandbox/` : undefined
    const lines = [
      `Reference server of the community API: ${base}`,
      "",
      usesDemo ? `Demo tokens:\n${tokenTable()}` : "Tokens: those of your fixture.",
      "",
      "Try:",
      `  curl -X POST -H "Authorization: Bearer ${usesDemo ? DemoFixture.tokens.owner : "<token>"}" ${base}/users/me`,
      "",
      "Faults: POST /_sandbox/faults with a FaultSettings body ({} turns them off); POST /_sandbox/reset;",
      // A token given by the one who started the sandbox is theirs: it is not printed.
      demoControl
        ? `  both with "Authorization: Bearer ${ReferenceServer.demoControlToken}" (the demo control token).`
        : `  both with "Authorization: Bearer <the control token given by --control-token or ${controlTokenVariable}>".`,
      ...(page === undefined ? [] : [`Page: ${page} (the journal, the limits, the clock, the faults; same token).`]),
      ...clock,
      "Ctrl-C stops the server."
    ]
    return Console.log(lines.join("\n"))
  })

const logLine = (entry: ReferenceServer.RequestLogEntry) =>
  // One line per request: path, outcome, time; never a token or a query string.
  console.log(`${new Date().toISOString()} ${entry.path} ${entry.outcome} ${entry.millis}ms`)

/**
 * The line printed when Ctrl-C stops the sandbox; on a terminal it takes the place of the `^C` echoed.
 *
 * @since 0.1.0
 * @category utils
 */
export const stoppedLine = (terminal: boolean): string => `${terminal ? "\r" : ""}Sandbox stopped.`

/**
 * Runs the sandbox with command-line words `argv` (flags only, no program name) until interrupted;
 * with `--help` or `-h` it prints {@link help} and ends. It fails, writing nothing, with a
 * {@link RunError} whose message is what to print: a usage error, a fixture that cannot be read, a
 * port that cannot be bound ({@link exitCode} gives the exit code).
 *
 * @example
 * ```ts
 * import { Sandbox } from "@community-api/server"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // What the `community-api-sandbox` program runs: here `--help`, which prints the flags and ends, and a
 * // flag it does not know, which fails with the message to print and the exit code.
 * await Effect.runPromise(Sandbox.run(["--help"]))
 * const error = await Effect.runPromise(Effect.flip(Sandbox.run(["--no-such-flag"])))
 * strictEqual(Sandbox.exitCode(error), 2)
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const run = (
  argv: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv = process.env,
  options: RunOptions = {}
): Effect.Effect<void, RunError> =>
  Effect.gen(function*() {
    const command = options.command ?? executable
    const args = yield* parseArgs(argv, env, command)
    if (args === "help") return yield* Console.log(help(command))
    const faults = yield* faultsOf(args, command)
    const drift = yield* driftOf(args, command)
    const undocumentedAnswers = yield* answersOf(args, command)
    const fixture = args.fixture === undefined ? DemoFixture.demoFixture : yield* Fixture.loadFile(args.fixture)
    const clocks = yield* clocksOf(args.manualClock)
    const serve = ReferenceServer.layerServe({
      port: args.port,
      host: args.host,
      fixture,
      faults,
      ...(drift === undefined ? {} : { drift }),
      ...(undocumentedAnswers === undefined ? {} : { undocumentedAnswers }),
      ...args.limits,
      ...clocks.options,
      ...(args.controlToken === undefined ? {} : { controlToken: args.controlToken }),
      ...(args.quiet ? {} : { onRequest: logLine })
    })
    return yield* Layer.launch(
      Layer.effectDiscard(banner(args.fixture === undefined, args.controlToken === undefined, clocks.lines)).pipe(
        Layer.provideMerge(serve)
      )
    ).pipe(
      Effect.catchTag("ServeError", (error) =>
        Effect.fail(new ListenError({ host: args.host, port: args.port, reason: plainCause(error.cause) })))
    )
  })
