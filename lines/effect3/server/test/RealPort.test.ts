import { HttpServer } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Http from "node:http"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"

const main = DemoFixture.mainCommunity
const owner = DemoFixture.tokens.owner

const baseUrl = HttpServer.HttpServer.pipe(
  Effect.map((server) => {
    const address = server.address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    return `http://127.0.0.1:${address.port}`
  })
)

const fetchJson = (url: string, init: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { status: response.status, body: await response.json() as any }
  })

const served = Effect.provide(ReferenceServer.layerServe({ port: 0 }))

describe("on a real port", () => {
  it.live("C2 A2 raw requests as JSON, urlencoded, multipart and query string reach the server", () =>
    Effect.gen(function*() {
      const root = yield* baseUrl
      const url = `${root}/external-api/v2/vars/list`
      const json = yield* fetchJson(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${owner}` },
        body: JSON.stringify({ ...main, count: 2 })
      })
      expect(json.status).toBe(200)
      expect(json.body.response.items).toHaveLength(2)
      const form = yield* fetchJson(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `group_id=${main.group_id}&channel=vk&count=3&api_key=${owner}`
      })
      expect(form.body.response.items).toHaveLength(3)
      const multipart = new FormData()
      multipart.append("group_id", String(main.group_id))
      multipart.append("channel", "VK")
      multipart.append("api_key", owner)
      const parts = yield* fetchJson(url, { method: "POST", body: multipart })
      expect(parts.body.response.total).toBe(4)
      const query = yield* fetchJson(`${url}?group_id=${main.group_id}&channel=VK&count=1&api_key=${owner}`, {
        method: "POST"
      })
      expect(query.body.response.items).toHaveLength(1)
    }).pipe(served))

  it.live("C4 V2 V3 malformed requests on a port get HTTP 200 and an error envelope", () =>
    Effect.gen(function*() {
      const root = yield* baseUrl
      const cases: Array<[string, RequestInit, number]> = [
        [
          "/external-api/v2/users/me",
          { method: "POST", headers: { "content-type": "application/json" }, body: "{" },
          4
        ],
        [
          "/external-api/v2/users/me",
          { method: "POST", headers: { authorization: `Bearer ${owner}`, "content-type": "text/csv" }, body: "a,b" },
          7
        ],
        ["/external-api/v2/users/me", { method: "GET" }, 1],
        ["/external-api/v3/users/me", { method: "POST" }, 1],
        ["/external-api/v2/users/who", { method: "POST" }, 3],
        ["/favicon.ico", { method: "GET" }, 1],
        [
          "/external-api/v2/users/me",
          { method: "POST", headers: { authorization: `Bearer ${owner}` }, body: "x".repeat(2 * 1024 * 1024) },
          7
        ]
      ]
      for (const [path, init, code] of cases) {
        const answer = yield* fetchJson(`${root}${path}`, init)
        expect(answer.status).toBe(200)
        expect(answer.body.status).toBe("error")
        expect(answer.body.error_code, path).toBe(code)
        expect(JSON.stringify(answer.body)).not.toMatch(/at \w+ \(|node:internal|\.ts:/)
      }
    }).pipe(served))

  it.live("C4 a chunked body over 1 MiB is drained and answered with HTTP 200 and error 7", () =>
    Effect.gen(function*() {
      const root = yield* baseUrl
      const answer = yield* Effect.async<{ status: number; body: any }>((resume) => {
        const request = Http.request(`${root}/external-api/v2/users/me`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" }
        }, (response) => {
          let text = ""
          response.on("data", (chunk) => (text += chunk))
          response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, body: JSON.parse(text) })))
        })
        for (let i = 0; i < 40; i++) request.write("x".repeat(64 * 1024))
        request.end()
      })
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ status: "error", error: "Тело запроса больше 1048576 байт", error_code: 7 })
    }).pipe(served))

  it.live("X1 a dropped connection on a port destroys the socket with no answer", () =>
    Effect.gen(function*() {
      const root = yield* baseUrl
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ dropConnection: { next: 1 } })
      const url = `${root}/external-api/v2/users/me`
      const init = { method: "POST", headers: { authorization: `Bearer ${owner}` } }
      const dropped = yield* Effect.either(Effect.tryPromise(() => fetch(url, init)))
      expect(dropped._tag).toBe("Left")
      const after = yield* fetchJson(url, init)
      expect(after.body.response.user_id).toBe(DemoFixture.userIds.owner)
    }).pipe(served))
})
