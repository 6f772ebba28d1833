/**
 * B4 server throughput: requests per second of `users/me` on the reference server against a bare
 * `node:http` handler that answers the same body, with the same load generator (keep-alive loops in a
 * child process) in the same run, rounds alternated. The load is spread over 1,000 users so that the
 * rate limit (30 per second per user) never answers instead of the operation. For reference, the
 * smallest `@effect/platform` app (one route answering the same body) runs in the same rounds: the
 * part of the gap that the platform itself sets.
 */
import { Duration, Effect } from "effect"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as LoadGenerator from "./internal/LoadGenerator.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { median, round } from "./internal/Stats.js"

const users = 1000
const connections = 16
const rounds = 2
const warmupMillis = 1000
const durationMillis = 4000
const target = 0.5
const path = "/external-api/v2/users/me"

/** Runs B4. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  const bench = BenchFixture.make({ bots: 0, users })
  const reference = yield* Servers.reference(bench.fixture)
  // The bare server answers exactly what the reference server answers.
  const sample = yield* Effect.promise(() =>
    fetch(`${reference.origin}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${bench.userTokens[0]!}`, "content-type": "application/json" },
      body: "{}"
    }).then((response) => response.text())
  )
  const bare = yield* Servers.bare(sample)
  const platform = yield* Servers.platformMinimal(path, sample)
  const job = (origin: string): LoadGenerator.Job => ({
    origin,
    path,
    tokens: bench.userTokens,
    body: "{}",
    connections,
    warmupMillis,
    durationMillis
  })
  const referenceRps: Array<number> = []
  const bareRps: Array<number> = []
  const platformRps: Array<number> = []
  let referenceNotOk = 0
  let failures = 0
  for (let i = 0; i < rounds; i++) {
    yield* reference.reset
    const r = yield* LoadGenerator.run(job(reference.origin))
    referenceRps.push((r.ok / r.elapsedMillis) * 1000)
    referenceNotOk += r.completed - r.ok
    failures += r.failures
    const b = yield* LoadGenerator.run(job(bare.origin))
    bareRps.push((b.completed / b.elapsedMillis) * 1000)
    failures += b.failures
    const p = yield* LoadGenerator.run(job(platform.origin))
    platformRps.push((p.completed / p.elapsedMillis) * 1000)
    failures += p.failures
    yield* Effect.sleep(Duration.millis(100))
  }
  const ratio = median(referenceRps) / median(bareRps)
  const met = ratio >= target && referenceNotOk === 0
  return {
    id: "B4",
    title: "Server throughput",
    method: `users/me over ${connections} keep-alive connections from a load generator in a child process, ${rounds} ` +
      `alternated rounds of ${durationMillis / 1000} s (after ${
        warmupMillis / 1000
      } s warm-up) per server, tokens of ` +
      `${users} users round-robin; the reference server, the bare node:http handler (same body) and, for reference, a one-route ` +
      "@effect/platform app (same body) in this process; median of the rounds.",
    figures: {
      referenceRps: Math.round(median(referenceRps)),
      bareRps: Math.round(median(bareRps)),
      ratio: round(ratio, 3),
      referenceRpsRounds: referenceRps.map((x) => Math.round(x)).join(" "),
      bareRpsRounds: bareRps.map((x) => Math.round(x)).join(" "),
      platformMinimalRps: Math.round(median(platformRps)),
      platformMinimalOverBare: round(median(platformRps) / median(bareRps), 3),
      referenceAnswersNotOk: referenceNotOk,
      transportFailures: failures,
      bodyBytes: Buffer.byteLength(sample)
    },
    target: `reference/bare requests per second >= ${target}`,
    met,
    headline: `${Math.round(median(referenceRps))} vs ${Math.round(median(bareRps))} req/s, ratio ${round(ratio, 3)}`,
    ...(met ? {} : {
      note: `ratio ${round(ratio, 3)} is ${round((1 - ratio / target) * 100, 1)}% under the ${target} target` +
        `; a one-route @effect/platform app reaches ${
          round(median(platformRps) / median(bareRps), 3)
        } of the bare handler, so the platform alone sets that ceiling and the rest is the reference server's ` +
        "request pipeline" +
        (referenceNotOk > 0 ? `; ${referenceNotOk} reference answers were not ok` : "")
    })
  }
}))
