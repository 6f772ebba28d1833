import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ChildProcess from "node:child_process"
import * as path from "node:path"
import * as DemoFixture from "../src/DemoFixture.js"

const packageDir = path.resolve(import.meta.dirname, "..")
/** The compiled sandbox `pnpm start` runs (turbo's `bundle` task, or the global setup, makes it). */
const bundle = path.join(packageDir, "build", "community-api-sandbox.js")

/** Starts the sandbox on a free port and collects its output. */
const start = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = ChildProcess.spawn(process.execPath, [bundle, "--port", "0", ...args], { cwd: packageDir })
      const output = { stdout: "", stderr: "" }
      child.stdout.on("data", (chunk) => (output.stdout += chunk))
      child.stderr.on("data", (chunk) => (output.stderr += chunk))
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
      return { child, output, exited }
    }),
    ({ child }) => Effect.sync(() => child.kill("SIGKILL"))
  )

/**
 * The time bound of a test here: each starts the sandbox as a child process, which takes under a second
 * on an idle machine and many times that on one whose cores are busy with other work.
 */
const spawnTimeout = 120_000

const until = (check: () => boolean) =>
  Effect.promise(async () => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 50))
  }).pipe(
    // Within the test's bound, so that a sandbox that never answers says so rather than time out.
    Effect.timeoutFail({ duration: spawnTimeout - 30_000, onTimeout: () => new Error("the sandbox did not answer") })
  )

describe("the sandbox", () => {
  it.live(
    "A2 C4 prints the base URL, the demo tokens and a curl example; logs requests without tokens; stops on SIGINT",
    () =>
      Effect.gen(function*() {
        const sandbox = yield* start([])
        yield* until(() => sandbox.output.stdout.includes("Ctrl-C stops the server."))
        const { stdout } = sandbox.output
        const base = /(http:\/\/127\.0\.0\.1:\d+\/external-api\/v2)/.exec(stdout)![1]!
        expect(stdout).toContain("role")
        for (const token of Object.values(DemoFixture.tokens)) expect(stdout).toContain(token)
        expect(stdout).toContain(`curl -X POST -H "Authorization: Bearer ${DemoFixture.tokens.owner}" ${base}/users/me`)
        expect(stdout).toContain(`Page: ${base.replace(/\/external-api\/v2$/, "")}/_sandbox/ (`)

        const answer = yield* Effect.promise(() =>
          fetch(`${base}/users/me?api_key=${DemoFixture.tokens.mailer}`, { method: "POST" }).then((r) => r.json())
        )
        expect(answer).toMatchObject({ status: "ok", response: { user_id: DemoFixture.userIds.mailer } })
        yield* Effect.promise(() => fetch(`${base}/users/nope`, { method: "POST" }))
        yield* until(() => sandbox.output.stdout.includes("/external-api/v2/users/nope 3 "))
        const log = sandbox.output.stdout.slice(stdout.length)
        expect(log).toMatch(/\/external-api\/v2\/users\/me ok \d+ms/)
        expect(log).not.toContain(DemoFixture.tokens.mailer)
        expect(log).not.toContain("api_key")

        const before = sandbox.output.stdout
        sandbox.child.kill("SIGINT")
        const code = yield* Effect.promise(() => sandbox.exited)
        expect(code).toBe(0)
        expect(sandbox.output.stdout.slice(before.length)).toBe("Sandbox stopped.\n")
        expect(sandbox.output.stderr).toBe("")
      }).pipe(Effect.scoped),
    spawnTimeout
  )

  it.live("a bad fixture file stops the sandbox with a message naming the field", () =>
    Effect.gen(function*() {
      const sandbox = yield* start(["--fixture", path.join(packageDir, "package.json")])
      const code = yield* Effect.promise(() => sandbox.exited)
      expect(code).toBe(1)
      expect(sandbox.output.stderr).toContain("field name")
    }).pipe(Effect.scoped), spawnTimeout)
})
