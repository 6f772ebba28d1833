/**
 * Hostile servers for scenarios of the client against a bad peer over a real socket, with no Effect:
 * plain `node:http` or raw `node:net` on 127.0.0.1 with a port of the system's choosing. A scenario
 * closes the server it started (`close`), cutting every connection.
 */
import * as http from "node:http"
import * as net from "node:net"

/** A running server: the client's `baseUrl`, the requests (connections, for a raw one) received so far. */
export interface Hostile {
  readonly baseUrl: string
  readonly hits: () => number
  readonly close: () => Promise<void>
}

const baseUrlOf = (server: net.Server) =>
  `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/external-api/v2`

const listen = (server: net.Server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))

/** A request handler; `hit` counts the requests from 0. */
export type Handler = (request: http.IncomingMessage, response: http.ServerResponse, hit: number) => void

/** Starts a `node:http` server with `handler`. */
export const serve = async (handler: Handler): Promise<Hostile> => {
  let hits = 0
  const server = http.createServer((request, response) => {
    // The body of the request is not needed: drain it so that the answer can flow.
    request.resume()
    handler(request, response, hits++)
  })
  await listen(server)
  return {
    baseUrl: baseUrlOf(server),
    hits: () => hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/**
 * Starts a raw server that writes `head` and `body` on every connection once the request arrives,
 * then closes it, so that it may lie about lengths; `sent` counts the bytes of the bodies it sent.
 */
export const raw = async (head: string, body: Buffer): Promise<Hostile & { readonly sent: () => number }> => {
  let hits = 0
  let sent = 0
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    hits++
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => {})
    socket.once("data", () => {
      socket.write(head)
      socket.end(body, () => (sent += body.length))
    })
  })
  await listen(server)
  return {
    baseUrl: baseUrlOf(server),
    hits: () => hits,
    sent: () => sent,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
