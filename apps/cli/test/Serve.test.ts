/**
 * `community-api serve` as a user meets it, the real executable run as a child process: what stops the
 * sandbox before it serves (a port already taken, a fixture it cannot read) is the sandbox's own line,
 * the same as `pnpm start` writes, with nothing of the command line's around it; Ctrl-C stops it with
 * exit 0, as it stops `pnpm start`.
 */
import * as ServerSandbox from "@community-api/server/Sandbox"
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as ChildSupport from "../../../lines/effect3/server/test/childSupport.js"
import * as PortSupport from "../../../lines/effect3/server/test/portSupport.js"
import * as ExitCode from "../src/ExitCode.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

describe("serve that cannot start", () => {
  const takenPort = PortSupport.takenPort()

  it("a port already taken or a fixture it cannot read: the sandbox's own line, exit 1", async () => {
    const port = takenPort()
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
      const serve = ChildSupport.watch(child)
      await serve.printed("Ctrl-C stops the server.", Spawn.timeout - 30_000)
      const before = serve.stdout().length
      child.kill("SIGINT")
      expect(await serve.ended).toEqual({ code: ExitCode.kinds.success.code, signal: null })
      expect(serve.stdout().slice(before)).toBe("Sandbox stopped.\n")
      expect(serve.stderr()).toBe("")
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
