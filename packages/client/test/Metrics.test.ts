/**
 * The client's metrics, scraped from a real Prometheus endpoint (the OpenTelemetry exporter through
 * `@effect/opentelemetry`, as `docs/client.md` shows it) while clients call the reference server in
 * process on the `TestClock`: calls by operation and outcome, a retry after error 9 and one after
 * error 5, the server's refusal and the client's own quota refusal, the permit waits, the aggregated
 * gauges, and the per-user series with their bound and their eviction.
 */
import { GroupId } from "@community-api/schema/Ids"
import * as Demo from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Schedule, TestClock } from "effect"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Prometheus from "./support/Prometheus.js"
import * as Reference from "./support/Reference.js"

const main = { group_id: GroupId.make(Demo.mainCommunity.group_id), channel: Demo.mainCommunity.channel }
const quick = {
  retry: { schedule: Schedule.spaced(Duration.millis(100)).pipe(Schedule.intersect(Schedule.recurs(3))) }
}

const calls = "community_api_client_calls_total"
const retries = "community_api_client_retries_total"
const refusals = "community_api_client_refusals_total"
const permitWait = "community_api_client_permit_wait_ms"
const users = "community_api_client_users"
const permitsHeld = "community_api_client_permits_held"
const userPermitsHeld = "community_api_client_user_permits_held"

/** Runs `body` with the Prometheus endpoint of the docs on a free loopback port. */
const withEndpoint = <A, E, R>(body: (port: number) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Prometheus.freePort, (port) => Effect.provide(body(port), Prometheus.layer(port)))

describe("Metrics", () => {
  it.effect(
    "L1 L2 A6 calls, retries, refusals and permit waits reach a real Prometheus endpoint",
    () =>
      withEndpoint((port) =>
        Effect.gen(function*() {
          const server = yield* ReferenceServer.ReferenceServer
          const client = yield* Reference.as(Demo.tokens.owner, { ...quick, onCreationLimit: "fail" })
          // Another process's limiter for the same user: its request is the one the server refuses.
          const other = yield* Reference.as(Demo.tokens.owner, quick).pipe(Effect.provide(Pacing.layer()))
          const before = yield* Prometheus.scrape(port)
          const delta = (after: ReadonlyArray<Prometheus.Sample>, name: string, labels = {}) =>
            Prometheus.valueOf(after, name, labels) - Prometheus.valueOf(before, name, labels)

          // Error 9 once: retried, then answered.
          yield* server.setFaults({ keyServiceUnavailable: { next: 1 } })
          const first = yield* Effect.fork(client.users.me())
          yield* TestClock.adjust(Duration.seconds(1))
          yield* Fiber.join(first)
          yield* server.clearFaults
          yield* TestClock.adjust(Duration.seconds(2))

          // 30 requests fill the window; the other limiter's request is refused with 5 and sent again.
          yield* Effect.all(Array.from({ length: 30 }, () => client.users.me()), { concurrency: "unbounded" })
          const refused = yield* Effect.fork(other.users.me())
          yield* TestClock.adjust(Duration.seconds(3))
          yield* Fiber.join(refused)

          // 20 creations fill the minute; the 21st is refused by the client's own quota, unsent.
          for (let i = 0; i < 20; i++) yield* client.lists.create({ ...main, name: `metrics_${i}` })
          const quota = yield* Effect.flip(client.lists.create({ ...main, name: "metrics_20" }))
          expect(quota._tag).toBe("CreationQuotaExceeded")

          const after = yield* Prometheus.scrape(port)
          expect(delta(after, calls, { operation: "users/me", outcome: "ok" })).toBe(32)
          expect(delta(after, calls, { operation: "lists/create", outcome: "ok" })).toBe(20)
          expect(delta(after, calls, { operation: "lists/create", outcome: "quota" })).toBe(1)
          expect(delta(after, retries, { reason: "9" })).toBe(1)
          expect(delta(after, retries, { reason: "5" })).toBe(1)
          expect(delta(after, refusals, { kind: "rate", source: "server" })).toBe(1)
          expect(delta(after, refusals, { kind: "minute", source: "client" })).toBe(1)
          // A permit per attempt sent: 2 + 30 + 2 + 20; only the refused request's second attempt
          // waited, for the whole block after its refusal (a window and the margin).
          expect(delta(after, `${permitWait}_count`)).toBe(54)
          expect(delta(after, `${permitWait}_bucket`, { le: "1" })).toBe(53)
          expect(delta(after, `${permitWait}_sum`)).toBe(
            Duration.toMillis(Pacing.defaults.window) + Duration.toMillis(Pacing.defaults.margin)
          )
          // Nothing in flight: no permit held. No per-user series unless asked for.
          expect(Prometheus.valueOf(after, permitsHeld)).toBe(0)
          expect(after.some((sample) => sample.name === userPermitsHeld)).toBe(false)
        }).pipe(Effect.provide(Reference.environment()))
      )
  )

  it.effect(
    "L1 per-user series only when asked for, at most their bound, and gone once the user is evicted",
    () =>
      withEndpoint((port) =>
        Effect.gen(function*() {
          const server = yield* ReferenceServer.ReferenceServer
          const as = (userKey: string) => Reference.as(Demo.tokens.owner, { userKey })
          const [alpha, beta, gamma] = yield* Effect.all([as("alpha"), as("beta"), as("gamma")])
          const usersBefore = Prometheus.valueOf(yield* Prometheus.scrape(port), users)
          // Each answer takes 100 ms: the calls hold their permits meanwhile.
          yield* server.setFaults({ latency: { fixed: 100 } })
          const inFlight = yield* Effect.fork(
            Effect.all([alpha.users.me(), alpha.users.me(), beta.users.me(), gamma.users.me()], {
              concurrency: "unbounded"
            })
          )
          yield* TestClock.adjust(Duration.millis(50))
          const during = yield* Prometheus.scrape(port)
          expect(Prometheus.valueOf(during, userPermitsHeld, { user: "alpha" })).toBe(2)
          expect(Prometheus.valueOf(during, userPermitsHeld, { user: "beta" })).toBe(1)
          // The bound is 2 users: the third has none, and is counted in the aggregated series only.
          expect(during.some((sample) => sample.name === userPermitsHeld && sample.labels.user === "gamma")).toBe(
            false
          )
          expect(Prometheus.valueOf(during, permitsHeld)).toBe(4)
          expect(Prometheus.valueOf(during, users) - usersBefore).toBe(3)
          yield* TestClock.adjust(Duration.millis(100))
          yield* Fiber.join(inFlight)

          // Idle past a window and the margin: the users leave memory, and their series with them.
          yield* TestClock.adjust(Duration.seconds(3))
          const idle = yield* Prometheus.scrape(port)
          expect(idle.some((sample) => sample.name === userPermitsHeld)).toBe(false)
          expect(Prometheus.valueOf(idle, users) - usersBefore).toBe(0)

          // A place freed: the third user now has its series.
          const again = yield* Effect.fork(gamma.users.me())
          yield* TestClock.adjust(Duration.millis(50))
          expect(Prometheus.valueOf(yield* Prometheus.scrape(port), userPermitsHeld, { user: "gamma" })).toBe(1)
          yield* TestClock.adjust(Duration.millis(100))
          yield* Fiber.join(again)
        }).pipe(
          Effect.provide(
            Layer.mergeAll(
              ReferenceServer.layerTest(),
              Pacing.layer({ metrics: { perUser: { max: 2 } } }),
              CreationQuota.layer()
            )
          )
        )
      )
  )
})
