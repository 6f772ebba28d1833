/**
 * The reference server in process on the Effect 4 line, driven by Effect 4's `TestClock`: its
 * creation minute, its token validity and its injected latency move only when the test moves the
 * clock; and its engine (the Effect 3 server, bundled) answers as the sandbox does.
 */
import * as DemoData from "@community-api/core/DemoData"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { TestClock } from "effect/testing"
import * as ReferenceServer from "../src/ReferenceServer.js"

let names = 0

interface Answer {
  readonly status: string
  readonly error_code?: number
  readonly error?: string
  readonly response?: unknown
}

const call = (path: string, params: Record<string, unknown>) =>
  HttpClient.HttpClient.pipe(
    Effect.flatMap((client) =>
      client.execute(
        HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/${path}`).pipe(
          HttpClientRequest.bearerToken(DemoData.tokens.owner),
          HttpClientRequest.bodyJsonUnsafe(params)
        )
      )
    ),
    Effect.flatMap((response) => response.json),
    Effect.map((json) => json as unknown as Answer)
  )

const createVariable = () =>
  call("vars/create", { ...DemoData.mainCommunity, title: "Переменная", name: `effect4_${++names}` })

const control = (path: string, body: unknown) =>
  HttpClient.HttpClient.pipe(
    Effect.flatMap((client) =>
      client.execute(
        HttpClientRequest.post(`http://reference.local/_sandbox/${path}`).pipe(
          HttpClientRequest.bearerToken(ReferenceServer.demoControlToken),
          HttpClientRequest.bodyJsonUnsafe(body)
        )
      )
    ),
    Effect.flatMap((response) => response.json)
  )

describe("the reference server on Effect 4's TestClock", () => {
  it.effect("L2 the journal and the limits, on the TestClock's time, with no token in them", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* TestClock.setTime(Date.UTC(2026, 2, 10, 12, 0, 30))
      yield* call("users/me", {})
      yield* createVariable()
      const journal = yield* server.journal({ operation: "vars/create" })
      expect(journal.entries).toHaveLength(1)
      expect(journal.entries[0]).toMatchObject({
        at: Date.UTC(2026, 2, 10, 12, 0, 30),
        operation: "vars/create",
        user: DemoData.userIds.owner,
        outcome: "ok"
      })
      expect(JSON.stringify(yield* server.journal())).not.toContain(DemoData.tokens.owner)
      const [limits] = yield* server.limits(DemoData.userIds.owner)
      expect(limits?.minute).toEqual({ count: 1, limit: 20, resetsAt: Date.UTC(2026, 2, 10, 12, 1) })
      yield* server.clearJournal
      expect((yield* server.journal()).entries).toEqual([])
    }).pipe(Effect.provide(ReferenceServer.layerTest())))

  it.effect("E1 users/me answers for the demo owner's token", () =>
    Effect.gen(function*() {
      const answer = yield* call("users/me", {})
      expect(answer).toMatchObject({ status: "ok", response: { user_id: DemoData.userIds.owner } })
    }).pipe(Effect.provide(ReferenceServer.layerTest())))

  it.effect("L2 L4 20 creations a minute, the 21st refused with 5, one again once TestClock moves to the next minute", () =>
    Effect.gen(function*() {
      // The test clock starts at the epoch: a minute starts at 0.
      for (let i = 0; i < 20; i++) expect((yield* createVariable()).status).toBe("ok")
      expect(yield* createVariable()).toEqual({
        status: "error",
        error: "Слишком много созданий: не более 20 в минуту",
        error_code: 5
      })
      yield* TestClock.adjust(59_999)
      expect((yield* createVariable()).error_code).toBe(5)
      yield* TestClock.adjust(1)
      expect((yield* createVariable()).status).toBe("ok")
    }).pipe(Effect.provide(ReferenceServer.layerTest())))

  it.effect("injected latency waits on the TestClock: no answer until the clock has moved the whole delay", () =>
    Effect.gen(function*() {
      yield* control("faults", { latency: { fixed: 5000 } })
      const fiber = yield* Effect.forkChild(call("users/me", {}))
      yield* ReferenceServer.awaitWaits(1)
      yield* TestClock.adjust(4999)
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      expect(yield* Fiber.join(fiber)).toMatchObject({ status: "ok" })
    }).pipe(Effect.provide(ReferenceServer.layerTest())))

  it.effect("its HttpClient answers in process even in a build that also makes a FetchHttpClient.layer over the network", () =>
    Effect.gen(function*() {
      // A program's own `FetchHttpClient.layer` (for a real API) built first must not stand in for the server's.
      expect((yield* call("users/me", {})).status).toBe("ok")
      expect(yield* Effect.flatMap(ReferenceServer.ReferenceServer, (server) => server.requestCount)).toBe(1)
    }).pipe(Effect.provide(ReferenceServer.layerTest().pipe(Layer.provide(FetchHttpClient.layer)))))
})
