/**
 * `community-api mcp`: the MCP server of `@community-api/mcp` (`community-api-mcp`) over this
 * program's standard input and output, with the same environment (`COMMUNITY_API_BASE_URL`,
 * `COMMUNITY_API_TOKEN`; with neither, the embedded sandbox). It is loaded only when asked for.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import * as Credentials from "./Credentials.js"
import { Stdio } from "./Stdio.js"

/**
 * What `mcp` does, for the help.
 *
 * @since 0.1.0
 */
export const summary = "Run the MCP server (tools for an assistant) on standard input and output, the same as " +
  "community-api-mcp."

/**
 * What `mcp --help` says of it.
 *
 * @since 0.1.0
 */
export const description = "An assistant's client (Claude Desktop, an IDE, …) starts it and speaks the Model " +
  "Context Protocol over its standard input and output: one tool per documented operation, named section_method " +
  "(bots_enable), and call for the operations the API lists without documenting their parameters, each call " +
  "with the client's retries, pacing and creation " +
  `quota. It reads ${Credentials.baseUrlVariable} and ${Credentials.tokenVariable}; with no ` +
  `${Credentials.baseUrlVariable} the calls go to an embedded sandbox with the demo data. It runs until standard ` +
  "input ends. Standard output carries the protocol alone; notes go to standard error."

/**
 * Runs the server until standard input ends; succeeds with its exit code (0 when the client closed
 * standard input, 2 for a base URL without a token). Standard output carries the protocol alone.
 *
 * @since 0.1.0
 */
export const serve: Effect.Effect<number> = Effect.gen(function*() {
  const Server = yield* Effect.promise(() => import("@community-api/mcp/Server"))
  const stdio = yield* Stdio
  return yield* Effect.promise(() => Server.run(stdio))
})
