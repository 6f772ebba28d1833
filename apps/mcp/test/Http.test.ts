/**
 * The server over Streamable HTTP as its clients see it: the compiled executable spawned with
 * `--http --port 0` (the port read from its line on standard error), the official SDK's
 * `StreamableHTTPClientTransport` for clients, and raw `node:http` requests for what a client of
 * the SDK never sends (a foreign Origin or Host, a wrong path, a session past the bound).
 * Each `describe` shares one server process: a start costs seconds on a busy machine.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import * as NodeHttp from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Http from "../src/Http.js"
import * as HttpGate from "../src/HttpGate.js"
import { bin, timeout } from "./support/Mcp.js"

const secret = "test-secret-4f0c9a7e1b"

/** The environment of the test process without any of the server's own settings. */
const baseEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("COMMUNITY_API_")))

/** A remote target that is never called: the server then writes nothing about an embedded sandbox. */
const remoteEnv = { COMMUNITY_API_BASE_URL: "http://127.0.0.1:9/v2", COMMUNITY_API_TOKEN: "thp_test_token" }

/** Every process started, to stop those a failed test left running. */
const started: Array<ChildProcessWithoutNullStreams> = []

afterAll(() => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  }
})

/** A server process with `--http` and the words given, started at once. */
const start = (words: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, "--http", ...words], {
    env: { ...baseEnv(), ...env },
    stdio: "pipe"
  })
  started.push(child)
  child.stdin.end()
  let stderr = ""
  let stdout = ""
  const waiters = new Set<() => void>()
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8")
    for (const wake of waiters) wake()
  })
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  let address: Promise<URL> | undefined
  /** The endpoint, once the server says it listens. */
  const url = () =>
    address ??= new Promise<URL>((resolve, reject) => {
      const look = () => {
        const match = /listening on (http:\/\/\S+\/mcp)\n/.exec(stderr)
        if (match === null) return
        waiters.delete(look)
        clearTimeout(guard)
        resolve(new URL(match[1]!))
      }
      const guard = setTimeout(() => reject(new Error(`no address on standard error: ${stderr}`)), timeout)
      void exited.then((code) => {
        clearTimeout(guard)
        reject(new Error(`exited with ${code} before listening: ${stderr}`))
      })
      waiters.add(look)
      look()
    })
  return {
    child,
    exited,
    url,
    stderr: () => stderr,
    stdout: () => stdout
  }
}

type Started = ReturnType<typeof start>

/** Starts a server that is to stop at once; gives its exit code and standard error. */
const refused = async (words: ReadonlyArray<string>, env: Record<string, string>) => {
  const server = start(words, env)
  const code = await server.exited
  return { code, stderr: server.stderr(), stdout: server.stdout() }
}

/** An SDK client over HTTP, connected. */
const connect = async (url: URL, headers: Record<string, string>) => {
  const client = new Client({ name: "community-api-mcp-http-test", version: "0.0.0" })
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } })
  await client.connect(transport)
  return {
    client,
    transport,
    /** Ends the session (DELETE), then the client. */
    close: async () => {
      await transport.terminateSession()
      await client.close()
    }
  }
}

/** Why an SDK client could not connect. */
const connectError = async (url: URL, headers: Record<string, string>) => {
  const client = new Client({ name: "community-api-mcp-http-test", version: "0.0.0" })
  const failure = await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } })).then(
    () => undefined,
    (error: unknown) => error
  )
  await client.close()
  return failure
}

/** An answer to a raw request, its body read whole. */
interface Answer {
  readonly status: number
  readonly headers: NodeHttp.IncomingHttpHeaders
  readonly body: string
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-http-test", version: "0.0.0" } }
}

const ping = { jsonrpc: "2.0", id: 2, method: "ping" }

/** A raw request: POST of a JSON body with the headers of a client by default, any header given. */
const raw = (
  url: URL,
  options: {
    readonly method?: string
    readonly path?: string
    readonly headers?: Record<string, string>
    readonly body?: unknown
  } = {}
) =>
  new Promise<Answer>((resolve, reject) => {
    const method = options.method ?? "POST"
    const request = NodeHttp.request(
      {
        host: url.hostname,
        port: url.port,
        path: options.path ?? url.pathname,
        method,
        agent: false,
        headers: {
          ...(method === "POST" ?
            { "content-type": "application/json", accept: "application/json, text/event-stream" } :
            {}),
          ...options.headers
        }
      },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (body += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
        response.on("error", reject)
      }
    )
    request.on("error", reject)
    request.end(options.body === undefined ? undefined : JSON.stringify(options.body))
  })

/** The JSON-RPC messages of an answer: its JSON body, or the data of its server-sent events. */
const messagesOf = (answer: Answer): ReadonlyArray<Record<string, unknown>> =>
  String(answer.headers["content-type"]).startsWith("text/event-stream") ?
    answer.body.split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6))) :
    [JSON.parse(answer.body)]

/** A session started with a raw initialize; its id. */
const rawSession = async (url: URL, headers: Record<string, string> = {}) => {
  const answer = await raw(url, { headers, body: initialize })
  expect(answer.status).toBe(200)
  const id = answer.headers["mcp-session-id"]
  expect(typeof id).toBe("string")
  return id as string
}

/** A GET stream of a session held open (a client listening for the server's messages). */
const holdStream = (url: URL, sessionId: string) =>
  new Promise<{ readonly status: number; readonly close: () => void }>((resolve, reject) => {
    const request = NodeHttp.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "GET",
        agent: false,
        headers: { accept: "text/event-stream", "mcp-session-id": sessionId }
      },
      (response) => resolve({ status: response.statusCode ?? 0, close: () => request.destroy() })
    )
    request.on("error", (error) => {
      if (!request.destroyed) reject(error)
    })
    request.end()
  })

describe("with a secret", () => {
  const auth = { authorization: `Bearer ${secret}` }
  let server: Started
  let url: URL

  beforeAll(async () => {
    server = start(["--port", "0"], { [HttpGate.secretVariable]: secret })
    url = await server.url()
  }, timeout)

  it("says where it listens, on loopback and the port the system chose; the secret is not among its arguments", () => {
    expect(url.hostname).toBe("127.0.0.1")
    expect(Number(url.port)).toBeGreaterThan(0)
    expect(url.pathname).toBe(Http.path)
    expect(server.stderr()).not.toContain("any local process")
    // What `ps` shows: the arguments of the running process, from the environment never.
    const cmdline = `/proc/${server.child.pid}/cmdline`
    if (existsSync(cmdline)) expect(readFileSync(cmdline, "utf8")).not.toContain(secret)
    expect(server.child.spawnargs.join(" ")).not.toContain(secret)
  })

  it("two clients at once: each its own session, tools/list and a users_me call in parallel", async () => {
    const sessions = await Promise.all(
      [0, 1].map(async () => {
        const connected = await connect(url, auth)
        try {
          const [listed, answer] = await Promise.all([
            connected.client.listTools(),
            connected.client.callTool({ name: "users_me", arguments: {} })
          ])
          return { sessionId: connected.transport.sessionId, names: listed.tools.map((tool) => tool.name), answer }
        } finally {
          await connected.close()
        }
      })
    )
    const [first, second] = sessions
    expect(first!.sessionId).toBeTypeOf("string")
    expect(second!.sessionId).toBeTypeOf("string")
    expect(first!.sessionId).not.toBe(second!.sessionId)
    for (const { answer, names } of sessions) {
      expect(names).toContain("users_me")
      expect(answer.isError).toBeFalsy()
      expect(Object.keys(answer.structuredContent ?? {})).toEqual(["result"])
    }
    // Both sessions call through the server's one client, with its token: the same caller.
    expect(first!.answer.structuredContent).toEqual(second!.answer.structuredContent)
  }, timeout)

  it("a wrong secret and a missing one: connect rejects with 401", async () => {
    for (const headers of [{ authorization: "Bearer wrong-secret-0000" }, {}]) {
      const failure = await connectError(url, headers)
      expect(failure).toBeInstanceOf(StreamableHTTPError)
      expect((failure as StreamableHTTPError).code).toBe(401)
    }
  }, timeout)

  it("401 says Bearer in WWW-Authenticate, with a JSON-RPC error of id null that holds no secret", async () => {
    for (const authorization of ["Bearer wrong-secret-0000", `Basic ${secret}`, `Bearer ${secret}x`]) {
      const answer = await raw(url, { headers: { authorization }, body: initialize })
      expect(answer.status).toBe(401)
      expect(answer.headers["www-authenticate"]).toMatch(/^Bearer/)
      expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } })
      expect(answer.body).not.toContain(secret)
      expect(answer.headers["mcp-session-id"]).toBeUndefined()
    }
  }, timeout)

  it("a foreign Origin is refused with 403; none, or the server's own, is accepted", async () => {
    const foreign = await raw(url, { headers: { ...auth, origin: "http://evil.example" }, body: initialize })
    expect(foreign.status).toBe(403)
    expect(JSON.parse(foreign.body)).toMatchObject({ jsonrpc: "2.0", id: null })
    expect(foreign.headers["mcp-session-id"]).toBeUndefined()
    const otherPort = await raw(url, { headers: { ...auth, origin: "http://127.0.0.1:1" }, body: initialize })
    expect(otherPort.status).toBe(403)

    const none = await raw(url, { headers: auth, body: initialize })
    expect(none.status).toBe(200)
    expect(messagesOf(none)[0]).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18" } })
    const own = await raw(url, { headers: { ...auth, origin: `http://localhost:${url.port}` }, body: initialize })
    expect(own.status).toBe(200)
    for (const answer of [none, own]) {
      const sessionId = String(answer.headers["mcp-session-id"])
      expect((await raw(url, { method: "DELETE", headers: { ...auth, "mcp-session-id": sessionId } })).status)
        .toBe(200)
    }
  }, timeout)

  it("a Host that does not name the server (DNS rebinding) is refused with 403", async () => {
    const answer = await raw(url, { headers: { ...auth, host: `evil.example:${url.port}` }, body: initialize })
    expect(answer.status).toBe(403)
    expect(answer.headers["mcp-session-id"]).toBeUndefined()
    const named = await raw(url, { headers: { ...auth, host: `localhost:${url.port}` }, body: initialize })
    expect(named.status).toBe(200)
  }, timeout)

  it("only /mcp: another path is 404; a session id is needed past initialize; an unknown one is 404", async () => {
    expect((await raw(url, { path: "/", headers: auth, body: initialize })).status).toBe(404)
    expect((await raw(url, { path: "/mcp/x", headers: auth, body: initialize })).status).toBe(404)
    expect((await raw(url, { method: "GET", headers: { ...auth, accept: "text/event-stream" } })).status).toBe(400)
    expect((await raw(url, { method: "PUT", headers: auth })).status).toBe(405)
    const unknown = await raw(url, { headers: { ...auth, "mcp-session-id": "no-such-session" }, body: ping })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toMatchObject({ error: { code: -32001 }, id: null })
    // A request that is not initialize starts no session.
    const stray = await raw(url, { headers: auth, body: ping })
    expect(stray.status).toBe(400)
    expect(stray.headers["mcp-session-id"]).toBeUndefined()
  }, timeout)

  it("a session lives until DELETE: ping answered before, 404 after", async () => {
    const sessionId = await rawSession(url, auth)
    const before = await raw(url, { headers: { ...auth, "mcp-session-id": sessionId }, body: ping })
    expect(before.status).toBe(200)
    expect(messagesOf(before)[0]).toMatchObject({ id: 2, result: {} })
    expect((await raw(url, { method: "DELETE", headers: { ...auth, "mcp-session-id": sessionId } })).status).toBe(200)
    const after = await raw(url, { headers: { ...auth, "mcp-session-id": sessionId }, body: ping })
    expect(after.status).toBe(404)
  }, timeout)

  it("SIGTERM with a client connected: the server stops with 0; no secret, right or wrong, in its output", async () => {
    const connected = await connect(url, auth)
    expect((await connected.client.listTools()).tools.length).toBeGreaterThan(0)
    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
    await connected.client.close()
    expect(server.stderr()).not.toContain(secret)
    expect(server.stderr()).not.toContain("wrong-secret")
    expect(server.stdout()).toBe("")
  }, timeout)
})

describe("on loopback without a secret", () => {
  let server: Started
  let url: URL

  beforeAll(async () => {
    server = start(["--port", "0"])
    url = await server.url()
  }, timeout)

  it("serves anyone on this machine, and says so on standard error", async () => {
    expect(server.stderr()).toContain("any local process can connect")
    expect(server.stderr()).toContain(HttpGate.secretVariable)
    const connected = await connect(url, {})
    try {
      const answer = await connected.client.callTool({ name: "users_me", arguments: {} })
      expect(answer.isError).toBeFalsy()
    } finally {
      await connected.close()
    }
  }, timeout)

  it(`at most ${Http.maxSessions} sessions: the one idle longest makes room; when all are busy, 503`, async () => {
    const ids: Array<string> = []
    for (let index = 0; index < Http.maxSessions; index += 1) ids.push(await rawSession(url))
    // One more: the first session, idle longest, is closed for it.
    const newest = await rawSession(url)
    expect((await raw(url, { headers: { "mcp-session-id": ids[0]! }, body: ping })).status).toBe(404)
    expect((await raw(url, { headers: { "mcp-session-id": ids[1]! }, body: ping })).status).toBe(200)
    const held = [...ids.slice(1), newest]
    expect(held).toHaveLength(Http.maxSessions)

    // Every session with a stream open: none is idle, so a new one is refused.
    const streams = await Promise.all(held.map((id) => holdStream(url, id)))
    try {
      expect(streams.every((stream) => stream.status === 200)).toBe(true)
      const full = await raw(url, { body: initialize })
      expect(full.status).toBe(503)
      expect(full.headers["mcp-session-id"]).toBeUndefined()
      expect((await raw(url, { headers: { "mcp-session-id": held[0]! }, body: ping })).status).toBe(200)
    } finally {
      for (const stream of streams) stream.close()
    }
    // Once the streams are closed (the server sees it soon after), a session is idle again and makes room.
    const deadline = Date.now() + timeout / 2
    let again = await raw(url, { body: initialize })
    while (again.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      again = await raw(url, { body: initialize })
    }
    expect(again.status).toBe(200)
  }, timeout)

  it("SIGINT stops it with 0", async () => {
    server.child.kill("SIGINT")
    expect(await server.exited).toBe(0)
  }, timeout)
})

describe("refused at start, in one line", () => {
  it("--host 0.0.0.0 without a secret: exit 2 before listening", async () => {
    const { code, stderr, stdout } = await refused(["--host", "0.0.0.0", "--port", "0"], remoteEnv)
    expect(code).toBe(2)
    expect(stdout).toBe("")
    const lines = stderr.trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^community-api-mcp: /)
    expect(lines[0]).toContain(HttpGate.secretVariable)
    expect(stderr).not.toContain("listening")
  }, timeout)

  it("a secret file that cannot be read: exit 2, naming the variable, not listening", async () => {
    const folder = mkdtempSync(join(tmpdir(), "mcp-http-"))
    try {
      const { code, stderr } = await refused(["--port", "0"], {
        ...remoteEnv,
        [HttpGate.secretFileVariable]: join(folder, "missing")
      })
      expect(code).toBe(2)
      const lines = stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(HttpGate.secretFileVariable)
      expect(stderr).not.toContain("listening")
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, timeout)

  it("a port in use: exit 1 with the address and the cause", async () => {
    const occupant = NodeHttp.createServer()
    await new Promise<void>((resolve) => occupant.listen(0, "127.0.0.1", resolve))
    const address = occupant.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    try {
      const { code, stderr } = await refused(["--port", String(port)], remoteEnv)
      expect(code).toBe(1)
      const lines = stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(`127.0.0.1:${port}`)
      expect(lines[0]).toContain("in use")
    } finally {
      await new Promise((resolve) => occupant.close(resolve))
    }
  }, timeout)
})
