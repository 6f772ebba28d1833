/**
 * The official MCP Inspector's command line against the compiled server, as docs/mcp.md gives it,
 * over standard input and output and over Streamable HTTP: `tools/list` with the Inspector's strict
 * schema-portability check (`--strict`), which must find nothing to warn about in any tool's input or
 * output schema (an empty "accept anything" sub-schema, a list of types, a remote `$ref`, a bare
 * `true`...).
 *
 * The Inspector needs Node 22.19 or later, so this suite runs on the newest Node line alone
 * (`nodeLines.newestOnly`). It is installed from the npm registry once, pinned, into
 * `node_modules/.cache/mcp-inspector` at the root, as the benchmarks install Prism: it is not in the
 * workspace's lockfile, since it brings a web client (React, Vite) that nothing else here needs.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Options from "../src/Options.js"
import * as Surface from "../src/Surface.js"
import { bin, timeout } from "./support/Mcp.js"

/** The Inspector's version: the one whose check docs/mcp.md describes. */
const version = "2.12.0"
const root = fileURLToPath(new URL("../../../", import.meta.url))
const cache = path.join(root, "node_modules", ".cache", "mcp-inspector", version)
const launcher = path.join(
  cache,
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js"
)

/** The tools the server offers with no flags, whose schemas the check reads. */
const offered = Surface.offered(Options.parse([]).surface).length

/** The environment of the test without the server's own settings; a home of its own for the Inspector. */
const home = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-inspector-home-"))
const baseEnv = () => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("COMMUNITY_API_"))),
  HOME: home
})

beforeAll(() => {
  if (fs.existsSync(launcher)) return
  // Installed beside the final folder and renamed into place: an interrupted install never looks complete.
  const partial = `${cache}.partial-${process.pid}`
  fs.rmSync(partial, { recursive: true, force: true })
  fs.mkdirSync(partial, { recursive: true })
  execFileSync("npm", [
    "install",
    "--prefix",
    partial,
    "--no-save",
    "--no-package-lock",
    "--no-audit",
    "--no-fund",
    // Its install script fetches optional clients (a terminal UI) that the command line does not use.
    "--ignore-scripts",
    `@modelcontextprotocol/inspector@${version}`
  ], { stdio: ["ignore", "ignore", "inherit"], timeout: 300_000 })
  try {
    fs.renameSync(partial, cache)
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true })
    if (!fs.existsSync(launcher)) throw error
  }
}, 320_000)

/** Runs the Inspector's command line with `args` to its end. */
const inspect = (args: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [launcher, "--cli", ...args], { env: baseEnv(), stdio: "pipe" })
    child.stdin.end()
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

/** What the check said: standard error without the server's own lines (over stdio it shares it). */
const findings = (stderr: string) =>
  stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("community-api-mcp:"))

const toolsOf = (stdout: string) => (JSON.parse(stdout) as { readonly tools: ReadonlyArray<unknown> }).tools

const servers: Array<ChildProcessWithoutNullStreams> = []
afterAll(() => {
  for (const child of servers) if (child.exitCode === null) child.kill("SIGKILL")
  fs.rmSync(home, { recursive: true, force: true })
})

describe("the MCP Inspector's command line", () => {
  it("over standard input and output: every tool listed, no portability finding under --strict", async () => {
    const { code, stderr, stdout } = await inspect(["node", bin, "--method", "tools/list", "--strict"])
    expect(code, stderr).toBe(0)
    expect(toolsOf(stdout)).toHaveLength(offered)
    expect(findings(stderr)).toEqual([])
  }, timeout)

  it("over Streamable HTTP with the secret: every tool listed, no portability finding under --strict", async () => {
    const secret = "inspector-secret-7d2e41"
    const server = spawn(process.execPath, [bin, "--http", "--port", "0"], {
      env: { ...baseEnv(), COMMUNITY_API_MCP_SECRET: secret },
      stdio: "pipe"
    })
    servers.push(server)
    server.stdin.end()
    const url = await new Promise<string>((resolve, reject) => {
      let said = ""
      server.stderr.on("data", (chunk: Buffer) => {
        said += chunk.toString("utf8")
        const match = /listening on (http:\/\/\S+\/mcp)\n/.exec(said)
        if (match !== null) resolve(match[1]!)
      })
      server.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${said}`)))
    })
    const { code, stderr, stdout } = await inspect([
      url,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${secret}`,
      "--method",
      "tools/list",
      "--strict"
    ])
    expect(code, stderr).toBe(0)
    expect(toolsOf(stdout)).toHaveLength(offered)
    expect(findings(stderr)).toEqual([])
    server.kill("SIGTERM")
  }, timeout)
})
