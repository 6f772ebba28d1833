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
import { CommunityApiClient, Pacing } from "@community-api/client"
import { Ids } from "@community-api/schema"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { performance } from "node:perf_hooks"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Clients from "./internal/Clients.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { median, round } from "./internal/Stats.js"

const users = 64
const target = 1.3

interface Case {
  readonly name: string
  readonly path: string
  readonly samples: number
  readonly warmup: number
  readonly params: Record<string, unknown>
  readonly call: (client: Clients.ClientOf) => Effect.Effect<unknown, unknown>
}

/** Calls in each round of the measure without a socket, and rounds (alternated, best kept). */
const isolatedCalls = 2000
const isolatedRounds = 5

/**
 * Microseconds per call of the client and of the platform's `HttpClient` alone, both over an
 * `HttpClient` that answers `body` at once: the client's own work, apart from the network and the server.
 */
const isolated = (baseUrl: string, path: string, body: string, call: Case["call"]) =>
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
      Effect.provideService(Pacing.Pacing, Pacing.unsafeMake({ limit: 1_000_000 })),
      Effect.provideService(HttpClient.HttpClient, answering)
    )
    const platform = answering.execute(
      HttpClientRequest.bodyUnsafeJson(HttpClientRequest.post(`${baseUrl}/${path}`), {})
    ).pipe(Effect.flatMap((response) => response.json))
    const perCall = (effect: Effect.Effect<unknown, unknown>) =>
      Effect.suspend(() => {
        const started = performance.now()
        return Effect.map(
          Effect.repeatN(effect, isolatedCalls - 1),
          () => ((performance.now() - started) / isolatedCalls) * 1000
        )
      })
    let clientMicros = Infinity
    let platformMicros = Infinity
    for (let i = 0; i < isolatedRounds; i++) {
      clientMicros = Math.min(clientMicros, yield* perCall(call(client)))
      platformMicros = Math.min(platformMicros, yield* perCall(platform))
    }
    return { clientMicros, platformMicros }
  }).pipe(
    // Measured without the runtime's periodic yields to the event loop, which cost as much as a call here.
    Effect.withMaxOpsBeforeYield(Number.MAX_SAFE_INTEGER)
  )

/** Runs B1. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  const bench = BenchFixture.make({ bots: 0, users })
  const server = yield* Servers.spawnReference({ bots: 500, users })
  const clients = yield* Effect.forEach(bench.userTokens, (token) => Clients.make(server.baseUrl, token))
  const http = yield* Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer)
  const page = { group_id: Ids.GroupId.make(BenchFixture.community.group_id), channel: "VK" as const, count: 500 }
  const cases: ReadonlyArray<Case> = [
    { name: "usersMe", path: "users/me", samples: 2000, warmup: 200, params: {}, call: (c) => c.users.me() },
    {
      name: "botsGet500",
      path: "bots/get",
      samples: 300,
      warmup: 60,
      params: { ...BenchFixture.community, count: 500 },
      call: (c) => c.bots.get(page)
    }
  ]

  const figures: Record<string, number> = {}
  const ratios: Array<number> = []
  yield* server.startRecording
  for (const c of cases) {
    const url = `${server.baseUrl}/${c.path}`
    const body = JSON.stringify(c.params)
    const millis: Array<Array<number>> = [[], [], []]
    for (let i = 0; i < c.warmup + c.samples; i++) {
      const user = i % users
      const token = bench.userTokens[user]!
      const sides = [
        Clients.timed(c.call(clients[user]!)),
        Effect.map(Effect.promise(() => Clients.rawTimed(url, token, body)), (raw) => raw.millis),
        Clients.timed(
          http.execute(
            HttpClientRequest.bodyUnsafeJson(
              HttpClientRequest.bearerToken(HttpClientRequest.post(url), token),
              c.params
            )
          ).pipe(Effect.flatMap((response) => response.json))
        )
      ]
      // Rotate which side goes first, so that none always follows another.
      for (let k = 0; k < sides.length; k++) {
        const side = (i + k) % sides.length
        const taken = yield* sides[side]!
        if (i >= c.warmup) millis[side]!.push(taken)
      }
    }
    const [clientMillis, rawMillis, platformMillis] = millis.map(median) as [number, number, number]
    // The median of the ratios of calls made side by side: a slow spell of the shared machine then
    // weighs on both sides of a ratio, not on one median.
    const ratio = median(millis[0]!.map((m, k) => m / millis[1]![k]!))
    ratios.push(ratio)
    figures[`${c.name}.clientMedianMs`] = round(clientMillis, 3)
    figures[`${c.name}.rawMedianMs`] = round(rawMillis, 3)
    figures[`${c.name}.ratio`] = round(ratio, 3)
    figures[`${c.name}.ratioOfMedians`] = round(clientMillis / rawMillis, 3)
    figures[`${c.name}.platformHttpClientMedianMs`] = round(platformMillis, 3)
    figures[`${c.name}.samples`] = c.samples
    const sample = yield* Effect.promise(() => Clients.rawTimed(url, bench.userTokens[0]!, body))
    const own = yield* isolated(server.baseUrl, c.path, JSON.stringify(sample.value), c.call)
    figures[`${c.name}.isolatedClientMicrosPerCall`] = Math.round(own.clientMicros)
    figures[`${c.name}.isolatedPlatformMicrosPerCall`] = Math.round(own.platformMicros)
  }
  const notOk = (yield* server.stopRecording).filter((e) => e.outcome !== "ok").length
  figures["serverAnswersNotOk"] = notOk
  const worst = Math.max(...ratios)
  const met = worst <= target && notOk === 0
  return {
    id: "B1",
    title: "Client overhead",
    method:
      `Sequential calls interleaved client/raw/platform (order rotated), spread over ${users} users so that no call ` +
      "waits for the rate limit; client over fetch (FetchHttpClient), raw = fetch + JSON.parse, and for reference " +
      "@effect/platform's HttpClient alone over the same fetch; after a warm-up; ratio = median of the " +
      "per-iteration client/raw ratios (ratio of the medians given too); the server in a child process. " +
      `Isolated: ${isolatedCalls} calls per round, best of ${isolatedRounds} alternated rounds, through an ` +
      "HttpClient answering at once with the server's bytes: the client's own microseconds per call against the " +
      "platform's HttpClient alone.",
    figures,
    target: `client/raw latency ratio (median) <= ${target} for users/me and a 500-item bots/get page`,
    met,
    headline: `users/me ${figures["usersMe.ratio"]}x, bots/get 500 ${figures["botsGet500.ratio"]}x`,
    ...(met ? {} : {
      note: `worst ratio ${round(worst, 3)} is ${round((worst / target - 1) * 100, 1)}% over the target` +
        (notOk > 0 ? `; ${notOk} server answers were not ok` : "")
    })
  }
}))
