/**
 * A `ReferenceServer` put together by hand from its documented parts, through the public API only:
 * the service's members are all the HTTP app needs, so a service assembled from them, with a control
 * wrapped, answers like the one `make` returns, and shares its state.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { DemoFixture, InProcess, ReferenceServer } from "../src/index.js"

const usersMe = Effect.flatMap(HttpClient.HttpClient, (client) =>
  client.execute(
    HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/users/me`).pipe(
      HttpClientRequest.bearerToken(DemoFixture.tokens.owner)
    )
  ).pipe(Effect.flatMap((response) => response.json), Effect.scoped))

/** The tag given `service`, and an in-process client over the app it serves. */
const serving = (service: ReferenceServer.Service) =>
  Layer.provideMerge(
    InProcess.layerHttpClient(ReferenceServer.httpApp),
    Layer.succeed(ReferenceServer.ReferenceServer, service)
  )

describe("a ReferenceServer built by hand", () => {
  it.effect("E1 built member by member from one made by make, a control wrapped, it answers on the same state", () =>
    Effect.gen(function*() {
      const made = yield* ReferenceServer.make()
      let resets = 0
      const service: ReferenceServer.Service = {
        reset: Effect.zipRight(Effect.sync(() => resets++), made.reset),
        load: made.load,
        setFaults: made.setFaults,
        clearFaults: made.clearFaults,
        faults: made.faults,
        snapshot: made.snapshot,
        revokeToken: made.revokeToken,
        issueToken: made.issueToken,
        requestCount: made.requestCount,
        recentRequests: made.recentRequests,
        journal: made.journal,
        clearJournal: made.clearJournal,
        limits: made.limits,
        app: made.app
      }
      yield* Effect.gen(function*() {
        expect(yield* usersMe).toEqual({
          status: "ok",
          response: { user_id: DemoFixture.userIds.owner, auth: "personal_token", client_id: "personal" }
        })
        const server = yield* ReferenceServer.ReferenceServer
        expect(yield* server.requestCount).toBe(1)
        yield* server.reset
        expect(resets).toBe(1)
        expect(yield* made.requestCount).toBe(0)
      }).pipe(Effect.provide(serving(service)))
    }))

  it.effect("A4 built from make, the tag and httpApp as layers, its control service and its app share one state", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.revokeToken(DemoFixture.tokens.owner)
      // Never validated before, the revoked token is refused at once: the app reads the service's state.
      expect(yield* usersMe).toMatchObject({ status: "error", error_code: 4 })
      expect(yield* server.recentRequests).toEqual([
        { at: 0, path: "/external-api/v2/users/me", operation: "users/me", outcome: 4, millis: 0 }
      ])
    }).pipe(
      Effect.provide(
        Layer.provideMerge(
          InProcess.layerHttpClient(ReferenceServer.httpApp),
          Layer.effect(ReferenceServer.ReferenceServer, ReferenceServer.make())
        )
      )
    ))
})
