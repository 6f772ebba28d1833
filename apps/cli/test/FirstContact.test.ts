/**
 * What a first user meets, with the real executable as a child process: Ctrl-C in the middle of a
 * stream, the MCP server stopped by Ctrl-C, `--wizard` without a terminal, and a query that matches
 * nothing, in each output mode.
 */
import { Operations } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as ExitCode from "../src/ExitCode.js"
import * as Output from "../src/Output.js"
import * as Sandbox from "./support/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

const { community } = Sandbox

/** A child process of the executable under way, for a test that signals it. */
const start = (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string> } = {}) => {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env }
  if (options.env?.COMMUNITY_API_BASE_URL === undefined) delete env.COMMUNITY_API_BASE_URL
  if (options.env?.COMMUNITY_API_TOKEN === undefined) delete env.COMMUNITY_API_TOKEN
  const child = spawn(process.execPath, [Spawn.bin, ...args], { env, stdio: "pipe" })
  const output = { stdout: "", stderr: "" }
  const listeners = new Set<() => void>()
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].setEncoding("utf8").on("data", (chunk: string) => {
      output[stream] += chunk
      for (const listener of listeners) listener()
    })
  }
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code, signal) => resolve({ code, signal }))
  })
  return {
    child,
    output,
    ended,
    /** Resolves once `stream` matches `pattern`; rejects if the process ends first. */
    waitFor: (stream: "stdout" | "stderr", pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output[stream])) return
          listeners.delete(check)
          resolve()
        }
        listeners.add(check)
        check()
        void ended.then(() => reject(new Error(`ended before ${stream} matched ${pattern}: ${JSON.stringify(output)}`)))
      })
  }
}

describe("Ctrl-C", () => {
  // Every answer waits: with one bot a page, the 640 bots of the main community take minutes to list,
  // so the signal surely falls in the middle of the stream.
  const sandbox = Sandbox.sandboxOnPort({ faults: { latency: { fixed: 200 } } })

  it("SIGINT in the middle of bots get --all --json: exit 130, one line on stderr, whole JSON lines", async () => {
    const running = start(["bots", "get", ...community, "--count", "1", "--all", "--json"], {
      env: sandbox.env(DemoFixture.tokens.owner)
    })
    running.child.stdin.end()
    await running.waitFor("stdout", /\n/)
    running.child.kill("SIGINT")
    const { code } = await running.ended
    expect(code).toBe(ExitCode.kinds.interrupted.code)
    expect(running.output.stderr).toBe("community-api: interrupted\n")
    expect(running.output.stdout.endsWith("\n")).toBe(true)
    const lines = running.output.stdout.trimEnd().split("\n")
    expect(lines.length).toBeGreaterThanOrEqual(1)
    expect(lines.length).toBeLessThan(DemoFixture.mainBotCount)
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({ group_id: DemoFixture.mainCommunity.group_id })
    }
  }, Spawn.timeout)
})

// `serve` stopped by Ctrl-C (exit 0) is tested in Serve.test.ts.
describe("the MCP server stops on Ctrl-C with exit 0", () => {
  it("mcp: the MCP server, stopped by SIGINT while standard input is open, exits 0", async () => {
    const running = start(["mcp"])
    await running.waitFor("stderr", /embedded sandbox/)
    running.child.kill("SIGINT")
    expect((await running.ended).code).toBe(ExitCode.kinds.success.code)
    expect(running.output.stderr).not.toContain("interrupted")
  }, Spawn.timeout)
})

describe("--wizard", () => {
  it("with standard input closed: a usage error in one line, exit 2, instead of waiting for answers", async () => {
    // The test's time bound is the bound on a hang: before, the wizard waited forever.
    const result = await Spawn.run(["--wizard"])
    expect(result.code).toBe(ExitCode.kinds.usage.code)
    expect(result.stdout).toBe("")
    const lines = result.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^community-api: usage error: --wizard asks its questions on a terminal/)
  }, Spawn.timeout)
})

describe("nothing matched", () => {
  const sandbox = Sandbox.sandboxOnPort()
  const nothing = ["bots", "get", ...community, "--search", "no bot has this name"]
  const run = (args: ReadonlyArray<string>) => Spawn.run(args, { env: sandbox.env(DemoFixture.tokens.owner) })
  const header = Output.columns(Operations.bots.get.success).join("  ")

  it("a table: its header on stdout, nothing matched on stderr, one page or --all", async () => {
    expect(header).toMatch(/^id {2}name {2}group_id {2}channel\b/)
    for (const args of [nothing, [...nothing, "--all"]]) {
      const result = await run(args)
      expect(result.code, args.join(" ")).toBe(ExitCode.kinds.success.code)
      expect(result.stdout, args.join(" ")).toBe(`${header}\n`)
      expect(result.stderr, args.join(" ")).toBe("community-api: nothing matched\n")
    }
  }, Spawn.timeout)

  it("--json prints the empty page; --all --json prints no line at all", async () => {
    const page = await run([...nothing, "--json"])
    expect(page.code).toBe(ExitCode.kinds.success.code)
    expect(JSON.parse(page.stdout)).toEqual({ items: [], total: 0 })
    expect(page.stderr).toBe("")
    const lines = await run([...nothing, "--all", "--json"])
    expect(lines.code).toBe(ExitCode.kinds.success.code)
    expect(lines.stdout).toBe("")
    expect(lines.stderr).toBe("")
  }, Spawn.timeout)
})
