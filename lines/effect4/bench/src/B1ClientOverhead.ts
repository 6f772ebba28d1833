/**
 * B1 client overhead on the Effect 4 line: the workload, harness and report of the Effect 3 line's
 * (`@community-api/bench/B1Workload`), with this line's client and `effect/http`'s `HttpClient` as
 * the sides beside raw `fetch` plus `JSON.parse`, against the same reference server in a child process.
 */
import * as Workload from "@community-api/bench/B1Workload"
import * as BenchFixture from "@community-api/bench/BenchFixture"
import * as ReferenceChild from "@community-api/bench/ReferenceChild"
import type { Result } from "@community-api/bench/Result"
import { CommunityApiClient, Pacing } from "@community-api/effect4-client"
import { Ids } from "@community-api/effect4-schema"
import { Effect, Redacted, References } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { performance } from "node:perf_hooks"
import * as Clients from "./internal/Clients.js"

type Call = (client: Clients.Client) => Effect.Effect<unknown, unknown>

/**
 * Microseconds per call of the client and of `effect/http`'s `HttpClient` alone, both over an
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
      Effect.provideService(Pacing.Pacing, Pacing.makeUnsafe({ limit: 1_000_000 })),
      Effect.provideService(HttpClient.HttpClient, answering)
    )
    const platform = answering.execute(
      HttpClientRequest.bodyJsonUnsafe(HttpClientRequest.post(`${baseUrl}/${path}`), {})
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
          // Measured without the runtime's yields to the event loop, which cost as much as a call here.
          Effect.provideService(References.PreventSchedulerYield, true)
        )
      )
    return yield* Effect.promise(() => Workload.bestOfRounds(perCall(call(client)), perCall(platform)))
  })

/** Runs B1 under the entry `id` and `title`. */
export const run = (options: { readonly id: string; readonly title: string }): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const bench = BenchFixture.make({ bots: 0, users: Workload.users })
    const server = yield* Effect.acquireRelease(
      Effect.promise(() => ReferenceChild.spawn({ bots: Workload.bots, users: Workload.users })),
      (server) => Effect.sync(server.close)
    )
    const clients = yield* Effect.forEach(bench.userTokens, (token) => Clients.make(server.baseUrl, token))
    const http = yield* Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer)
    const page = { group_id: Ids.GroupId.make(BenchFixture.community.group_id), channel: "VK" as const, count: 500 }
    const calls: Record<Workload.Case["name"], Call> = {
      usersMe: (c) => c.users.me(),
      botsGet500: (c) => c.bots.get(page)
    }
    const figures: Record<string, number> = {}
    yield* Effect.promise(server.startRecording)
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
                HttpClientRequest.bodyJsonUnsafe(
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
    const notOk = (yield* Effect.promise(server.stopRecording)).filter((e) => e.outcome !== "ok").length
    return Workload.report(figures, notOk, { ...options, platform: "effect/http's HttpClient" })
  }).pipe(Effect.scoped)
