/**
 * The sandbox: the reference server on a port, with the demo fixture or a fixture file, a banner with
 * the demo tokens and a `curl` example, and one log line per request (never a token).
 *
 * ```sh
 * npx -y pnpm@10 start                              # http://127.0.0.1:8787/external-api/v2
 * npx -y pnpm@10 start -- --port 9000 --fixture my.json --faults '{"latency":{"fixed":300}}'
 * ```
 *
 * Flags: `--port N` (or `PORT`), `--host H`, `--fixture FILE`, `--faults JSON` (a `FaultSettings`),
 * `--latency MS`, `--control-token T` (or `COMMUNITY_API_SANDBOX_CONTROL_TOKEN`; the demo value
 * otherwise), `--headers-timeout MS`, `--body-timeout MS`, `--keep-alive-timeout MS`,
 * `--max-connections N`, `--quiet` (no request log). The command line's `community-api serve` runs
 * the same.
 *
 * @since 0.1.0
 */
import { HttpServer, type HttpServerError } from "@effect/platform"
import { Console, Effect, Layer, Redacted, Schema } from "effect"
import * as DemoFixture from "./DemoFixture.js"
import * as Faults from "./Faults.js"
import * as Fixture from "./Fixture.js"
import * as ReferenceServer from "./ReferenceServer.js"

/**
 * A command-line word the sandbox does not understand.
 *
 * @since 0.1.0
 */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", { message: Schema.String }) {}

/**
 * The environment variable that gives the control token when `--control-token` does not.
 *
 * @since 0.1.0
 */
export const controlTokenVariable = "COMMUNITY_API_SANDBOX_CONTROL_TOKEN"

/** The flags that take a value, and the option of `layerServe` each number goes to. */
const numberFlags = {
  "headers-timeout": "headersTimeout",
  "body-timeout": "bodyTimeout",
  "keep-alive-timeout": "keepAliveTimeout",
  "max-connections": "maxConnections"
} as const

type NumberFlag = keyof typeof numberFlags

/** The flags whose value is taken as it is written (the port and the latency are checked later). */
const textFlags = ["port", "host", "fixture", "faults", "latency", "control-token"] as const

const valueFlags: ReadonlySet<string> = new Set([...textFlags, ...Object.keys(numberFlags)])

const usage = `usage: start [--port N] [--host H] [--fixture FILE] [--faults JSON] [--latency MS] [--control-token T] ${
  Object.keys(numberFlags).map((flag) => `[--${flag} ${flag === "max-connections" ? "N" : "MS"}]`).join(" ")
} [--quiet]`

interface Args {
  readonly port: number
  readonly host: string
  readonly fixture: string | undefined
  readonly faults: string | undefined
  readonly latency: string | undefined
  /** Given by a flag or the environment; the demo value otherwise. */
  readonly controlToken: Redacted.Redacted<string> | undefined
  readonly limits: Partial<Record<(typeof numberFlags)[NumberFlag], number>>
  readonly quiet: boolean
}

const parseArgs = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Effect.Effect<Args, UsageError> =>
  Effect.suspend(() => {
    const values = new Map<string, string>()
    let quiet = false
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!
      if (arg === "--") continue
      if (arg === "--quiet") {
        quiet = true
        continue
      }
      const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
      if (match === null || !valueFlags.has(match[1]!)) {
        return Effect.fail(new UsageError({ message: `unknown argument ${arg}\n${usage}` }))
      }
      const value = match[2] ?? argv[++i]
      if (value === undefined) return Effect.fail(new UsageError({ message: `--${match[1]} needs a value\n${usage}` }))
      values.set(match[1]!, value)
    }
    const portText = values.get("port") ?? env.PORT ?? String(ReferenceServer.serveDefaults.port)
    const port = Number(portText)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      return Effect.fail(new UsageError({ message: `not a port: ${portText}` }))
    }
    const limits: Partial<Record<(typeof numberFlags)[NumberFlag], number>> = {}
    for (const [flag, option] of Object.entries(numberFlags)) {
      const text = values.get(flag)
      if (text === undefined) continue
      const value = Number(text)
      if (!Number.isSafeInteger(value) || value < 1) {
        return Effect.fail(new UsageError({ message: `--${flag} needs a positive whole number, not ${text}` }))
      }
      limits[option] = value
    }
    const controlToken = values.get("control-token") ?? env[controlTokenVariable]
    // It travels as `Authorization: Bearer <token>`: one word.
    if (controlToken !== undefined && !/^\S+$/.test(controlToken)) {
      return Effect.fail(new UsageError({ message: "the control token must be one word, with no spaces" }))
    }
    return Effect.succeed({
      port,
      host: values.get("host") ?? ReferenceServer.serveDefaults.host,
      fixture: values.get("fixture"),
      faults: values.get("faults"),
      latency: values.get("latency"),
      controlToken: controlToken === undefined ? undefined : Redacted.make(controlToken),
      limits,
      quiet
    })
  })

const faultsOf = (args: Args): Effect.Effect<Faults.FaultSettings, UsageError> =>
  Effect.gen(function*() {
    const json = args.faults === undefined ? {} : yield* Effect.try({
      try: () => JSON.parse(args.faults!) as unknown,
      catch: () => new UsageError({ message: "--faults is not JSON" })
    })
    const latency = args.latency === undefined ? {} : { latency: { fixed: Number(args.latency) } }
    return yield* Schema.decodeUnknown(Faults.FaultSettings)({ ...(json as object), ...latency }).pipe(
      Effect.mapError((error) => new UsageError({ message: `bad faults: ${error.message}` }))
    )
  })

const tokenTable = (): string => {
  const rows = Object.entries(DemoFixture.tokens)
  const width = Math.max(...rows.map(([role]) => role.length), 4)
  return [
    `  ${"role".padEnd(width)} | token`,
    `  ${"-".repeat(width)} | ${"-".repeat(36)}`,
    ...rows.map(([role, token]) => `  ${role.padEnd(width)} | ${token}`)
  ].join("\n")
}

const banner = (usesDemo: boolean, demoControl: boolean) =>
  HttpServer.addressWith((address) => {
    const base = address._tag === "TcpAddress"
      ? `http://${address.hostname}:${address.port}/external-api/v2`
      : `unix:${address.path}`
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
      "Ctrl-C stops the server."
    ]
    return Console.log(lines.join("\n"))
  })

const logLine = (entry: ReferenceServer.RequestLogEntry) =>
  // One line per request: path, outcome, time; never a token or a query string.
  console.log(`${new Date().toISOString()} ${entry.path} ${entry.outcome} ${entry.millis}ms`)

/**
 * Runs the sandbox with command-line words `argv` (flags only, no program name) until interrupted.
 * Fails with a message on a usage error or a bad fixture; the message is also written to stderr.
 *
 * @since 0.1.0
 */
export const run = (
  argv: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv = process.env
): Effect.Effect<never, UsageError | Fixture.FixtureError | HttpServerError.ServeError> =>
  Effect.gen(function*() {
    const args = yield* parseArgs(argv, env)
    const fixture = args.fixture === undefined ? DemoFixture.demoFixture : yield* Fixture.loadFile(args.fixture)
    const faults = yield* faultsOf(args)
    const serve = ReferenceServer.layerServe({
      port: args.port,
      host: args.host,
      fixture,
      faults,
      ...args.limits,
      ...(args.controlToken === undefined ? {} : { controlToken: args.controlToken }),
      ...(args.quiet ? {} : { onRequest: logLine })
    })
    return yield* Layer.launch(
      Layer.effectDiscard(banner(args.fixture === undefined, args.controlToken === undefined)).pipe(
        Layer.provideMerge(serve)
      )
    )
  }).pipe(Effect.tapError((error) => Console.error(error.message)))
