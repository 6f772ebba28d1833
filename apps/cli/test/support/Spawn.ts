/**
 * The built command run as a process, as a user runs it, and the sandbox on a port for it to talk to.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

/** The executable as installed: the `bin` of package.json, which loads the sources through tsx. */
export const bin = fileURLToPath(new URL("../../bin/community-api.js", import.meta.url))

/** `--group-id` and `--channel` of the demo's main community. */
export const community = [
  "--group-id",
  String(DemoFixture.mainCommunity.group_id),
  "--channel",
  DemoFixture.mainCommunity.channel
]

export interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  /** Added to the environment; the two COMMUNITY_API_* variables are removed unless given here. */
  readonly env?: Record<string, string>
  /** Written to standard input, which is then closed. */
  readonly stdin?: string
}

/** Runs the command with `args` and collects what it prints and its exit code. */
export const run = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Result> =>
  new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env }
    if (options.env?.COMMUNITY_API_BASE_URL === undefined) delete env.COMMUNITY_API_BASE_URL
    if (options.env?.COMMUNITY_API_TOKEN === undefined) delete env.COMMUNITY_API_TOKEN
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: "pipe" })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.stdin ?? "")
  })

/**
 * The reference server on a free port for the tests of the enclosing `describe`: started before
 * them, stopped after them.
 */
export const sandboxOnPort = (options: Omit<ReferenceServer.ServeOptions, "port"> = {}) => {
  const runtime = ManagedRuntime.make(ReferenceServer.layerServe({ ...options, port: 0 }))
  let baseUrl = ""
  beforeAll(async () => {
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    baseUrl = `http://127.0.0.1:${address.port}/external-api/v2`
  })
  afterAll(() => runtime.dispose())
  return {
    /** `{base_url}` of the running server. */
    baseUrl: () => baseUrl,
    /** The environment of a client of the server with `token`. */
    env: (token: string) => ({ COMMUNITY_API_BASE_URL: baseUrl, COMMUNITY_API_TOKEN: token }),
    /** Runs `f` with the server's control service (faults, recent requests). */
    control: <A>(f: (server: ReferenceServer.Service) => Effect.Effect<A>) =>
      runtime.runPromise(Effect.flatMap(ReferenceServer.ReferenceServer, f))
  }
}
