/**
 * `community-api mcp`: the MCP server of `@community-api/mcp` over the command line's standard input
 * and output, run in process (the protocol is newline-delimited JSON-RPC, written here by hand; the
 * server's own suite talks to it with the official SDK's client).
 */
import { Operations } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { PassThrough } from "node:stream"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"

const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`

/** The answer to request `id` among the lines written so far. */
const answer = (stdout: string, id: number) =>
  stdout.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, any>)
    .find((message) => message.id === id)

describe("mcp", () => {
  it.live(
    "E17 initialize and tools/list: one tool per documented operation plus call, on the embedded sandbox",
    () =>
      Effect.gen(function*() {
        const input = new PassThrough()
        const running = yield* InProcess.start(["mcp"], { stdinStream: input })
        input.write(request(1, "initialize", {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "test", version: "0" }
        }))
        yield* running.awaitStdout(/"id":1\b/)
        input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`)
        input.write(request(2, "tools/list"))
        yield* running.awaitStdout(/"id":2\b/)
        input.end()
        expect(yield* Fiber.join(running.fiber)).toBe(ExitCode.kinds.success.code)
        const init = answer(running.stdout(), 1)
        expect(init?.result.serverInfo.name).toBe("community-api-mcp")
        expect(init?.result.instructions).toContain("embedded sandbox")
        const names = (answer(running.stdout(), 2)?.result.tools as Array<{ name: string }>).map((tool) => tool.name)
        expect(names).toEqual([...Operations.documented.map((op) => op.path.replace("/", "_")), "call"])
        expect(running.stderr()).toContain("embedded sandbox")
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
