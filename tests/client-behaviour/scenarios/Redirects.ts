/**
 * The API answers every request with status 200 (C4), so a redirect is never part of it: the client
 * follows none, whatever its `HttpClient`, and fails with a transport error that names the status. A
 * followed redirect would send the request, token included, to wherever the `Location` points.
 */
import * as Hostile from "../src/Hostile.js"
import { assert, failed, me, ok, scenario, suite } from "../src/Scenario.js"

const secret = "thp_fake-secret-token-0123456789"
/** Fresh limiters and no retries, so that one call is one request. */
const options = { token: secret, retry: "never" } as const

/** A handler that redirects users/me (302 on the first request, else `later`) and answers anything else. */
const redirecting = (hits: Array<string>, later = 302): Hostile.Handler => (request, response, hit) => {
  hits.push(request.url ?? "")
  if (request.url === "/external-api/v2/users/me") {
    response.writeHead(hit === 0 ? 302 : later, { location: "/landing" }).end()
  } else {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(ok(me)))
  }
}

export default suite("Redirects", [
  scenario(
    "C4 A1 a 3xx from any HttpClient fails as a transport error naming the status; Location is not requested",
    async (line) => {
      // The scripted server's `HttpClient`, in process: not fetch.
      const world = await line.scripted((request) =>
        request.path === "users/me"
          ? { _tag: "Text", text: "", contentType: "text/plain", status: 302, headers: { location: "/elsewhere" } }
          : ok(me)
      )
      const client = await world.client(options)
      const error = await failed(client.call("users/me"))
      assert.equal(error._tag, "TransportError")
      assert.ok(error.message.includes("HTTP status 302"), error.message)
      assert.ok(error.message.includes("redirect"), error.message)
      assert.deepEqual(world.received.map((r) => new URL(r.url, "http://x").pathname), ["/external-api/v2/users/me"])
    }
  ),

  scenario("C4 A1 over fetch every request says redirect: manual, over the caller's own RequestInit", async (line) => {
    const seen: Array<RequestInit | undefined> = []
    const fetch = (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(init)
      return Promise.resolve(new Response(null, { status: 307, headers: { location: "https://elsewhere.invalid/" } }))
    }
    const client = await line.realClient({ ...options, http: "fetch", fetch, requestInit: { credentials: "omit" } })
    const error = await failed(client.call("users/me"))
    assert.equal(error._tag, "TransportError")
    assert.ok(error.message.includes("HTTP status 307"), error.message)
    assert.ok(!error.message.includes(secret), error.message)
    assert.equal(seen.length, 1)
    assert.equal(seen[0]?.redirect, "manual")
    assert.equal(seen[0]?.credentials, "omit")
  }),

  scenario("C4 A1 over a real socket fetch does not follow a 302 to a page that would answer", async (line) => {
    const hits: Array<string> = []
    const server = await Hostile.serve(redirecting(hits))
    try {
      const client = await line.realClient({ ...options, http: "fetch", baseUrl: server.baseUrl })
      const error = await failed(client.call("users/me"))
      assert.equal(error._tag, "TransportError")
      assert.ok(error.message.includes("HTTP status 302"), error.message)
      assert.deepEqual(hits, ["/external-api/v2/users/me"])
    } finally {
      await server.close()
    }
  }),

  scenario(
    "C4 A1 over a real socket undici does not follow a 302 or a 307 to a page that would answer",
    async (line) => {
      const hits: Array<string> = []
      const server = await Hostile.serve(redirecting(hits, 307))
      try {
        const client = await line.realClient({ ...options, http: "undici", baseUrl: server.baseUrl })
        const found = await failed(client.call("users/me"))
        assert.equal(found._tag, "TransportError")
        assert.ok(found.message.includes("HTTP status 302"), found.message)
        const temporary = await failed(client.call("users/me"))
        assert.equal(temporary._tag, "TransportError")
        assert.ok(temporary.message.includes("HTTP status 307"), temporary.message)
        assert.ok(!temporary.message.includes(secret), temporary.message)
        assert.deepEqual(hits, ["/external-api/v2/users/me", "/external-api/v2/users/me"])
      } finally {
        await server.close()
      }
    }
  )
])
