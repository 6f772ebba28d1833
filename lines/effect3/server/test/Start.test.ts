/**
 * `npx -y pnpm@10 start` stopped as a user stops it: Ctrl-C reaches the terminal's whole foreground
 * process group, pnpm and the sandbox alike, and pnpm also relays it to the sandbox. Neither may then
 * report a failure: one line, exit 0, no `ELIFECYCLE`.
 *
 * The pnpm is the one running this suite (`npx -y pnpm@10 test`), or the one `npx -y pnpm@10` gives.
 * npx itself is left out: it runs pnpm through `sh -c`, and where `/bin/sh` is dash that shell dies of
 * the signal, whatever pnpm does (see `docs/bench.md`).
 */
import { execFileSync, spawn } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as ChildSupport from "./childSupport.js"

const root = path.resolve(import.meta.dirname, "../../../..")

/** The pnpm executable: this suite's own when pnpm runs it, else the one npx caches. */
const pnpm = (): string => {
  const own = process.env.npm_execpath
  if (own !== undefined && /pnpm\.c?js$/.test(own)) return own
  return execFileSync("npx", ["-y", "-p", "pnpm@10", "-c", "command -v pnpm"], { encoding: "utf8" }).trim()
}

/** The environment of a shell, without the variables of the pnpm script running this suite. */
const shellEnv = (): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] =>
      entry[1] !== undefined && !/^(npm_|pnpm_|PNPM_|INIT_CWD$)/.test(entry[0])
    )
  ),
  PORT: "0"
})

/** Sized for a busy machine: pnpm, the bundle check and the sandbox start from scratch. */
const timeout = 120_000
const banner = "Ctrl-C stops the server."

describe("pnpm start", () => {
  it("Ctrl-C prints one line and everything exits 0, with no ELIFECYCLE from pnpm", async () => {
    // Its own process group, as a shell gives a foreground job: the signal reaches every process in it.
    const child = spawn(process.execPath, [pnpm(), "start"], {
      cwd: root,
      env: shellEnv(),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"]
    })
    const pnpmStart = ChildSupport.watch(child)
    try {
      await pnpmStart.printed(banner, timeout - 30_000)
      const before = pnpmStart.stdout().length
      process.kill(-child.pid!, "SIGINT")
      expect(await pnpmStart.ended).toEqual({ code: 0, signal: null })
      expect(pnpmStart.stdout().slice(before)).toBe("Sandbox stopped.\n")
      expect(pnpmStart.stdout() + pnpmStart.stderr()).not.toContain("ELIFECYCLE")
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL")
    }
  }, timeout)
})
