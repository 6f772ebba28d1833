/**
 * B7 what users feel of the sandbox: calls per second of the client through the in-process bridge (how
 * their tests use the reference server: `ReferenceServer.layerTest`, no socket), next to the same
 * client over `fetch` against the sandbox on a port; and the sandbox against Stoplight Prism's mock
 * server serving the same `openapi.json`, the mock server they would otherwise pick, with the same load
 * generator in the same run.
 */
import { CommunityApiClient, CreationQuota, Pacing } from "@community-api/client"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { Effect, Layer, Redacted } from "effect"
import { performance } from "node:perf_hooks"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Clients from "./internal/Clients.js"
import * as LoadGenerator from "./internal/LoadGenerator.js"
import * as Processes from "./internal/Processes.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import { median, round } from "./internal/Stats.js"

/** Users whose tokens the calls go round: 30 a second each is far more than any side here asks of one. */
const { users } = LoadGenerator.usersMe
/** How long each side of the client's figures calls. */
const callMillis = 3000
const concurrentFibers = 16

/** Calls of `call(i)` for {@link callMillis}, one at a time or from `fibers` fibers: calls per second. */
const callsPerSecond = (call: (i: number) => Effect.Effect<unknown, unknown>, fibers: number) =>
  Effect.gen(function*() {
    let next = 0
    let done = 0
    const run = (until: number) =>
      Effect.whileLoop({
        while: () => performance.now() < until,
        body: () => Effect.map(call(next++), () => done++),
        step: () => undefined
      })
    // Warm-up: a tenth of the time, not counted.
    yield* Effect.all(Array.from({ length: fibers }, () => run(performance.now() + callMillis / 10)), {
      concurrency: "unbounded"
    })
    done = 0
    const started = performance.now()
    yield* Effect.all(Array.from({ length: fibers }, () => run(started + callMillis)), { concurrency: "unbounded" })
    return (done / (performance.now() - started)) * 1000
  })

/** Runs B7. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  const bench = BenchFixture.make({ bots: 0, users })
  const tokens = bench.userTokens
  const figures: Record<string, number | string> = {}

  // The client through the in-process bridge, and over fetch against the sandbox on a port.
  yield* Progress.line("B7: the client through the in-process bridge and over a port")
  const bridged = yield* Effect.forEach(
    tokens,
    (token) => CommunityApiClient.make({ baseUrl: ReferenceServer.inProcessBaseUrl, token: Redacted.make(token) })
  ).pipe(
    Effect.provide(
      Layer.mergeAll(ReferenceServer.layerTest({ fixture: bench.fixture }), Pacing.layer(), CreationQuota.layer())
    )
  )
  const sandbox = yield* Processes.sandbox(bench.fixture)
  const baseUrl = `${sandbox.origin}/external-api/v2`
  const overPort = yield* Effect.forEach(tokens, (token) => Clients.make(baseUrl, token))
  const bridgeSequential = yield* callsPerSecond((i) => bridged[i % users]!.users.me(), 1)
  const portSequential = yield* callsPerSecond((i) => overPort[i % users]!.users.me(), 1)
  const bridgeConcurrent = yield* callsPerSecond((i) => bridged[i % users]!.users.me(), concurrentFibers)
  const portConcurrent = yield* callsPerSecond((i) => overPort[i % users]!.users.me(), concurrentFibers)
  figures["bridge.callsPerSecondSequential"] = Math.round(bridgeSequential)
  figures["port.callsPerSecondSequential"] = Math.round(portSequential)
  figures[`bridge.callsPerSecond${concurrentFibers}Fibers`] = Math.round(bridgeConcurrent)
  figures[`port.callsPerSecond${concurrentFibers}Fibers`] = Math.round(portConcurrent)

  // The sandbox against Prism, the same load generator, rounds alternated.
  yield* Progress.line(`B7: the sandbox against Prism ${Processes.prismVersion}`)
  const prism = yield* Processes.prism
  const sides = [
    { name: "sandbox", origin: sandbox.origin, path: "/external-api/v2/users/me" },
    // Prism serves the document's paths as they are, without the servers' base path.
    { name: "prism", origin: prism.origin, path: "/users/me" }
  ] as const
  for (const side of sides) {
    const answer = yield* LoadGenerator.sample(`${side.origin}${side.path}`, tokens[0]!)
    figures[`${side.name}.sample`] = `HTTP ${answer.status} ${answer.body}`
  }
  const [sandboxSide, prismSide] = yield* LoadGenerator.rounds(sides, tokens)
  const rps = { sandbox: sandboxSide.completedPerSecond, prism: prismSide.completedPerSecond }
  const notOk = sandboxSide.notOk + prismSide.notOk
  const failures = sandboxSide.failures + prismSide.failures
  const sandboxRps = median(rps.sandbox)
  const prismRps = median(rps.prism)
  const ratio = sandboxRps / prismRps
  figures["sandbox.rps"] = Math.round(sandboxRps)
  figures["prism.rps"] = Math.round(prismRps)
  figures["sandboxOverPrism"] = round(ratio, 3)
  figures["sandbox.rpsRounds"] = rps.sandbox.map(Math.round).join(" ")
  figures["prism.rpsRounds"] = rps.prism.map(Math.round).join(" ")
  figures["answersNotOk"] = notOk
  figures["transportFailures"] = failures
  const met = ratio >= 1 && notOk === 0 && failures === 0
  return {
    id: "B7",
    title: "In-process bridge and mock servers",
    method: `The client's users/me calls per second for ${callMillis / 1000} s (after a tenth of that as warm-up), ` +
      `one at a time and from ${concurrentFibers} fibers, tokens of ${users} users round-robin: through the ` +
      "in-process bridge (ReferenceServer.layerTest, what tests use) and over fetch against the compiled sandbox on " +
      `a port. Then ${LoadGenerator.usersMeMethod}: the compiled sandbox (pnpm start, the bench fixture's users) ` +
      `and Stoplight Prism ` +
      `${Processes.prismVersion} (prism mock lines/effect3/schema/openapi.json, installed on demand into bench/.cache), ` +
      "each with its default settings in a process of its own; median of the rounds.",
    figures,
    target: "the sandbox answers at least as many requests per second as Prism",
    met,
    headline: `bridge ${Math.round(bridgeSequential)} calls/s (port ${Math.round(portSequential)}); sandbox ${
      Math.round(sandboxRps)
    } vs Prism ${Math.round(prismRps)} req/s (${round(ratio, 2)}×)`,
    ...(met ? {} : {
      note: [
        ...(ratio < 1
          ? [`the sandbox answers ${round((1 - ratio) * 100, 1)}% fewer requests per second than Prism`]
          : []),
        ...(notOk > 0 ? [`${notOk} answers were not ok`] : []),
        ...(failures > 0 ? [`${failures} transport failures`] : [])
      ].join("; ")
    })
  }
}))
