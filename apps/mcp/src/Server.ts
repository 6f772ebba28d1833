/**
 * The MCP server: the official SDK's protocol (`Server`, its low-level class: the tools' schemas here
 * are JSON Schema derived from the contract, where its high-level `McpServer` wants Zod) over this
 * package's {@link LineTransport} on standard input and output, with every tool of {@link Tools} run
 * on the client of {@link Session} in one runtime for the process, and instructions that say where the
 * calls go.
 *
 * A tool call runs as a fiber of that runtime, interrupted when the request is cancelled
 * (`notifications/cancelled`) or the transport closes: the SDK then sends no reply for it.
 *
 * @since 0.1.0
 */
import * as ClientError from "@community-api/client/ClientError"
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Target from "@community-api/client/Target"
import { Limits, Operation } from "@community-api/schema"
import { Server as ProtocolServer } from "@modelcontextprotocol/sdk/server/index.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Exit, Layer, Logger, ManagedRuntime, Option } from "effect"
import manifest from "../package.json" with { type: "json" }
import * as Compact from "./Compact.js"
import * as Credentials from "./Credentials.js"
import * as Handlers from "./Handlers.js"
import { LineTransport, type Output } from "./LineTransport.js"
import * as Options from "./Options.js"
import * as Session from "./Session.js"
import * as Surface from "./Surface.js"
import * as Tools from "./Tools.js"

/**
 * The name of the executable, and of the server in `initialize`.
 *
 * @since 0.1.0
 */
export const name = "community-api-mcp"

/**
 * The version in `initialize`: the package's own, as Changesets sets it at each release (read from the
 * manifest when the program is bundled, never written a second time).
 *
 * @since 0.1.0
 */
export const version: string = manifest.version

/**
 * The prefix of every line the server writes about itself on standard error.
 *
 * @since 0.1.0
 */
export const prefix = `${name}:`

/**
 * Where the calls go, for the instructions and standard error.
 *
 * @since 0.1.0
 */
export const describeTarget = (target: Credentials.Target): string =>
  target._tag === "Remote"
    ? `The calls go to the API at ${target.baseUrl} with the token of ${Credentials.tokenVariable}.`
    : `No ${Credentials.baseUrlVariable} is set, so the calls go to an embedded sandbox with demo data: a coffee ` +
      `shop's communities, bots, mailings, lists and variables, in this process's memory. Nothing real is read or ` +
      `changed, and changes last until the server stops. The calls are made ` +
      (Option.isSome(target.token) ? `with the token of ${Credentials.tokenVariable}.` : "as the demo owner.") +
      ` Set ${Credentials.baseUrlVariable} and ${Credentials.tokenVariable} to reach a real account.`

/**
 * The server's instructions, sent in the answer to `initialize`: what the tools left by the flags
 * (`tools`, from {@link Surface.select}) reach, how to start, paging and limits; under `compact`, how
 * the three tools reach them.
 *
 * @since 0.1.0
 */
export const instructions = (
  target: Credentials.Target,
  tools: ReadonlyArray<Tools.Tool> = Tools.all,
  compact = false
): string => {
  const names = tools.map((tool) => tool.definition.name)
  const lists = tools.flatMap((tool) =>
    tool._tag === "Operation" && Operation.isPageable(tool.op) ? [tool.definition.name] : []
  )
  const reads = tools.every((tool) => tool.definition.annotations?.readOnlyHint === true)
  const hasCall = names.includes(Tools.callName)
  const hasLimits = names.includes(Tools.limitsTool.definition.name)
  const start = names.includes("groups_get") ? " Start with groups_get." : ""
  return [
    "Tools over a community automation service's API (v2): communities, bots, mailings, subscriber lists,",
    "contacts and variables.",
    compact
      ? `The operations (${names.length}) are reached through three tools: ${Compact.findName} finds them by words, ` +
        `${Compact.describeName} gives one's input and output schemas, access and limits, and ${Compact.callName} ` +
        `calls one by its tool name with arguments that fit its input schema. Find, describe, then call.`
      : `One tool per documented operation, named section_method${
        hasCall ? `, and ${Tools.callName} for the operations the API lists without documenting their parameters` : ""
      }.`,
    reads ? "Only operations that read are offered here." : "",
    `A community is named by group_id with channel.${start}`,
    lists.length === 0 ? "" : `List tools (${lists.join(", ")}) take count and offset and report total; all: true ` +
      "gathers every page, up to the answer's size budget; next_offset then says where to go on.",
    `Calls are paced under ${Limits.requestsPerWindow} requests a second; creations count against`,
    `${Limits.creationsPerMinute} a minute and ${Limits.creationsPerDay} a day.`,
    hasLimits
      ? `${Tools.limitsTool.definition.name} tells how much of both is left and when it comes back, and whether a ` +
        "number of creations fit by an instant: ask it before a batch."
      : "",
    "A failure is a tool error with its type, the API's code and Russian text, and advice; a limit's error says",
    "how long to wait (retry_after_ms).",
    describeTarget(target)
  ].filter((part) => part !== "").join(" ")
}

/**
 * Log lines go to standard error: standard output carries the protocol alone.
 *
 * @since 0.1.0
 */
export const stderrLogger: Layer.Layer<never> = Logger.replace(
  Logger.defaultLogger,
  Logger.withLeveledConsole(Logger.logfmtLogger).pipe(Logger.withConsoleError)
)

/**
 * Runs a tool with its arguments; `signal` interrupts it (the reply is then never sent).
 *
 * @since 0.1.0
 */
export type RunTool = (
  tool: Surface.Offered,
  args: Handlers.Arguments,
  signal: AbortSignal
) => Promise<Mcp.CallToolResult>

/**
 * A protocol server with the tools: `tools/list` answers their definitions, `tools/call` runs the one
 * named. One is made per connection (the SDK's protocol serves one transport).
 *
 * @since 0.1.0
 */
export const make = (options: {
  readonly tools: ReadonlyArray<Surface.Offered>
  readonly instructions: string
  readonly run: RunTool
}): ProtocolServer => {
  const server = new ProtocolServer(
    { name, version },
    { capabilities: { tools: { listChanged: false } }, instructions: options.instructions }
  )
  const definitions = options.tools.map((tool) => tool.definition)
  const byName = new Map(options.tools.map((tool) => [tool.definition.name, tool]))
  server.setRequestHandler(Mcp.ListToolsRequestSchema, () => ({ tools: definitions }))
  server.setRequestHandler(Mcp.CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined) {
      throw new Mcp.McpError(
        Mcp.ErrorCode.InvalidParams,
        `no tool ${JSON.stringify(request.params.name).slice(0, 80)}: tools/list names them`
      )
    }
    return options.run(tool, request.params.arguments ?? {}, extra.signal)
  })
  return server
}

/**
 * The client's runtime for the process: every connection's calls share its pacing and creation quota.
 *
 * @since 0.1.0
 */
export const runtime = (target: Credentials.Target) =>
  ManagedRuntime.make(Layer.merge(Session.layer(target), stderrLogger))

/**
 * A {@link RunTool} on a runtime of the client.
 *
 * @since 0.1.0
 */
export const runOn = (
  clientRuntime: ManagedRuntime.ManagedRuntime<CommunityApiClient.CommunityApiClient, unknown>,
  settings: Handlers.Settings
): RunTool =>
(tool, args, signal) =>
  clientRuntime.runPromise(
    Effect.flatMap(CommunityApiClient.CommunityApiClient, (client) => tool.run(client, args, settings)),
    { signal }
  )

/**
 * Standard input and output, as the server reads and writes them.
 *
 * @since 0.1.0
 */
export interface Stdio {
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: Output
  readonly stderr: { readonly write: (text: string) => unknown }
}

/** Waits for a transport's end, when the peer closed its input or the server its transport. */
const closed = (server: ProtocolServer) =>
  new Promise<void>((resolve) => {
    server.onclose = () => resolve()
  })

/** How long the end waits for the runtime to let go of what it holds (sockets, Redis). */
const disposeWithin = 500

/** The variable behind an option of the client's configuration, as a refusal names it. */
const settingOf = (option: string): string => option === "baseUrl" ? Credentials.baseUrlVariable : option

/**
 * Runs the server on `stdio` with the target of the environment until standard input ends. Resolves
 * with the exit code: 0 when the client closed standard input, 2 when the tool flags name a toolset
 * or tool that does not exist or leave no tool, or the environment names a base URL without a token,
 * 1 when the client cannot be made (one line on standard error, never a token).
 *
 * @since 0.1.0
 */
export const run = async (
  stdio: Stdio,
  options: Options.Options = Options.defaults,
  transport?: Transport
): Promise<number> => {
  // The tools are chosen once, before anything starts: a toolset or tool that does not exist is a usage error.
  let selected: ReadonlyArray<Tools.Tool>
  try {
    selected = Surface.select(options.surface)
  } catch (error) {
    if (!(error instanceof Options.UsageError)) throw error
    stdio.stderr.write(`${prefix} ${error.message}\n`)
    return 2
  }
  // Over HTTP, a secret that cannot be used is told before anything else is said or started.
  const http = options.transport._tag === "Http" ? options.transport : undefined
  const Http = http === undefined ? undefined : await import("./Http.js")
  const refused = http === undefined ? undefined : Http?.refusal(http.host)
  if (refused !== undefined) {
    stdio.stderr.write(`${prefix} ${refused}\n`)
    return 2
  }
  const resolved = Effect.runSync(Effect.either(Credentials.resolve))
  if (resolved._tag === "Left") {
    stdio.stderr.write(`${prefix} ${resolved.left.message}\n`)
    return 2
  }
  const target = resolved.right
  if (target._tag === "Embedded") stdio.stderr.write(`${prefix} ${describeTarget(target)}\n`)
  const clientRuntime = runtime(target)
  // Built before the first message, so a limiter that cannot start is said at once.
  const built = await clientRuntime.runPromiseExit(CommunityApiClient.CommunityApiClient)
  if (Exit.isFailure(built)) {
    // A setting the client refuses when it is made (a base URL with no path) is the user's to mend: one
    // line naming the variable, exit 2, as the command line says it; anything else cannot start (1).
    const refused = Option.filter(
      Cause.dieOption(built.cause),
      (defect): defect is ClientError.InvalidConfig => defect instanceof ClientError.InvalidConfig
    )
    stdio.stderr.write(
      Option.isSome(refused)
        ? `${prefix} ${settingOf(refused.value.option)} is refused: ${refused.value.reason}\n`
        : `${prefix} cannot start: ${Cause.pretty(built.cause).split("\n")[0]}\n`
    )
    await clientRuntime.dispose()
    return Option.isSome(refused) ? 2 : 1
  }
  const offered = Surface.offeredOf(selected, options.surface.compact)
  const told = instructions(target, selected, options.surface.compact)
  const makeServer = () =>
    make({
      tools: offered,
      instructions: told,
      run: runOn(clientRuntime, { budget: options.budget, limiters: Target.limitersOf(target) })
    })
  if (Http !== undefined && http !== undefined) {
    const say = (line: string) => stdio.stderr.write(`${prefix} ${line}\n`)
    const code = await Http.serve({ ...http, makeServer, say })
    await Promise.race([clientRuntime.dispose(), new Promise((resolve) => setTimeout(resolve, disposeWithin).unref())])
    return code
  }
  const server = makeServer()
  const ended = closed(server)
  await server.connect(transport ?? new LineTransport({ input: stdio.stdin, output: stdio.stdout }))
  await ended
  await Promise.race([clientRuntime.dispose(), new Promise((resolve) => setTimeout(resolve, disposeWithin).unref())])
  return 0
}
