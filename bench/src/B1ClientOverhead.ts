/**
 * B1 client overhead: the median latency of `users/me` and of a 500-item `bots/get` page through the
 * client against raw `fetch` plus `JSON.parse`, on the same server, interleaved in one run.
 *
 * The calls are sequential (one at a time) and spread round-robin over 64 users, so that neither side
 * ever meets the rate limit (each user stays far below 30 per second): the figure is the cost of the
 * client's encoding, pacing bookkeeping, decoding and error typing, not of waiting. A third side,
 * `@effect/platform`'s `HttpClient` alone (same fetch, `response.json`, no contract), tells how much of
 * the overhead is the platform's and how much the client's own.
 *
 * For information, the client's own work per call is also measured apart from any socket: the same
 * calls through an `HttpClient` that answers at once with the bytes the server sent, against the
 * platform's `HttpClient` alone through the same one (CPU time per call, no waiting in it).
 */
import { CommunityApiClient, Pacing, PermitStore } from "@community-api/client"
import { Ids } from "@community-api/schema"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { performance } from "node:perf_hooks"
import * as Workload from "./internal/B1Workload.js"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Clients from "./internal/Clients.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"

type Call = (client: Clients.ClientOf) => Effect.Effect<unknown, unknown>

/**
 * Microseconds per call of the client and of the platform's `HttpClient` alone, both over an
 * `HttpClient` that answers `body` at once: the client's own work, apart from the network and the server.
 */
const isolated = (baseUrl: string, path: string, body: string, call: Call) =>
  Effect.gen(function*() {
    const answering = HttpClient.make((request) =>
      Effect.sync(() =>
        HttpClientResponse.fromWeb(
          request,
          new Response(body, {
            status: 200,
            headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
          })
        )
      )
    )
    // Permits enough that no call waits: the permit is taken and given back as always.
    const client = yield* CommunityApiClient.make({ baseUrl, token: Redacted.make("thp_isolated") }).pipe(
      // A store of a million permits of its own: the pacing's options refuse a limit above the API's.
      Effect.provideServiceEffect(
        Pacing.Pacing,
        Effect.provideService(
          Pacing.makeFromStore(),
          PermitStore.PermitStore,
          PermitStore.unsafeMakeMemory({ limit: 1_000_000 })
        )
      ),
      Effect.provideService(HttpClient.HttpClient, answering)
    )
    const platform = answering.execute(
      HttpClientRequest.bodyUnsafeJson(HttpClientRequest.post(`${baseUrl}/${path}`), {})
    ).pipe(Effect.flatMap((response) => response.json))
    const perCall = (effect: Effect.Effect<unknown, unknown>) => () =>
      Effect.runPromise(
        Effect.suspend(() => {
          let left = Workload.isolatedCalls
          const started = performance.now()
          return Effect.map(
            Effect.whileLoop({ while: () => left-- > 0, body: () => effect, step: () => undefined }),
            () => ((performance.now() - started) / Workload.isolatedCalls) * 1000
          )
        }).pipe(
          // Measured without the runtime's periodic yields to the event loop, which cost as much as a call here.
          Effect.withMaxOpsBeforeYield(Number.MAX_SAFE_INTEGER)
        )
      )
    return yield* Effect.promise(() => Workload.bestOfRounds(perCall(call(client)), perCall(platform)))
  })

/** Runs B1 (`id` and `title` name the entry: the lines comparison runs it under its own). */
export const runAs = (options: { readonly id: string; readonly title: string }): Effect.Effect<Result, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    const bench = BenchFixture.make({ bots: 0, users: Workload.users })
    const server = yield* Servers.spawnReference({ bots: Workload.bots, users: Workload.users })
    const clients = yield* Effect.forEach(bench.userTokens, (token) => Clients.make(server.baseUrl, token))
    const http = yield* Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer)
    const page = { group_id: Ids.GroupId.make(BenchFixture.community.group_id), channel: "VK" as const, count: 500 }
    const calls: Record<Workload.Case["name"], Call> = {
      usersMe: (c) => c.users.me(),
      botsGet500: (c) => c.bots.get(page)
    }
    const figures: Record<string, number> = {}
    yield* server.startRecording
    for (const c of Workload.cases(BenchFixture.community)) {
      const url = `${server.baseUrl}/${c.path}`
      const body = JSON.stringify(c.params)
      const millis = yield* Effect.promise((signal) =>
        Workload.interleave(c, [
          (user) => Effect.runPromise(Clients.timed(calls[c.name](clients[user]!))),
          (user) => Workload.rawTimed(url, bench.userTokens[user]!, body).then((raw) => raw.millis),
          (user) =>
            Effect.runPromise(Clients.timed(
              http.execute(
                HttpClientRequest.bodyUnsafeJson(
                  HttpClientRequest.bearerToken(HttpClientRequest.post(url), bench.userTokens[user]!),
                  c.params
                )
              ).pipe(Effect.flatMap((response) => response.json))
            ))
        ], signal)
      )
      const sample = yield* Effect.promise(() => Workload.rawTimed(url, bench.userTokens[0]!, body))
      const own = yield* isolated(server.baseUrl, c.path, JSON.stringify(sample.value), calls[c.name])
      Object.assign(figures, Workload.caseFigures(c, millis, own))
    }
    const notOk = (yield* server.stopRecording).filter((e) => e.outcome !== "ok").length
    return Workload.report(figures, notOk, { ...options, platform: "@effect/platform's HttpClient" })
  }))

/** Runs B1. */
export const run: Effect.Effect<Result, unknown> = runAs({ id: "B1", title: "Client overhead" })
