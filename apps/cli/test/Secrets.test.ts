/**
 * The command line never shows a token: standard output and standard error of the process (with every
 * log level on), with the token in `COMMUNITY_API_TOKEN` or piped with `--token-stdin`, on success and
 * on every kind of failure, and the request log of the sandbox it talks to. Each spawn costs about two
 * seconds, so each test checks several runs and everything they print.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as ExitCode from "../src/ExitCode.js"

const bin = fileURLToPath(new URL("../bin/community-api.js", import.meta.url))
const { mainCommunity, tokens } = DemoFixture
const secrets = [...Object.values(tokens), "thp_never_issued_0a1b2c3d4e5f6a7b8c9d"]
const community = ["--group-id", String(mainCommunity.group_id), "--channel", mainCommunity.channel]

interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const run = (
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly stdin?: string } = {}
): Promise<Result> =>
  new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env }
    if (options.env?.COMMUNITY_API_BASE_URL === undefined) delete env.COMMUNITY_API_BASE_URL
    if (options.env?.COMMUNITY_API_TOKEN === undefined) delete env.COMMUNITY_API_TOKEN
    // Every log line the program may write, at every level.
    const child = spawn(process.execPath, [bin, "--log-level", "all", ...args], { env, stdio: "pipe" })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.stdin ?? "")
  })

const expectNoSecret = (...texts: ReadonlyArray<string>) => {
  const text = texts.join("\n")
  for (const secret of secrets) expect(text.includes(secret), `${secret} shown in:\n${text}`).toBe(false)
}

describe("command line secrets", () => {
  const requestLog: Array<string> = []
  const runtime = ManagedRuntime.make(
    ReferenceServer.layerServe({ port: 0, onRequest: (entry) => requestLog.push(JSON.stringify(entry)) })
  )
  const control = <A>(f: (server: ReferenceServer.Service) => Effect.Effect<A>) =>
    runtime.runPromise(Effect.flatMap(ReferenceServer.ReferenceServer, f))
  let baseUrl = ""

  beforeAll(async () => {
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    baseUrl = `http://127.0.0.1:${address.port}/external-api/v2`
  })
  afterAll(() => runtime.dispose())

  it("A1 A4 the token from COMMUNITY_API_TOKEN: success, a refused token, 101, a dropped creation", async () => {
    const env = (token: string) => ({ COMMUNITY_API_BASE_URL: baseUrl, COMMUNITY_API_TOKEN: token })
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
      env: { COMMUNITY_API_BASE_URL: baseUrl },
      stdin: `${tokens.mailer}\n`
    })
    expect(piped.code).toBe(ExitCode.kinds.success.code)
    const unknown = await run(["users", "me", "--token-stdin"], {
      env: { COMMUNITY_API_BASE_URL: baseUrl },
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
})
