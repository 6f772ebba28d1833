/**
 * The MCP server: `@effect/ai`'s `McpServer` over standard input and output (newline-delimited
 * JSON-RPC), with every tool of {@link Tools} registered on the client of {@link Session}, and
 * instructions that say where the calls go.
 *
 * Tools are registered with `McpServer.addTool` rather than through a `Toolkit`: a toolkit derives the
 * input schema from a Schema's encoded side and answers with the whole result as JSON text, where
 * these tools give the contract's JSON Schema (inlined), structured content with one line of text, and
 * tool errors with advice. `McpServer` sends no `instructions` in its answer to `initialize`; they are
 * added to that answer on its way out (see {@link withInstructions}).
 *
 * @since 0.1.0
 */
import type * as ClientError from "@community-api/client/ClientError"
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import { Limits, Operation } from "@community-api/schema"
import * as McpServer from "@effect/ai/McpServer"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import * as RpcServer from "@effect/rpc/RpcServer"
import { Cause, Console, Effect, Exit, Fiber, Layer, Logger, Option, Predicate } from "effect"
import type { Sink, Stream } from "effect"
import * as Credentials from "./Credentials.js"
import * as Handlers from "./Handlers.js"
import * as Session from "./Session.js"
import * as Tools from "./Tools.js"

/**
 * The name of the executable, and of the server in `initialize`.
 *
 * @since 0.1.0
 */
export const name = "community-api-mcp"

/**
 * The version in `initialize`.
 *
 * @since 0.1.0
 */
export const version = "0.1.0"

/**
 * The prefix of every line the server writes about itself on standard error.
 *
 * @since 0.1.0
 */
export const prefix = `${name}:`

const listTools = Tools.all.flatMap((tool) =>
  tool._tag === "Operation" && Operation.isPageable(tool.op) ? [tool.definition.name] : []
)

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
 * The server's instructions, sent in the answer to `initialize`.
 *
 * @since 0.1.0
 */
export const instructions = (target: Credentials.Target): string =>
  [
    "Tools over a community automation service's API (v2): communities (groups_get), bots (enable, disable),",
    "mailings, subscriber lists, contacts and variables. One tool per documented operation, named section_method,",
    `and ${Tools.callName} for the operations the API lists without documenting their parameters.`,
    "A community is named by group_id with channel; start with groups_get.",
    `List tools (${listTools.join(", ")}) take count and offset and report total; all: true gathers every page,`,
    `up to ${Tools.allCap} items. Calls are paced under ${Limits.requestsPerWindow} requests a second; creations`,
    `count against ${Limits.creationsPerMinute} a minute and ${Limits.creationsPerDay} a day. A failure is a tool`,
    "error with its type, the API's code and Russian text, and advice.",
    describeTarget(target)
  ].join(" ")

const isInitializeResult = (value: unknown): value is Record<string, unknown> =>
  Predicate.hasProperty(value, "protocolVersion") && Predicate.hasProperty(value, "serverInfo") &&
  Predicate.hasProperty(value, "capabilities")

/**
 * A protocol whose answer to `initialize` carries `instructions`: the smallest change that gives them,
 * since `McpServer` builds that answer without them. Only that answer has a protocol version, server
 * information and capabilities together.
 *
 * @since 0.1.0
 */
export const withInstructions = (text: string) => (protocol: RpcServer.Protocol["Type"]): RpcServer.Protocol["Type"] =>
  RpcServer.Protocol.of({
    ...protocol,
    send: (clientId, response, transferables) =>
      protocol.send(
        clientId,
        response._tag === "Exit" && response.exit._tag === "Success" && isInitializeResult(response.exit.value)
          ? { ...response, exit: { ...response.exit, value: { ...response.exit.value, instructions: text } } }
          : response,
        transferables
      )
  })

/**
 * Standard input and output, as the server reads and writes them.
 *
 * @since 0.1.0
 */
export interface Stdio {
  readonly stdin: Stream.Stream<Uint8Array, unknown>
  readonly stdout: Sink.Sink<void, Uint8Array | string, unknown, unknown>
}

/**
 * `McpServer.layerStdio` with instructions: newline-delimited JSON-RPC over `stdio`.
 *
 * @since 0.1.0
 */
export const layerStdio = (stdio: Stdio, text: string): Layer.Layer<McpServer.McpServer> =>
  McpServer.layer({ name, version }).pipe(
    Layer.provide(
      Layer.effect(RpcServer.Protocol, Effect.map(RpcServer.Protocol, withInstructions(text))).pipe(
        Layer.provide(RpcServer.layerProtocolStdio(stdio))
      )
    ),
    Layer.provide(RpcSerialization.layerNdJsonRpc())
  )

/**
 * Registers every tool on the server, each calling through the client.
 *
 * @since 0.1.0
 */
export const layerTools: Layer.Layer<never, never, McpServer.McpServer | CommunityApiClient.CommunityApiClient> = Layer
  .effectDiscard(
    Effect.gen(function*() {
      const server = yield* McpServer.McpServer
      const client = yield* CommunityApiClient.CommunityApiClient
      for (const tool of Tools.all) {
        yield* server.addTool({ tool: tool.definition, handle: (args) => Handlers.run(client, tool, args ?? {}) })
      }
    })
  )

/**
 * The whole server for a target.
 *
 * @since 0.1.0
 */
export const layer = (target: Credentials.Target, stdio: Stdio): Layer.Layer<never, ClientError.LimiterUnavailable> =>
  layerTools.pipe(
    Layer.provide(layerStdio(stdio, instructions(target))),
    Layer.provide(Session.layer(target))
  )

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
 * Runs the server on `stdio` with the target of the environment until standard input ends. Succeeds
 * with the exit code: 0 when the client closed standard input, 2 when the environment names a base
 * URL without a token, 1 on any other failure (one line on standard error, never a token).
 *
 * @since 0.1.0
 */
export const run = (stdio: Stdio): Effect.Effect<number> =>
  Effect.gen(function*() {
    const resolved = yield* Effect.either(Credentials.resolve)
    if (resolved._tag === "Left") {
      yield* Console.error(`${prefix} ${resolved.left.message}`)
      return 2
    }
    const target = resolved.right
    if (target._tag === "Embedded") yield* Console.error(`${prefix} ${describeTarget(target)}`)
    // The stdio protocol interrupts the fiber that built it when standard input ends: that is how the
    // server stops, so it runs in a fiber of its own whose interruption is the normal end.
    const fiber = yield* Effect.fork(Layer.launch(layer(target, stdio)))
    const exit = yield* Fiber.await(fiber)
    if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return 0
    yield* Console.error(`${prefix} stopped: ${Cause.pretty(exit.cause).split("\n")[0]}`)
    return 1
  }).pipe(Effect.provide(stderrLogger))
