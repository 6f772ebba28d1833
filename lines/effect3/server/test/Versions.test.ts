import { ApiError, Operations } from "@community-api/schema"
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { call, expectError, fails, main, ok, sendRequest, tokens, withServer } from "./support.js"

const raw = (path: string) =>
  Effect.map(
    sendRequest(
      HttpClientRequest.post(`http://reference.local${path}`).pipe(HttpClientRequest.bearerToken(tokens.owner))
    ),
    expectError
  )

describe("versions and error codes", () => {
  it.effect("V1 the unversioned address works like v2 for every documented operation", () =>
    Effect.gen(function*() {
      for (
        const [path, params] of [
          ["users/me", {}],
          ["groups/get", { count: 3 }],
          ["bots/get", { ...main, count: 3 }],
          ["mailings/get", main],
          ["vars/list", main],
          ["globalVars/list", main],
          ["landings/get", main],
          ["contacts/getBots", { ...main, uid: DemoFixture.subscriberUid }]
        ] as const
      ) {
        const v2 = yield* ok(path, params)
        const v1 = yield* ok(path, params, { version: "v1" })
        expect(v1).toEqual(v2)
      }
      expect((yield* fails("vars/create", { ...main, name: "x" }, { version: "v1" })).code).toBe(7)
    }).pipe(withServer()))

  it.effect("V2 an unknown version segment gives 1", () =>
    Effect.gen(function*() {
      expect(yield* raw("/external-api/v3/users/me")).toEqual({ code: 1, text: "Неизвестная версия API «v3»" })
      expect((yield* raw("/external-api/v1/users/me")).code).toBe(1)
      expect((yield* raw("/external-api/V2/users/me")).code).toBe(1)
      expect((yield* fails("users/me", {}, { version: "v3" })).code).toBe(1)
    }).pipe(withServer()))

  it.effect("V3 a missing or unknown section gives 1; an unknown method of a known section gives 3", () =>
    Effect.gen(function*() {
      expect(yield* raw("/external-api/v2/")).toEqual({ code: 1, text: "Не указан раздел или метод" })
      expect((yield* raw("/external-api/v2")).code).toBe(1)
      expect((yield* raw("/external-api/v2/users")).code).toBe(1)
      expect((yield* raw("/external-api/v2/users/")).code).toBe(1)
      expect(yield* raw("/external-api/v2/bogus/get")).toEqual({ code: 1, text: "Раздел «bogus» не существует" })
      expect(yield* raw("/external-api/v2/bots/fly")).toEqual({
        code: 3,
        text: "Метод «fly» не существует в разделе «bots»"
      })
      expect((yield* raw("/external-api/bots/fly")).code).toBe(3)
      expect((yield* raw("/external-api/v2/bots/get/extra")).code).toBe(1)
      expect((yield* raw("/elsewhere")).code).toBe(1)
      for (const section of Object.keys(Operations.sections)) {
        expect((yield* raw(`/external-api/v2/${section}/noSuchMethod`)).code).toBe(3)
      }
    }).pipe(withServer()))

  it.effect("X1 every code the server sends is documented and allowed for the operation", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ internalError: { probability: 0.1, seed: 7 } })
      for (const op of Operations.all) {
        for (const token of [tokens.owner, tokens.stat, tokens.noRole, undefined]) {
          const answer = yield* call(op.path, { ...main, uid: DemoFixture.subscriberUid }, { token, pace: 1000 })
          if (answer.body.status === "error") {
            expect(ApiError.isErrorCode(answer.body.error_code)).toBe(true)
            expect(op.errorCodes as ReadonlyArray<number>, `${op.path}: ${answer.body.error_code}`).toContain(
              answer.body.error_code
            )
          }
        }
      }
    }).pipe(withServer()))
})
