/**
 * One session with `community-api mcp` run in process, its protocol (newline-delimited JSON-RPC)
 * written by hand: `initialize`, `notifications/initialized`, `tools/list`, then standard input closed.
 */
import { Effect, Fiber } from "effect"
import { PassThrough } from "node:stream"
import * as InProcess from "./InProcess.js"

const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`

/** The answer to request `id` among the lines written so far. */
const answer = (stdout: string, id: number) =>
  stdout.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, any>)
    .find((message) => message.id === id)

/** The answers to `initialize` and `tools/list`, the exit code, and what the server wrote on standard error. */
export const initializeAndListTools = Effect.gen(function*() {
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
  const exitCode = yield* Fiber.join(running.fiber)
  return {
    exitCode,
    initialize: answer(running.stdout(), 1)?.result as Record<string, any> | undefined,
    tools: answer(running.stdout(), 2)?.result.tools as Array<{ name: string }>,
    stderr: running.stderr()
  }
})
