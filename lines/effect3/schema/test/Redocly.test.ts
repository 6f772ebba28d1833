/**
 * Redocly CLI's lint of `openapi.json` with the package's `redocly.yaml` (its recommended rules, less
 * the one this API cannot meet) finds no problem at all: no error and no warning.
 *
 * The CLI runs in a child process with the Node running the tests, offline: `REDOCLY_TELEMETRY=off`
 * (as `telemetry: off` in `redocly.yaml`) stops its usage data, and `REDOCLY_SUPPRESS_UPDATE_NOTICE`
 * its lookup of the newest version on the npm registry. It runs once, on the machine's Node
 * (`nodeLines.machineOnly`): nothing in it differs between Node lines.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const documentFile = path.join(packageDir, "openapi.json")
const configFile = path.join(packageDir, "redocly.yaml")

/** The installed CLI's entry point, from its `package.json`. */
const cli = (() => {
  const manifest = createRequire(import.meta.url).resolve("@redocly/cli/package.json")
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { readonly bin: { readonly redocly: string } }
  return path.join(path.dirname(manifest), bin.redocly)
})()

/** The CLI's own settings that keep it from reaching the network, over whatever the environment says. */
const offline = {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  REDOCLY_SUPPRESS_NOTIFICATIONS: "true"
}

interface Problem {
  readonly ruleId: string
  readonly severity: string
  readonly message: string
}

interface Report {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number }
  readonly problems: ReadonlyArray<Problem>
}

/**
 * `redocly lint <file> --config redocly.yaml --format=json`, its configuration checked too (a problem
 * in it is an error); the report it prints on stdout, and its exit status.
 */
const lint = (file: string): Promise<{ readonly status: number | null; readonly report: Report }> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, "lint", file, "--config", configFile, "--lint-config", "error", "--format=json"],
      { cwd: packageDir, env: { ...process.env, ...offline }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === "number" ? error.code : null
        try {
          resolve({ status, report: JSON.parse(stdout) as Report })
        } catch {
          reject(new Error(`redocly lint printed no JSON report (status ${status}):\n${stdout}\n${stderr}`))
        }
      }
    )
  })

/** A summary of each problem that names its rule, for a failure message that says what went wrong. */
const summary = (report: Report) => report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)

describe("Redocly lint", () => {
  it("openapi.json has no problem under the recommended rules of redocly.yaml: no error, no warning", async () => {
    const { report, status } = await lint(documentFile)
    expect(summary(report)).toStrictEqual([])
    expect(report.totals).toStrictEqual({ errors: 0, warnings: 0, ignored: 0 })
    expect(status).toBe(0)
  }, 180_000)

  it("a warning is reported, so the check above would fail on one", async () => {
    // The document without its licence: the recommended rules warn of it (`info-license`), and of
    // nothing else, since the configuration turns off `operation-4xx-response`.
    const document = JSON.parse(readFileSync(documentFile, "utf8"))
    delete document.info.license
    const dir = mkdtempSync(path.join(tmpdir(), "redocly-lint-"))
    try {
      const file = path.join(dir, "openapi.json")
      writeFileSync(file, JSON.stringify(document))
      const { report, status } = await lint(file)
      expect(report.problems.map((p) => [p.severity, p.ruleId])).toStrictEqual([["warn", "info-license"]])
      expect(report.totals).toStrictEqual({ errors: 0, warnings: 1, ignored: 0 })
      // The CLI's status is 0 with warnings: only the report tells of them.
      expect(status).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
