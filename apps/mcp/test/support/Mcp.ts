/**
 * The server as an assistant's client runs it: the `bin` of package.json (the compiled program in
 * `build/`, made by turbo's `bundle` task or the global setup) spawned by the official MCP SDK's
 * client over standard input and output. Each start costs Node and the program from scratch, several
 * seconds on a busy machine, so each `describe` shares one server process.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { fileURLToPath } from "node:url"

/** The executable as installed. */
export const bin = fileURLToPath(new URL("../../bin/community-api-mcp.js", import.meta.url))

/**
 * The time bound of a test or hook that spawns or talks to the server: sized for a machine whose
 * cores are busy with other work (see `docs/testing.md`).
 */
export const timeout = 120_000

/** The result of `tools/call`, as the SDK gives it. */
export type CallResult = Awaited<ReturnType<Client["callTool"]>>

/** A server for the tests of the enclosing `describe`, started before them and stopped after them. */
export const serverFor = (env: () => Record<string, string>) => {
  let client: Client | undefined
  let transport: StdioClientTransport | undefined
  let stderr = ""
  beforeAll(async () => {
    // The SDK passes only a safe part of the environment (PATH, HOME, …): no COMMUNITY_API_* of the
    // test's own environment reaches the server unless given here.
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin],
      env: { ...getDefaultEnvironment(), ...env() },
      stderr: "pipe"
    })
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    client = new Client({ name: "community-api-mcp-test", version: "0.0.0" })
    await client.connect(transport)
  }, timeout)
  afterAll(async () => {
    await client?.close()
  }, timeout)
  const connected = () => {
    if (client === undefined) throw new Error("the server did not start")
    return client
  }
  return {
    client: connected,
    /** What the server wrote on standard error so far. */
    stderr: () => stderr,
    /** Calls a tool. */
    call: (name: string, args: Record<string, unknown> = {}) => connected().callTool({ name, arguments: args })
  }
}

/** The one line of text of a tool's answer. */
export const textOf = (result: CallResult): string => {
  const content = result.content as ReadonlyArray<{ readonly type: string; readonly text?: string }>
  if (content.length !== 1 || content[0].type !== "text" || typeof content[0].text !== "string") {
    throw new Error(`expected one text block, got ${JSON.stringify(content)}`)
  }
  return content[0].text
}

/** The structured content of a tool error. */
export const errorOf = (result: CallResult) =>
  (result.structuredContent as { readonly error: Record<string, unknown> } | undefined)?.error
