/**
 * The reference server of this line (`@community-api/effect4-server`) on a real loopback port, for
 * the suites that go over a socket (`RealPort.test.ts`, `SharedLimits.test.ts`), as the Effect 3
 * line's `ReferenceServer.layerServe({ port: 0 })`: plain `node:http` on 127.0.0.1 with a port of the
 * system's choosing, each request handed to the server's web-standard handler. The server runs on the
 * clock of the fiber that starts it (the live clock: a real port has real time). A dropped connection
 * (the `dropConnection` fault, the web's `Response.error()`) destroys the socket, as the sandbox does.
 */
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

/** A server on a port: where clients reach it, and its controls. */
export interface Served {
  /** The clients' `baseUrl`, `http://127.0.0.1:<port>/external-api/v2`. */
  readonly baseUrl: string
  readonly server: ReferenceServer.Service
}

/** The server on a port, as a service of a suite's layer. */
export class RealPort extends Context.Service<RealPort, Served>()("effect4-client/test/RealPort") {}

const readBody = (request: http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks)))
    request.on("error", reject)
  })

/** Answers `request` from `handler`; a network error from it drops the connection. */
const bridge =
  (handler: ReferenceServer.WebHandler, base: string) =>
  async (request: http.IncomingMessage, response: http.ServerResponse) => {
    try {
      const body = await readBody(request)
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers.set(name, value)
        else if (value !== undefined) { for (const v of value) headers.append(name, v) }
      }
      const method = request.method ?? "GET"
      const answer = await handler(
        new Request(new URL(request.url ?? "/", base), {
          method,
          headers,
          ...(method === "GET" || method === "HEAD" ? {} : { body: new Uint8Array(body) })
        })
      )
      if (answer.type === "error") return void response.socket?.destroy()
      const bytes = Buffer.from(await answer.arrayBuffer())
      response.writeHead(answer.status, Object.fromEntries(answer.headers))
      response.end(bytes)
    } catch {
      response.socket?.destroy()
    }
  }

/** Starts the server with `options` on a free loopback port; it closes, cutting its connections, with the scope. */
export const serve = (options: ReferenceServer.Options = {}): Effect.Effect<Served, never, Scope.Scope> =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.make(options)
    const listening = yield* Effect.acquireRelease(
      Effect.callback<http.Server>((resume) => {
        const listening = http.createServer()
        listening.on(
          "request",
          (request, response) => void bridge(server.handler, "http://127.0.0.1")(request, response)
        )
        listening.listen(0, "127.0.0.1", () => resume(Effect.succeed(listening)))
      }),
      (listening) =>
        Effect.callback<void>((resume) => {
          listening.closeAllConnections()
          listening.close(() => resume(Effect.void))
        })
    )
    const { port } = listening.address() as AddressInfo
    return { baseUrl: `http://127.0.0.1:${port}/external-api/v2`, server }
  })

/** {@link serve} as a layer. */
export const layer = (options: ReferenceServer.Options = {}): Layer.Layer<RealPort> =>
  Layer.effect(RealPort, serve(options))
