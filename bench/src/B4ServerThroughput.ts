/**
 * B4 server throughput: requests per second of `users/me` on the reference server against a bare
 * `node:http` handler that answers the same body, with the same load generator (keep-alive loops in a
 * child process) in the same run, rounds alternated. The load is spread over 1,000 users so that the
 * rate limit (30 per second per user) never answers instead of the operation. For reference, the
 * smallest `@effect/platform` app (one route answering the same body) runs in the same rounds: the
 * part of the gap that the platform itself sets.
 */
import { Effect } from "effect"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as LoadGenerator from "./internal/LoadGenerator.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { median, round } from "./internal/Stats.js"

const { users } = LoadGenerator.usersMe
const target = 0.5
const path = "/external-api/v2/users/me"

/** Runs B4. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  const bench = BenchFixture.make({ bots: 0, users })
  const reference = yield* Servers.reference(bench.fixture)
  // The bare server answers exactly what the reference server answers.
  const sample = (yield* LoadGenerator.sample(`${reference.origin}${path}`, bench.userTokens[0]!)).body
  const bare = yield* Servers.bare(sample)
  const platform = yield* Servers.platformMinimal(path, sample)
  const [referenceSide, bareSide, platformSide] = yield* LoadGenerator.rounds(
    [{ origin: reference.origin, path }, { origin: bare.origin, path }, { origin: platform.origin, path }],
    bench.userTokens,
    reference.reset
  )
  // The reference server's answers count when ok; the other two answer nothing else.
  const referenceRps = referenceSide.okPerSecond
  const bareRps = bareSide.completedPerSecond
  const platformRps = platformSide.completedPerSecond
  const referenceNotOk = referenceSide.notOk
  const failures = referenceSide.failures + bareSide.failures + platformSide.failures
  const ratio = median(referenceRps) / median(bareRps)
  const met = ratio >= target && referenceNotOk === 0
  return {
    id: "B4",
    title: "Server throughput",
    method: `${LoadGenerator.usersMeMethod}; the reference server, the bare node:http handler (same body) and, ` +
      "for reference, a one-route @effect/platform app (same body) in this process; median of the rounds.",
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
