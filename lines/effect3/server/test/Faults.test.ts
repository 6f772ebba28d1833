import { HttpClientError, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { call, codeOf, createVariable, fails, ok, sendRequest, variableCount, withServer } from "./support.js"

const varCount = variableCount()

describe("faults", () => {
  it.effect("A6 keyServiceUnavailable with a probability is repeatable for a seed, and nothing is done", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const run = Effect.gen(function*() {
        yield* server.setFaults({ keyServiceUnavailable: { probability: 0.5, seed: 42 } })
        const codes: Array<number | string> = []
        for (let i = 0; i < 20; i++) codes.push(codeOf(yield* call("users/me")))
        return codes
      })
      const first = yield* run
      expect(first).toContain(9)
      expect(first).toContain("ok")
      expect(yield* run).toEqual(first)
      yield* server.clearFaults
      const before = yield* varCount
      yield* server.setFaults({ keyServiceUnavailable: { next: 1 } })
      expect((yield* createVariable()).body.error_code).toBe(9)
      expect(yield* varCount).toBe(before)
    }).pipe(withServer()))

  it.effect("X1 internalError before the action answers 101 and does nothing", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      const before = yield* varCount
      yield* server.setFaults({ internalError: { next: 2, paths: ["vars/create"] } })
      expect((yield* ok("users/me")).user_id).toBe(1001)
      expect(yield* Effect.map(createVariable(), (a) => a.body)).toEqual({
        status: "error",
        error: "Внутренняя ошибка сервера",
        error_code: 101
      })
      expect((yield* createVariable()).body.error_code).toBe(101)
      expect((yield* createVariable()).body.status).toBe("ok")
      expect(yield* varCount).toBe(before + 1)
    }).pipe(withServer()))

  it.effect("X1 internalError afterAction answers 101 although the action was performed", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ internalError: { next: 1, paths: ["bots/enable"], afterAction: true } })
      const bot = "b00000000000000000000001"
      expect((yield* fails("bots/enable", { bot_id: bot })).code).toBe(101)
      expect((yield* ok("bots/getById", { bot_id: bot })).active).toBe(1)
    }).pipe(withServer()))

  it.effect("fixed latency delays the answer on the Effect Clock", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ latency: { fixed: 5000 } })
      const fiber = yield* Effect.fork(call("users/me", {}, { pace: 0 }))
      yield* TestClock.adjust("4999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      const answer = yield* Fiber.join(fiber)
      expect(answer.body.status).toBe("ok")
      const log = yield* server.recentRequests
      // The entry's time is the request's arrival; its milliseconds include the latency.
      expect(log.at(-1)).toEqual({
        at: 0,
        path: "/external-api/v2/users/me",
        operation: "users/me",
        user: DemoFixture.userIds.owner,
        params: {},
        outcome: "ok",
        millis: 5000
      })
    }).pipe(withServer()))

  it.effect("random latency stays within its bounds", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ latency: { min: 100, max: 300, seed: 3 } })
      for (let i = 0; i < 10; i++) {
        const fiber = yield* Effect.fork(call("users/me", {}, { pace: 0 }))
        yield* TestClock.adjust("99 millis")
        expect(fiber.unsafePoll()).toBeNull()
        yield* TestClock.adjust("201 millis")
        expect((yield* Fiber.join(fiber)).body.status).toBe("ok")
      }
      const millis = (yield* server.recentRequests).map((e) => e.millis)
      expect(new Set(millis).size).toBeGreaterThan(1)
    }).pipe(withServer()))

  it.effect("dropConnection fails the in-process client with a transport error; afterAction performs it", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ dropConnection: { next: 1 } })
      const dropped = yield* Effect.exit(call("users/me"))
      expect(Exit.isFailure(dropped)).toBe(true)
      if (Exit.isFailure(dropped)) {
        const error = dropped.cause._tag === "Fail" ? dropped.cause.error : undefined
        expect(error).toBeInstanceOf(HttpClientError.RequestError)
        expect((error as HttpClientError.RequestError).reason).toBe("Transport")
      }
      expect((yield* ok("users/me")).user_id).toBe(1001)
      const before = yield* varCount
      yield* server.setFaults({ dropConnection: { next: 1, paths: ["vars/create"], afterAction: true } })
      expect(Exit.isFailure(yield* Effect.exit(createVariable()))).toBe(true)
      expect(yield* varCount).toBe(before + 1)
    }).pipe(withServer()))

  it.effect("faults are off by default, cleared by clearFaults and by reset", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      expect(yield* server.faults).toEqual({})
      yield* server.setFaults({ internalError: { next: 5 } })
      yield* server.clearFaults
      expect((yield* call("users/me")).body.status).toBe("ok")
      yield* server.setFaults({ internalError: { next: 5 } })
      yield* server.reset
      expect((yield* call("users/me")).body.status).toBe("ok")
    }).pipe(withServer()))

  it.effect("the control route /_sandbox/faults sets and clears faults; bad settings get 7", () =>
    Effect.gen(function*() {
      const control = (body: unknown) =>
        sendRequest(
          HttpClientRequest.post("http://reference.local/_sandbox/faults").pipe(
            HttpClientRequest.bearerToken(ReferenceServer.demoControlToken),
            HttpClientRequest.bodyUnsafeJson(body)
          )
        )
      expect((yield* control({ keyServiceUnavailable: { next: 1 } })).body.status).toBe("ok")
      expect((yield* call("users/me")).body.error_code).toBe(9)
      expect((yield* control({ keyServiceUnavailable: { next: -1 } })).body.error_code).toBe(7)
      expect((yield* control({ unknownFault: true })).body.error_code).toBe(7)
      yield* control({ internalError: { next: 3 } })
      expect((yield* control({})).body).toEqual({ status: "ok", response: {} })
      expect((yield* call("users/me")).body.status).toBe("ok")
      const reset = yield* sendRequest(
        HttpClientRequest.post("http://reference.local/_sandbox/reset").pipe(
          HttpClientRequest.bearerToken(ReferenceServer.demoControlToken)
        )
      )
      expect(reset.body).toEqual({ status: "ok" })
    }).pipe(withServer()))
})
