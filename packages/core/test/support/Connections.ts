/**
 * Real failed connections for the tests: a loopback port nothing listens on, and what fetch and
 * node:http fail with when sent somewhere.
 */
import * as http from "node:http"
import * as net from "node:net"

/** A loopback port nothing listens on: one the system gave, then closed. */
export const closedPort = async (): Promise<number> => {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** What fetch rejects with for `url`. */
export const fetchError = (url: string): Promise<unknown> =>
  fetch(url, { method: "POST" }).then(() => Promise.reject(new Error(`${url} answered`)), (error: unknown) => error)

/** What node:http fails with for `url`. */
export const httpError = (url: string): Promise<unknown> =>
  new Promise((resolve) => {
    const request = http.request(url, { method: "POST" }, () => resolve(new Error(`${url} answered`)))
    request.on("error", resolve)
    request.end()
  })
