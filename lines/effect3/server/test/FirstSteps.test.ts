/**
 * The sandbox's first steps, as a user meets them, on the compiled bin (`build/`, which the global
 * setup remakes when stale) run as a child process: its help, a word it does not know, a port already
 * taken, a fixture it cannot read, and a control body it cannot decode. Each refusal is its own line
 * in plain words, never the system's or Schema's wording.
 */
import * as ChildProcess from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as ReferenceServer from "../src/ReferenceServer.js"
import * as Sandbox from "../src/Sandbox.js"
import * as ChildSupport from "./childSupport.js"
import * as PortSupport from "./portSupport.js"

const packageDir = path.resolve(import.meta.dirname, "..")
const bundle = path.join(packageDir, "build", "community-api-sandbox.js")

/**
 * The time bound of a test here: each starts the sandbox as a child process, which takes under a second
 * on an idle machine and many times that on one whose cores are busy with other work.
 */
const spawnTimeout = 120_000

/** Runs the sandbox with `args` to its end (killed past the test's bound) and collects its output. */
const runToEnd = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  ChildSupport.toEnd(
    ChildProcess.spawn(process.execPath, [bundle, ...args], { cwd: packageDir, env: { ...process.env, ...env } }),
    spawnTimeout - 30_000
  )

/** A file of its own in a fresh temporary folder. */
const writeTemp = (name: string, content: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "first-steps-")), name)
  fs.writeFileSync(file, content)
  return file
}

describe("the sandbox's help and usage", () => {
  it(
    "--help and -h print the usage under the command's own name, every flag on a line of its own, exit 0",
    async () => {
      const [long, short] = await Promise.all([runToEnd(["--help"]), runToEnd(["-h"])])
      for (const ended of [long, short]) {
        expect(ended.code).toBe(0)
        expect(ended.stderr).toBe("")
        expect(ended.stdout).toBe(`${Sandbox.help()}\n`)
      }
      const lines = long.stdout.split("\n")
      expect(lines[0]).toMatch(/^community-api-sandbox: /)
      expect(lines).toContain("usage: community-api-sandbox [flags]")
      expect(long.stdout).not.toMatch(/usage: start/)
      for (const flag of Sandbox.flags) {
        const described = lines.filter((line) => new RegExp(`^ {2}(-h, )?--${flag.name}(?![\\w-])`).test(line))
        expect(described, flag.name).toHaveLength(1)
        expect(described[0], flag.name).toContain(flag.description)
      }
      // Help before anything else: no banner, no port.
      expect(long.stdout).not.toContain("Ctrl-C stops the server.")
    },
    spawnTimeout
  )

  it("a word it does not know, or a value it refuses: the problem, the usage with --help, exit 2", async () => {
    const [unknown, latency, faults, port, portFromEnv] = await Promise.all([
      runToEnd(["--port", "0", "--bogus"]),
      runToEnd(["--port", "0", "--latency", "soon"]),
      runToEnd(["--port", "0", "--faults", JSON.stringify({ latency: { fixed: -1 } })]),
      runToEnd(["--port", "99999"]),
      runToEnd([], { PORT: "eighty" })
    ])
    const usage = "usage: community-api-sandbox [flags] (--help lists them)"
    expect(unknown).toEqual({ code: 2, stdout: "", stderr: `unknown argument --bogus\n${usage}\n` })
    expect(latency).toEqual({
      code: 2,
      stdout: "",
      stderr: `--latency needs a whole number of milliseconds, 0 or more, not soon\n${usage}\n`
    })
    expect(faults).toEqual({
      code: 2,
      stdout: "",
      stderr: `--faults: latency.fixed: expected a non-negative number, actual -1\n${usage}\n`
    })
    // The flag (or the variable) and the range it takes, like the other usage errors.
    expect(port).toEqual({
      code: 2,
      stdout: "",
      stderr: `--port needs a port from 0 to 65535 (0: any free port), not 99999\n${usage}\n`
    })
    expect(portFromEnv).toEqual({
      code: 2,
      stdout: "",
      stderr: `PORT needs a port from 0 to 65535 (0: any free port), not eighty\n${usage}\n`
    })
  }, spawnTimeout)
})

describe("a port the sandbox cannot bind", () => {
  const takenPort = PortSupport.takenPort()

  it("a port already taken: one line naming the address and the cause, exit 1", async () => {
    const port = takenPort()
    const ended = await runToEnd(["--port", String(port), "--quiet"])
    expect(ended).toEqual({ code: 1, stdout: "", stderr: `cannot listen on 127.0.0.1:${port}: already in use\n` })
  }, spawnTimeout)
})

describe("a fixture the sandbox cannot read", () => {
  it("missing, a folder, not JSON or not a fixture: one line naming the file and the cause, exit 1", async () => {
    const notJson = writeTemp("broken.json", "{\"users\": [")
    const notFixture = writeTemp("wrong.json", JSON.stringify({ users: [{ user_id: "one", name: "Анна" }] }))
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "first-steps-"))
    const [missing, isFolder, broken, wrong] = await Promise.all(
      ["nope.json", folder, notJson, notFixture].map((file) => runToEnd(["--port", "0", "--fixture", file]))
    )
    expect(missing).toEqual({ code: 1, stdout: "", stderr: "fixture nope.json: cannot read the file: no such file\n" })
    expect(isFolder).toEqual({
      code: 1,
      stdout: "",
      stderr: `fixture ${folder}: cannot read the file: a folder, not a file\n`
    })
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(new RegExp(`^fixture ${notJson}: not JSON: [^\\n]+\\n$`))
    expect(wrong).toEqual({
      code: 1,
      stdout: "",
      stderr: `fixture ${notFixture}: field users[0].user_id: expected number, actual "one"\n`
    })
    for (const ended of [missing, isFolder, broken, wrong]) {
      expect(ended.stderr).not.toMatch(/Error|ENOENT|EISDIR|errno|at /)
    }
  }, spawnTimeout)
})

describe("a control body the sandbox cannot decode", () => {
  it("X1 POST /_sandbox/faults answers 7 with one line naming the first bad field, and nothing changes", async () => {
    const child = ChildProcess.spawn(process.execPath, [bundle, "--port", "0", "--quiet"], { cwd: packageDir })
    try {
      const sandbox = ChildSupport.watch(child)
      await sandbox.printed("Ctrl-C stops the server.", spawnTimeout - 30_000)
      const origin = /(http:\/\/127\.0\.0\.1:\d+)\/external-api\/v2/.exec(sandbox.stdout())![1]!
      const control = { authorization: `Bearer ${ReferenceServer.demoControlToken}` }
      const post = (body: string) =>
        fetch(`${origin}/_sandbox/faults`, {
          method: "POST",
          headers: { ...control, "content-type": "application/json" },
          body
        }).then((response) => response.json())

      const settings = { keyServiceUnavailable: { next: 2 } }
      expect(await post(JSON.stringify(settings))).toEqual({ status: "ok", response: settings })

      const refused: Array<[unknown, string]> = [
        [{ latency: { fixed: -1 } }, "faults: latency.fixed: expected a non-negative number, actual -1"],
        [{ latency: { fixed: "x" } }, "faults: latency.fixed: expected number, actual \"x\""],
        [{ latency: { min: 1, max: 2 } }, "faults: latency.seed is missing"],
        [
          { internalError: { probability: 2, seed: 1 } },
          "faults: internalError.probability: expected a number between 0 and 1, actual 2"
        ],
        [
          { nope: 1 },
          "faults: nope is unexpected, expected: \"keyServiceUnavailable\" | \"internalError\" | \"latency\" | " +
          "\"dropConnection\""
        ],
        [
          { latency: "x" },
          "faults: latency: expected { fixed: Int & nonNegative } or " +
          "{ min: Int & nonNegative; max: Int & nonNegative; seed: Int }, actual \"x\""
        ]
      ]
      for (const [body, text] of refused) {
        expect(await post(JSON.stringify(body)), JSON.stringify(body)).toEqual({
          status: "error",
          error: text,
          error_code: 7
        })
      }
      const malformed = await post("{")
      expect(malformed).toMatchObject({ status: "error", error_code: 7 })
      expect(malformed.error).not.toContain("\n")

      const current = await fetch(`${origin}/_sandbox/faults`, { headers: control }).then((r) => r.json())
      expect(current).toEqual({ status: "ok", response: settings })
    } finally {
      child.kill("SIGKILL")
    }
  }, spawnTimeout)
})
