/**
 * `community-api serve` as a user meets it, the real executable run as a child process: what stops the
 * sandbox before it serves (a port already taken, a fixture it cannot read) is the sandbox's own line,
 * the same as `pnpm start` writes, with nothing of the command line's around it; Ctrl-C stops it with
 * exit 0, as it stops `pnpm start`.
 */
import * as ServerSandbox from "@community-api/server/Sandbox"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as Net from "node:net"
import * as ExitCode from "../src/ExitCode.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

describe("serve that cannot start", () => {
  let taken: Net.Server
  let port: number

  beforeAll(async () => {
    taken = Net.createServer()
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
    port = (taken.address() as Net.AddressInfo).port
  })

  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())))

  it("a port already taken or a fixture it cannot read: the sandbox's own line, exit 1", async () => {
    const [busy, missing] = await Promise.all([
      Spawn.run(["serve", "--port", String(port), "--quiet"]),
      Spawn.run(["serve", "--port", "0", "--fixture", "nope.json"])
    ])
    expect(busy).toEqual({
      code: ExitCode.kinds.internal.code,
      stdout: "",
      stderr: `cannot listen on 127.0.0.1:${port}: already in use\n`
    })
    expect(missing).toEqual({
      code: ExitCode.kinds.internal.code,
      stdout: "",
      stderr: "fixture nope.json: cannot read the file: no such file\n"
    })
  }, Spawn.timeout)
})

describe("serve running", () => {
  it("Ctrl-C stops it: the sandbox's last line, nothing on standard error, exit 0", async () => {
    const child = spawn(process.execPath, [Spawn.bin, "serve", "--port", "0", "--quiet"], { stdio: "pipe" })
    try {
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on("close", (code, signal) => resolve({ code, signal }))
      )
      const deadline = Date.now() + Spawn.timeout - 30_000
      while (!stdout.includes("Ctrl-C stops the server.")) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no banner:\n${stdout}\n${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const before = stdout.length
      child.kill("SIGINT")
      expect(await ended).toEqual({ code: ExitCode.kinds.success.code, signal: null })
      expect(stdout.slice(before)).toBe("Sandbox stopped.\n")
      expect(stderr).toBe("")
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    }
  }, Spawn.timeout)
})

describe("serve's help", () => {
  it("names every flag of the sandbox", () => {
    for (const flag of ServerSandbox.flags.filter((flag) => flag.name !== "help")) {
      expect(Sandbox.flags, flag.name).toContain(`--${flag.name}${flag.value === undefined ? "" : ` ${flag.value}`}`)
    }
  })
})
