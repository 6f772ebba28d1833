/**
 * Test helpers for the server on a real port (127.0.0.1, port 0): raw HTTP requests with node:http
 * (no connection pool, so each request has a socket of its own) and raw sockets, every wait bounded;
 * the sandbox on a free port and a port already taken, for the tests of a `describe`. The tests of
 * the command line and of the MCP server use these too.
 */
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll, expect } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"
import * as Http from "node:http"
import * as Net from "node:net"
import * as ReferenceServer from "../src/ReferenceServer.js"

/** The port the server under test listens on. */
export const port = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return address.port
})

/**
 * The reference server (the sandbox, with the demo data unless `options` say otherwise) on a free
 * port for the tests of the enclosing `describe`: started before them, stopped after them. Call it
 * before anything whose hooks talk to it, so that it starts first.
 */
export const sandboxOnPort = (options: Omit<ReferenceServer.ServeOptions, "port"> = {}) => {
  const runtime = ManagedRuntime.make(ReferenceServer.layerServe({ ...options, port: 0 }))
  let baseUrl = ""
  beforeAll(async () => {
    baseUrl = `http://127.0.0.1:${await runtime.runPromise(port)}/external-api/v2`
  })
  afterAll(() => runtime.dispose())
  const control = <A>(f: (server: ReferenceServer.Service) => Effect.Effect<A>) =>
    runtime.runPromise(Effect.flatMap(ReferenceServer.ReferenceServer, f))
  return {
    /** `{base_url}` of the running server. */
    baseUrl: () => baseUrl,
    /** Runs `f` with the server's control service (faults, recent requests). */
    control,
    /** Every request the server has seen lately. */
    recentRequests: () => control((server) => server.recentRequests)
  }
}

/**
 * A loopback port that something else listens on for the tests of the enclosing `describe`, so that
 * a server asked to listen there cannot: taken before them, given back after them.
 */
export const takenPort = () => {
  const taken = Net.createServer()
  beforeAll(() => new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve)))
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())))
  return () => (taken.address() as Net.AddressInfo).port
}

/** An answer: the HTTP status and the JSON body. */
export interface Answer {
  readonly status: number
  readonly body: any
}

export interface RawRequest {
  readonly path: string
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly body?: string | Uint8Array
}

/** Fails after `millis` with `what`: a wait that never ends says so instead of hanging the test. */
export const bounded = <A, E, R>(effect: Effect.Effect<A, E, R>, millis: number, what: string) =>
  Effect.timeoutFail(effect, { duration: millis, onTimeout: () => new Error(`${what}: not within ${millis} ms`) })

/** One request on a socket of its own; the answer's JSON. */
export const send = (portNumber: number, request: RawRequest): Effect.Effect<Answer, Error> =>
  bounded(
    Effect.async<Answer, Error>((resume) => {
      const outgoing = Http.request({
        host: "127.0.0.1",
        port: portNumber,
        path: request.path,
        method: request.method ?? "POST",
        headers: request.headers ?? {},
        agent: false
      }, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          try {
            resume(Effect.succeed({ status: response.statusCode ?? 0, body: JSON.parse(text) }))
          } catch {
            resume(Effect.fail(new Error(`not JSON (HTTP ${response.statusCode}): ${text.slice(0, 200)}`)))
          }
        })
      })
      outgoing.on("error", (error) => resume(Effect.fail(error)))
      outgoing.end(request.body)
      return Effect.sync(() => outgoing.destroy())
    }),
    30_000,
    `answer to ${request.method ?? "POST"} ${request.path}`
  )

/** The error envelope of an answer: HTTP 200, `{status, error, error_code}`. */
export const errorOf = (answer: Answer): { code: number; text: string } => {
  expect(answer.status).toBe(200)
  expect(answer.body.status, JSON.stringify(answer.body)).toBe("error")
  return { code: answer.body.error_code, text: answer.body.error }
}

/** The `response` of a successful answer. */
export const okOf = (answer: Answer): any => {
  expect(answer.status).toBe(200)
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: "ok" })
  return answer.body.response
}

/** A raw socket and what the server did with it. */
export interface Client {
  readonly socket: Net.Socket
  /** Everything the server sent. */
  readonly received: () => string
  /** Resolves when the socket is closed (by either side). */
  readonly closed: Promise<void>
  readonly isClosed: () => boolean
}

/** Opens a socket to the server and waits until it is connected (or closed at once). */
export const connect = (portNumber: number): Promise<Client> =>
  new Promise((resolve) => {
    const socket = Net.connect({ host: "127.0.0.1", port: portNumber })
    let text = ""
    let closedNow = false
    socket.setEncoding("latin1")
    socket.on("data", (chunk: string) => (text += chunk))
    // A reset by the server (a connection past the cap) is a close like any other here.
    socket.on("error", () => {})
    const closed = new Promise<void>((done) =>
      socket.on("close", () => {
        closedNow = true
        done()
      })
    )
    const client: Client = { socket, received: () => text, closed, isClosed: () => closedNow }
    socket.on("connect", () => resolve(client))
    void closed.then(() => resolve(client))
  })

/** {@link connect} in a scope: the socket is destroyed when the scope closes (a test that fails included). */
export const connectScoped = (portNumber: number) =>
  Effect.acquireRelease(
    Effect.promise(() => connect(portNumber)),
    (client) => Effect.sync(() => client.socket.destroy())
  )

/** Waits until every client's socket is closed, within `millis`. */
export const allClosed = (clients: ReadonlyArray<Client>, millis: number, what: string) =>
  bounded(Effect.promise(() => Promise.all(clients.map((c) => c.closed))), millis, what)

/** Writes `data` to a socket, resolving once it is handed to the kernel (or the socket is gone). */
export const write = (client: Client, data: string | Uint8Array): Promise<void> =>
  new Promise((resolve) => {
    if (client.isClosed()) return resolve()
    if (client.socket.write(data)) return resolve()
    const done = () => {
      client.socket.off("drain", done)
      resolve()
    }
    client.socket.on("drain", done)
    void client.closed.then(done)
  })
