/**
 * The command line never shows a token: standard output and standard error (with every log level
 * on), with the token in `COMMUNITY_API_TOKEN` or piped with `--token-stdin`, on success and on every
 * kind of failure, and the request log of the sandbox it talks to. The runs go through the
 * executable's program in process (`Cli.main`, its output captured); the last test runs the real
 * executable once, so that whatever the process itself writes is looked at too.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"
import type * as Outcome from "./support/Outcome.js"
import * as Sandbox from "./support/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

const { tokens } = DemoFixture
const secrets = [...Object.values(tokens), "thp_never_issued_0a1b2c3d4e5f6a7b8c9d"]
const { community } = Sandbox

// Every log line the program may write, at every level (the flag after the command's own options).
const withLogs = (args: ReadonlyArray<string>) => [...args, "--log-level", "all"]
const run = (args: ReadonlyArray<string>, options?: Outcome.RunOptions) => InProcess.run(withLogs(args), options)

const expectNoSecret = (...texts: ReadonlyArray<string>) => {
  const text = texts.join("\n")
  for (const secret of secrets) expect(text.includes(secret), `${secret} shown in:\n${text}`).toBe(false)
}

describe("command line secrets", () => {
  const requestLog: Array<string> = []
  const sandbox = Sandbox.sandboxOnPort({ onRequest: (entry) => requestLog.push(JSON.stringify(entry)) })
  const { control } = sandbox

  it("A1 A4 the token from COMMUNITY_API_TOKEN: success, a refused token, 101, a dropped creation", async () => {
    const env = sandbox.env
    const ok = await run(["users", "me", "--json"], { env: env(tokens.admin) })
    expect(ok.code).toBe(ExitCode.kinds.success.code)
    expect(JSON.parse(ok.stdout)).toMatchObject({ user_id: DemoFixture.userIds.admin })

    const revoked = await run(["bots", "get", ...community], { env: env(tokens.revoked) })
    expect(revoked.code).toBe(ExitCode.kinds.access.code)
    expect(revoked.stderr).toContain("InvalidTokenError")

    await control((server) =>
      server.setFaults({
        internalError: { next: 100, paths: ["groups/get"] },
        dropConnection: { next: 1, paths: ["vars/create"] }
      })
    )
    const internal = await run(["groups", "get", "--retries", "0"], { env: env(tokens.owner) })
    const dropped = await run(["vars", "create", ...community, "--title", "Секрет", "--name", "secret_cli"], {
      env: env(tokens.users)
    })
    await control((server) => server.clearFaults)
    expect(internal.code).toBe(ExitCode.kinds.internal.code)
    expect(internal.stderr).toContain("InternalServerError")
    expect(dropped.code).not.toBe(ExitCode.kinds.success.code)
    expect(dropped.stderr).toContain("OutcomeUnknownError")
    expectNoSecret(ok.stdout, ok.stderr, revoked.stdout, revoked.stderr, internal.stdout, internal.stderr)
    expectNoSecret(dropped.stdout, dropped.stderr)
    // The sandbox's own request log saw those requests, and no token either.
    expect(requestLog.length).toBeGreaterThanOrEqual(4)
    expectNoSecret(...requestLog)
  })

  it("A1 A4 A7 the token piped with --token-stdin, on a port and in embedded mode", async () => {
    const piped = await run(["groups", "get", "--token-stdin"], {
      env: { COMMUNITY_API_BASE_URL: sandbox.baseUrl() },
      stdin: `${tokens.mailer}\n`
    })
    expect(piped.code).toBe(ExitCode.kinds.success.code)
    const unknown = await run(["users", "me", "--token-stdin"], {
      env: { COMMUNITY_API_BASE_URL: sandbox.baseUrl() },
      stdin: `${secrets.at(-1)}\n`
    })
    expect(unknown.code).toBe(ExitCode.kinds.access.code)
    // Embedded mode with a piped token: the older account key is refused on v2 (A7).
    const embedded = await run(["users", "me", "--token-stdin"], { stdin: `${tokens.accountKey}\n` })
    expect(embedded.code).toBe(ExitCode.kinds.access.code)
    expect(embedded.stderr).toContain("embedded sandbox")
    expectNoSecret(piped.stdout, piped.stderr, unknown.stdout, unknown.stderr, embedded.stdout, embedded.stderr)
    expectNoSecret(...requestLog)
  })

  it("A1 A4 the executable itself, every log level on: a refused token exits 3 and shows nowhere", async () => {
    const revoked = await Spawn.run(withLogs(["users", "me"]), { env: sandbox.env(tokens.revoked) })
    expect(revoked.code).toBe(ExitCode.kinds.access.code)
    expect(revoked.stderr).toContain("users/me failed with InvalidTokenError: error 4")
    expectNoSecret(revoked.stdout, revoked.stderr)
    expectNoSecret(...requestLog)
  }, Spawn.timeout)
})
