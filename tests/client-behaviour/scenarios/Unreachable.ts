/**
 * A server that cannot be reached, over each line's real `HttpClient` (fetch and undici): a base URL
 * on a loopback port nothing listens on, and one whose host does not exist. The client's
 * `TransportError` keeps the cause a person needs in typed fields (the system's code, the host and
 * the port) and says it once in its message; never the token, never a query. The live clock: the
 * retries wait nothing (delays of 0).
 */
import * as net from "node:net"
import type { Failure, Line, RealClientOptions } from "../src/Driver.js"
import { assert, failed, scenario, suite } from "../src/Scenario.js"

const token = "unreachable-test-token-0123456789"

/** A loopback port nothing listens on: one the system gave, then closed. */
const closedPort = async (): Promise<number> => {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A client over `http` of the API at `baseUrl`, retrying twice at once, the token in the body. */
const clientOf = (line: Line, http: RealClientOptions["http"], baseUrl: string) =>
  line.realClient({ http, baseUrl, token, auth: "body", retry: { delays: [0, 0] } })

/** Neither the token nor a tag repeated: the cause is said once, in plain words. */
const tellsOnce = (error: Failure) => {
  assert.ok(!error.message.includes(token), error.message)
  assert.ok(!error.message.includes("TransportError"), error.message)
  assert.ok(!error.message.includes("?"), error.message)
}

export default suite(
  "A server that cannot be reached",
  (["fetch", "undici"] as const).flatMap((http) => [
    scenario(`a closed port over ${http}: ECONNREFUSED, the host and the port, said once`, async (line) => {
      const port = await closedPort()
      const client = await clientOf(line, http, `http://127.0.0.1:${port}/external-api/v2`)
      const error = await failed(client.call("users/me"))
      assert.equal(error._tag, "TransportError")
      assert.equal(error["code"], "ECONNREFUSED")
      assert.equal(error["host"], "127.0.0.1")
      assert.equal(error["port"], port)
      assert.equal(error["reason"], `connection refused by 127.0.0.1:${port} (ECONNREFUSED)`)
      assert.equal(error.message, `users/me: connection refused by 127.0.0.1:${port} (ECONNREFUSED)`)
      tellsOnce(error)
    }),

    scenario(`a creation to a closed port over ${http}: its unknown outcome names the cause`, async (line) => {
      const port = await closedPort()
      const client = await clientOf(line, http, `http://127.0.0.1:${port}/external-api/v2`)
      const error = await failed(client.call("vars/create", { group_id: 1, channel: "VK", title: "t", name: "n" }))
      assert.equal(error._tag, "OutcomeUnknownError")
      assert.equal(error["reason"], `transport: connection refused by 127.0.0.1:${port} (ECONNREFUSED)`)
      tellsOnce(error)
    }),

    scenario(`a host that does not exist over ${http} is named, with the resolver's code`, async (line) => {
      const client = await clientOf(line, http, "http://nothing.invalid/external-api/v2")
      const error = await failed(client.call("users/me"))
      assert.equal(error._tag, "TransportError")
      // A resolver that cannot answer at all says EAI_AGAIN; either names the host.
      assert.ok(["ENOTFOUND", "EAI_AGAIN"].includes(String(error["code"])), String(error["code"]))
      assert.equal(error["host"], "nothing.invalid")
      assert.equal(error["port"], 80)
      assert.match(error.message, /^users\/me: host nothing\.invalid (not found|could not be resolved)/)
      tellsOnce(error)
    })
  ])
)
