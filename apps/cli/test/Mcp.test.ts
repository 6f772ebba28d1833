/**
 * `community-api mcp`: the MCP server of `@community-api/mcp` over the command line's standard input
 * and output, run in process (the protocol is newline-delimited JSON-RPC, written here by hand; the
 * server's own suite talks to it with the official SDK's client).
 */
import { Operations } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"
import * as McpSession from "./support/McpSession.js"

describe("mcp", () => {
  it.live(
    "E17 initialize and tools/list: a tool per documented operation, call and limits_get, on the embedded sandbox",
    () =>
      Effect.gen(function*() {
        const { exitCode, initialize, stderr, tools } = yield* McpSession.initializeAndListTools
        expect(exitCode).toBe(ExitCode.kinds.success.code)
        expect(initialize?.serverInfo.name).toBe("community-api-mcp")
        expect(initialize?.instructions).toContain("embedded sandbox")
        const names = tools.map((tool) => tool.name)
        expect(names).toEqual([...Operations.documented.map((op) => op.path.replace("/", "_")), "call", "limits_get"])
        expect(stderr).toContain("embedded sandbox")
      }),
    60_000
  )

  it("mcp --help says what it is and where its credentials come from", async () => {
    const help = await InProcess.run(["mcp", "--help"])
    expect(help.code).toBe(ExitCode.kinds.success.code)
    const text = help.stdout.replace(/\s+/g, " ")
    expect(text).toContain("community-api mcp: Run the MCP server")
    expect(text).toContain("COMMUNITY_API_BASE_URL and COMMUNITY_API_TOKEN")
    expect((await InProcess.run(["--help"])).stdout).toMatch(/\n {2}mcp +Run the MCP server/)
  })

  it("mcp takes no word: a usage error in one line, exit 2", async () => {
    const result = await InProcess.run(["mcp", "--port", "1"])
    expect(result.code).toBe(ExitCode.kinds.usage.code)
    expect(result.stderr.trimEnd()).toBe(
      "community-api: usage error: mcp takes no word \"--port\": its settings are COMMUNITY_API_BASE_URL and " +
        "COMMUNITY_API_TOKEN (community-api mcp --help)"
    )
    expect(result.stdout).toBe("")
  })
})
