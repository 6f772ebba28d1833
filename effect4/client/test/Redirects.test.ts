/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * The API answers every request with status 200 (C4), so a redirect is never part of it: the client
 * follows none, whatever its `HttpClient`, and fails with a transport error that names the status. A
 * followed redirect would send the request, token included, to wherever the `Location` points.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { FetchHttpClient, HttpClient, HttpClientResponse } from "effect/http"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Retry from "../src/Retry.js"
import * as FakeServer from "./support/FakeServer.js"
import * as Hostile from "./support/Hostile.js"

const me = { user_id: 7, auth: "token", client_id: "app" }
const secret = Redacted.value(FakeServer.token)

/** A client over `http` with fresh limiters and no retries, so that one call is one request. */
const clientOf = (httpClient: Layer.Layer<HttpClient.HttpClient>, baseUrl = FakeServer.baseUrl) =>
  CommunityApiClient.make({ baseUrl, token: FakeServer.token, retry: Retry.never }).pipe(
    Effect.provide(Layer.mergeAll(httpClient, Pacing.layer(), CreationQuota.layer()))
  )

describe("Redirects", () => {
  it.effect("C4 A1 a 3xx from any HttpClient fails as a transport error naming the status; Location is not requested", () => {
    const paths: Array<string> = []
    // An `HttpClient` that is not fetch: it answers in process, a redirect for users/me.
    const inProcess = HttpClient.make((request) =>
      Effect.sync(() => {
        const path = new URL(request.url).pathname
        paths.push(path)
        return HttpClientResponse.fromWeb(
          request,
          path.endsWith("/users/me")
            ? new Response(null, { status: 302, headers: { location: "/elsewhere" } })
            : Response.json(FakeServer.ok(me))
        )
      })
    )
    return Effect.gen(function*() {
      const client = yield* clientOf(Layer.succeed(HttpClient.HttpClient, inProcess))
      const error = yield* Effect.flip(client.users.me())
      expect(error._tag).toBe("TransportError")
      expect(error.message).toContain("HTTP status 302")
      expect(error.message).toContain("redirect")
      expect(paths).toEqual(["/external-api/v2/users/me"])
    })
  })

  it.effect("C4 A1 over fetch every request says redirect: manual, over the caller's own RequestInit", () => {
    const seen: Array<RequestInit | undefined> = []
    const fakeFetch = (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(init)
      return Promise.resolve(new Response(null, { status: 307, headers: { location: "https://elsewhere.invalid/" } }))
    }
    return Effect.gen(function*() {
      const client = yield* clientOf(FetchHttpClient.layer)
      const error = yield* Effect.flip(
        client.users.me().pipe(Effect.provideService(FetchHttpClient.RequestInit, { credentials: "omit" }))
      )
      expect(error._tag).toBe("TransportError")
      expect(error.message).toContain("HTTP status 307")
      expect(error.message).not.toContain(secret)
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({ redirect: "manual", credentials: "omit" })
    }).pipe(Effect.provideService(FetchHttpClient.Fetch, fakeFetch as typeof fetch))
  })

  it.live("C4 A1 over a real socket fetch does not follow a 302 to a page that would answer", () =>
    Effect.gen(function*() {
      const hits: Array<string> = []
      const server = yield* Effect.acquireRelease(
        Effect.callback<http.Server>((resume) => {
          const server = http.createServer((request, response) => {
            hits.push(request.url ?? "")
            if (request.url === "/external-api/v2/users/me") {
              response.writeHead(302, { location: "/landing" }).end()
            } else {
              response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(FakeServer.ok(me)))
            }
          })
          server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
        }),
        (server) =>
          Effect.callback<void>((resume) => {
            server.closeAllConnections()
            server.close(() => resume(Effect.void))
          })
      )
      const { port } = server.address() as AddressInfo
      const client = yield* clientOf(FetchHttpClient.layer, `http://127.0.0.1:${port}/external-api/v2`)
      const error = yield* Effect.flip(client.users.me())
      expect(error._tag).toBe("TransportError")
      expect(error.message).toContain("HTTP status 302")
      expect(hits).toEqual(["/external-api/v2/users/me"])
    }))

  it.live("C4 A1 over a real socket undici does not follow a 302 or a 307 to a page that would answer", () =>
    Effect.gen(function*() {
      const hits: Array<string> = []
      const hostile = yield* Hostile.serve((request, response, hit) => {
        hits.push(request.url ?? "")
        if (request.url === "/external-api/v2/users/me") {
          response.writeHead(hit === 0 ? 302 : 307, { location: "/landing" }).end()
        } else {
          response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(FakeServer.ok(me)))
        }
      })
      // Undici's dispatcher lives as long as the client's layer: the calls run inside it.
      yield* Effect.gen(function*() {
        const client = yield* CommunityApiClient.CommunityApiClient
        const found = yield* Effect.flip(client.users.me())
        expect(found._tag).toBe("TransportError")
        expect(found.message).toContain("HTTP status 302")
        const temporary = yield* Effect.flip(client.users.me())
        expect(temporary._tag).toBe("TransportError")
        expect(temporary.message).toContain("HTTP status 307")
        expect(temporary.message).not.toContain(secret)
      }).pipe(Effect.provide(Hostile.clientLayer(hostile, NodeHttpClient.layerUndici, { retry: Retry.never })))
      expect(hits).toEqual(["/external-api/v2/users/me", "/external-api/v2/users/me"])
    }))
})
