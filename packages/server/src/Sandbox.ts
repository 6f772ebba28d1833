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
 * `--latency MS`, `--quiet` (no request log). The command line's `community-api serve` runs the same.
 *
 * @since 0.1.0
 */
import { HttpServer, type HttpServerError } from "@effect/platform"
import { Console, Effect, Layer, Schema } from "effect"
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

const usage = "usage: start [--port N] [--host H] [--fixture FILE] [--faults JSON] [--latency MS] [--quiet]"

interface Args {
  readonly port: number
  readonly host: string
  readonly fixture: string | undefined
  readonly faults: string | undefined
  readonly latency: string | undefined
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
      const match = /^--(port|host|fixture|faults|latency)(?:=(.*))?$/.exec(arg)
      if (match === null) return Effect.fail(new UsageError({ message: `unknown argument ${arg}\n${usage}` }))
      const value = match[2] ?? argv[++i]
      if (value === undefined) return Effect.fail(new UsageError({ message: `--${match[1]} needs a value\n${usage}` }))
      values.set(match[1]!, value)
    }
    const portText = values.get("port") ?? env.PORT ?? "8787"
    const port = Number(portText)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      return Effect.fail(new UsageError({ message: `not a port: ${portText}` }))
    }
    return Effect.succeed({
      port,
      host: values.get("host") ?? "127.0.0.1",
      fixture: values.get("fixture"),
      faults: values.get("faults"),
      latency: values.get("latency"),
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

const banner = (usesDemo: boolean) =>
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
      "Faults: POST /_sandbox/faults with a FaultSettings body ({} turns them off); POST /_sandbox/reset.",
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
      ...(args.quiet ? {} : { onRequest: logLine })
    })
    return yield* Layer.launch(Layer.effectDiscard(banner(args.fixture === undefined)).pipe(Layer.provideMerge(serve)))
  }).pipe(Effect.tapError((error) => Console.error(error.message)))
