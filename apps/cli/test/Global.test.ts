/**
 * The global flags: accepted before or after any command, `serve` included.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import * as Commands from "../src/Commands.js"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"

const serveAndCall = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    // Interrupted at the end, as Ctrl-C stops it.
    const running = yield* Effect.acquireRelease(InProcess.start(args), (running) => Fiber.interrupt(running.fiber))
    const [, base] = yield* running.awaitStdout(/(http:\/\/127\.0\.0\.1:\d+\/external-api\/v2)/)
    const response = yield* Effect.promise(() =>
      fetch(`${base}/users/me`, { method: "POST", headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` } })
    )
    expect(response.status).toBe(200)
    expect(running.stderr()).toBe("")
  }).pipe(Effect.scoped)

describe("global flags", () => {
  it.live("C1 serve takes --log-level before or after its own flags", () =>
    Effect.gen(function*() {
      yield* serveAndCall(["serve", "--port", "0", "--quiet", "--log-level", "debug"])
      yield* serveAndCall(["--log-level=warning", "serve", "--port=0", "--quiet"])
    }))

  it("C1 serve refuses a word the sandbox does not know in one line, exit 2", async () => {
    const result = await InProcess.run(["serve", "--bogus", "--log-level", "info"])
    expect(result.code).toBe(ExitCode.kinds.usage.code)
    const lines = result.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^community-api: serve: unknown argument --bogus; usage: /)
  })

  it("--version prints the version, after a command too", async () => {
    for (const args of [["--version"], ["bots", "get", "--version"], ["serve", "--version"]]) {
      const result = await InProcess.run(args)
      expect(result.code, args.join(" ")).toBe(ExitCode.kinds.success.code)
      expect(result.stdout.trim(), args.join(" ")).toBe(Commands.version)
    }
  })

  it("--completions prints a completion script with the commands of the contract", async () => {
    const result = await InProcess.run(["--completions", "bash"])
    expect(result.code).toBe(ExitCode.kinds.success.code)
    expect(result.stdout).toContain("getEmployees")
  })
})
