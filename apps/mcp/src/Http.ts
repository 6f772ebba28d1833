/**
 * The MCP server over Streamable HTTP (`--http`): one `node:http` server with one endpoint, `/mcp`,
 * where each client's session is a protocol server of its own on the SDK's
 * `StreamableHTTPServerTransport`, all of them calling through the process's one client (so pacing
 * and the creation quota are shared, and the API token is the server's, never a client's).
 *
 * Every request passes {@link HttpGate} before the SDK sees it: the `Host` header (DNS rebinding on
 * loopback), the `Origin` header (a web page in a browser), and the bearer secret when one is set.
 * The secret is required beyond loopback. It is never logged, echoed or passed on.
 *
 * Sessions are bounded: at most {@link maxSessions}; past that the session idle longest is closed to
 * make room, and when every session has a request open the new one is refused with 503. A session
 * with no request open for {@link idleMillis} is closed. A client whose session is gone gets 404 and
 * starts a new one, as the protocol says.
 *
 * This module is loaded only for `--http`, so that standard input and output never load the SDK's
 * HTTP layer.
 *
 * @since 0.1.0
 */
import type { Server as ProtocolServer } from "@modelcontextprotocol/sdk/server/index.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { randomUUID } from "node:crypto"
import * as NodeHttp from "node:http"
import * as HttpGate from "./HttpGate.js"
import { maxLineBytes } from "./LineTransport.js"

/**
 * The path of the endpoint; every other path is 404.
 *
 * @since 0.1.0
 * @category constants
 */
export const path = "/mcp"

/**
 * The most sessions held at once.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxSessions = 64

/**
 * How long a session with no request open is kept: 30 minutes.
 *
 * @since 0.1.0
 * @category constants
 */
export const idleMillis = 30 * 60_000

/** How often idle sessions are looked for. */
const sweepMillis = 60_000

/** How long the stop waits for open responses before it cuts their connections. */
const closeWithin = 1_000

/**
 * The longest request body, as the longest line over standard input: 8 MiB (413 past it).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxBodyBytes = maxLineBytes

/** A session, or a pair that is not one yet: the protocol server, its transport, its open requests. */
interface Pair {
  readonly server: ProtocolServer
  readonly transport: StreamableHTTPServerTransport
  open: number
  lastSeen: number
}

/** Answers a request the server refuses, in JSON-RPC's shape (id null: the request is not read). */
const refuse = (
  res: NodeHttp.ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {}
) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }))
}

const pathOf = (url: string | undefined): string | undefined => {
  try {
    return new URL(url ?? "/", "http://localhost").pathname
  } catch {
    return undefined
  }
}

/** What a failure to listen means, in words. */
const listenCause = (error: NodeJS.ErrnoException): string => {
  switch (error.code) {
    case "EADDRINUSE":
      return "the address is in use (another server listens there; choose another --port)"
    case "EACCES":
      return "permission denied (a port below 1024 needs privileges)"
    case "EADDRNOTAVAIL":
      return "the address is not one of this machine's"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "no such host"
    default:
      return error.message.split("\n")[0]!
  }
}

/** Listens; resolves with the port, which the system chose when `port` is 0. */
const listen = (http: NodeHttp.Server, host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    http.once("error", reject)
    http.listen(port, host, () => {
      http.off("error", reject)
      const address = http.address()
      resolve(typeof address === "object" && address !== null ? address.port : port)
    })
  })

/** Resolves at the first SIGINT or SIGTERM. */
const stopSignal = () =>
  new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop)
      process.off("SIGTERM", stop)
      resolve()
    }
    process.on("SIGINT", stop)
    process.on("SIGTERM", stop)
  })

/**
 * Why the server may not listen on `host` with the secret of `env`, in one line, or `undefined` when it
 * may: a secret that cannot be used, or none for a host beyond loopback. Told before anything starts.
 *
 * @since 0.1.0
 * @category utils
 */
export const refusal = (
  host: string,
  env: Readonly<Record<string, string | undefined>> = process.env
): string | undefined => {
  const secret = HttpGate.secretOf(env)
  if (secret._tag === "Invalid") return secret.message
  if (secret._tag === "None" && !HttpGate.isLoopback(host)) {
    return `--host ${host} can be reached from other machines, so clients must send a secret: set ` +
      `${HttpGate.secretVariable} or ${HttpGate.secretFileVariable} (clients send Authorization: Bearer <secret>)`
  }
  return undefined
}

/**
 * Serves MCP over HTTP on `host:port` (port 0: any free port, said on standard error) until SIGINT
 * or SIGTERM, which close every session and the server. Resolves with the exit code: 0 after a
 * signal, 2 when the secret is unusable or missing beyond loopback (before listening), 1 when the
 * address cannot be listened on. Each of these is one line on standard error, as is the address once
 * listening; none shows the secret.
 *
 * @since 0.1.0
 */
export const serve = async (options: {
  readonly host: string
  readonly port: number
  readonly makeServer: () => ProtocolServer
  /** Writes one line about the server on standard error. */
  readonly say: (line: string) => void
  /** Where the secret and the allowed origins are read; the process's environment by default. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
}): Promise<number> => {
  const { say } = options
  const env = options.env ?? process.env
  const refused = refusal(options.host, env)
  if (refused !== undefined) {
    say(refused)
    return 2
  }
  const secret = HttpGate.secretOf(env)
  if (secret._tag === "Invalid") return 2
  const http = NodeHttp.createServer()
  const address = `${HttpGate.urlHost(options.host)}:${options.port}`
  let port: number
  try {
    port = await listen(http, options.host, options.port)
  } catch (error) {
    say(`cannot listen on ${address}: ${listenCause(error as NodeJS.ErrnoException)}`)
    return 1
  }
  const listening: HttpGate.Listening = {
    host: options.host,
    port,
    allowedOrigins: HttpGate.allowedOriginsOf(env)
  }
  const sessions = makeSessions(options.makeServer, listening)
  http.on("request", (req: NodeHttp.IncomingMessage, res: NodeHttp.ServerResponse) => {
    handle(req, res, listening, secret, sessions).catch((error: unknown) => {
      // The SDK answers what it refuses itself; what reaches here is a fault of the server.
      say(`a request failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`)
      if (!res.headersSent) refuse(res, 500, -32603, "Internal error")
      else res.destroy()
    })
  })
  // Listened for before the address is said: a client that reads it may stop the server at once.
  const stopped = stopSignal()
  // The warning comes first: whoever reads the address has read it too.
  if (secret._tag === "None") {
    say(
      `no ${HttpGate.secretVariable} is set: any local process can connect; set it (or ` +
        `${HttpGate.secretFileVariable}) to require Authorization: Bearer <secret>`
    )
  }
  say(`listening on http://${HttpGate.urlHost(options.host)}:${port}${path}`)
  await stopped
  await sessions.closeAll()
  await new Promise<void>((resolve) => {
    http.close(() => resolve())
    http.closeIdleConnections()
    setTimeout(() => http.closeAllConnections(), closeWithin).unref()
  })
  return 0
}

/** The gate, then the session the request belongs to. */
const handle = async (
  req: NodeHttp.IncomingMessage,
  res: NodeHttp.ServerResponse,
  listening: HttpGate.Listening,
  secret: HttpGate.Secret,
  sessions: Sessions
): Promise<void> => {
  if (!HttpGate.hostAllowed(req.headers.host, listening)) {
    return refuse(res, 403, -32000, "Forbidden: the Host header does not name this server")
  }
  if (!HttpGate.originAllowed(req.headers.origin, listening)) {
    return refuse(
      res,
      403,
      -32000,
      `Forbidden: pages of this Origin may not call the server (see ${HttpGate.allowedOriginsVariable})`
    )
  }
  if (secret._tag === "Secret" && !HttpGate.authorized(req.headers.authorization, secret.value)) {
    return refuse(res, 401, -32000, "Unauthorized: send the server's secret as Authorization: Bearer <secret>", {
      "www-authenticate": "Bearer"
    })
  }
  if (pathOf(req.url) !== path) return refuse(res, 404, -32000, `Not Found: the MCP endpoint is ${path}`)
  if (req.method !== "POST" && req.method !== "GET" && req.method !== "DELETE") {
    return refuse(res, 405, -32000, "Method not allowed.", { allow: "GET, POST, DELETE" })
  }
  if (sessions.stopping()) return refuse(res, 503, -32000, "Service Unavailable: the server is stopping")
  const id = req.headers["mcp-session-id"]
  if (id !== undefined) {
    const pair = typeof id === "string" ? sessions.get(id) : undefined
    if (pair === undefined) return refuse(res, 404, -32001, "Session not found: start a new one with initialize")
    return sessions.handle(pair, req, res)
  }
  if (req.method !== "POST") return refuse(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required")
  const pair = await sessions.open()
  if (pair === undefined) {
    return refuse(res, 503, -32000, `Service Unavailable: ${maxSessions} sessions are busy; try again later`)
  }
  try {
    await sessions.handle(pair, req, res)
  } finally {
    // Only an initialize starts a session; for anything else the SDK has answered 400: the pair goes.
    if (pair.transport.sessionId === undefined) await pair.server.close()
  }
}

/** The sessions by id, and the pairs that are not sessions yet. */
interface Sessions {
  readonly get: (id: string) => Pair | undefined
  /** A new pair, connected; undefined when every place is taken by a session with a request open. */
  readonly open: () => Promise<Pair | undefined>
  /** Hands a request to its pair, counting it open until its response is over. */
  readonly handle: (pair: Pair, req: NodeHttp.IncomingMessage, res: NodeHttp.ServerResponse) => Promise<void>
  readonly stopping: () => boolean
  /** Closes every pair: their streams end, their calls in flight are interrupted. */
  readonly closeAll: () => Promise<void>
}

const makeSessions = (makeServer: () => ProtocolServer, listening: HttpGate.Listening): Sessions => {
  const byId = new Map<string, Pair>()
  const pairs = new Set<Pair>()
  let stopping = false
  // A transport's close runs its onclose before it returns: the pair leaves both collections at once,
  // even while they are being walked (which a Map and a Set allow).
  const close = (pair: Pair) => pair.server.close()

  const makeRoom = (): boolean => {
    let oldest: Pair | undefined
    for (const pair of byId.values()) {
      if (pair.open === 0 && (oldest === undefined || pair.lastSeen < oldest.lastSeen)) oldest = pair
    }
    if (oldest === undefined) return false
    void close(oldest)
    return true
  }

  const sweep = setInterval(() => {
    const now = Date.now()
    for (const pair of byId.values()) {
      if (pair.open === 0 && now - pair.lastSeen > idleMillis) void close(pair)
    }
  }, sweepMillis)
  sweep.unref()

  const open = async (): Promise<Pair | undefined> => {
    if (pairs.size >= maxSessions && !makeRoom()) return undefined
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        byId.set(id, pair)
      },
      // The gate has checked Host and Origin already; the SDK checks them again with the same lists.
      enableDnsRebindingProtection: true,
      allowedHosts: HttpGate.isLoopback(listening.host) ? [...HttpGate.hostsOf(listening)] : [],
      allowedOrigins: [...HttpGate.originsOf(listening)],
      maxRequestBodySize: maxBodyBytes
    })
    const pair: Pair = { server: makeServer(), transport, open: 0, lastSeen: Date.now() }
    pairs.add(pair)
    // Set before `connect`, which keeps it and calls it first when the transport closes (DELETE,
    // eviction, the stop).
    transport.onclose = () => {
      pairs.delete(pair)
      if (transport.sessionId !== undefined && byId.get(transport.sessionId) === pair) byId.delete(transport.sessionId)
    }
    await pair.server.connect(transport)
    return pair
  }

  const handle = async (pair: Pair, req: NodeHttp.IncomingMessage, res: NodeHttp.ServerResponse) => {
    pair.open += 1
    pair.lastSeen = Date.now()
    res.once("close", () => {
      pair.open -= 1
      pair.lastSeen = Date.now()
    })
    await pair.transport.handleRequest(req, res)
  }

  return {
    get: (id) => byId.get(id),
    open,
    handle,
    stopping: () => stopping,
    closeAll: async () => {
      stopping = true
      clearInterval(sweep)
      await Promise.allSettled([...pairs].map(close))
    }
  }
}
