/**
 * The examples of the README's "The client", as written: their text is taken out of README.md by
 * heading and saved in a scratch project (`support/ReadmeExamples.ts`); there `tsc` checks all of
 * them, the service runs with `tsx` against the sandbox on a loopback port, and the test file runs
 * with `vitest`, each a real child process. A README edit that breaks an example fails here.
 */
import { Ids } from "@community-api/schema"
import * as Demo from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServer } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted, Schedule } from "effect"
import * as Fs from "node:fs/promises"
import { CommunityApiClient, CreationQuota, Pacing } from "../src/index.js"
import * as Readme from "./support/ReadmeExamples.js"

const headings = {
  service: "### In a service",
  tests: "### In tests, with the reference server in-process",
  retries: "### Retries and limits"
} as const

/** What the service example must do to `community` of the demo data. */
const expectedFor = (community: { readonly group_id: number; readonly channel: string }) =>
  Readme.expectedFor(Demo.demoFixture.bots, community)

/** Generous bounds on a hang of a child on a busy machine; nothing is asserted on its speed. */
const bounds = { tsc: 240_000, run: 180_000 } as const

describe("README.md, the client's examples as written", () => {
  it.live(
    "the three examples typecheck with the client package's strict settings",
    () =>
      Effect.gen(function*() {
        const project = yield* Readme.scratch({
          "service.ts": yield* Readme.example(headings.service),
          "example.test.ts": yield* Readme.example(headings.tests),
          "limits.ts": yield* Readme.example(headings.retries)
        })
        const exit = yield* Readme.run([...Readme.tools.tsc, "-p", "tsconfig.json"], {
          cwd: project.dir,
          env: Readme.environment(),
          millis: bounds.tsc
        })
        expect(exit.stdout + exit.stderr).toBe("")
        expect(exit.code).toBe(0)
      }).pipe(Effect.scoped),
    bounds.tsc + 30_000
  )

  it.live(
    "A6 the in-process test example passes when vitest runs it",
    () =>
      Effect.gen(function*() {
        const project = yield* Readme.scratch({ "example.test.ts": yield* Readme.example(headings.tests) })
        const exit = yield* Readme.run([...Readme.tools.vitest, "run", "--reporter=json", "--outputFile=report.json"], {
          cwd: project.dir,
          env: Readme.environment(),
          millis: bounds.run
        })
        expect(exit.code, exit.stdout + exit.stderr).toBe(0)
        const report = JSON.parse(yield* Effect.promise(() => Fs.readFile(project.path("report.json"), "utf8")))
        expect(report.numTotalTests).toBeGreaterThan(0)
        expect(report.numPassedTests).toBe(report.numTotalTests)
      }).pipe(Effect.scoped),
    bounds.run + 30_000
  )

  // The README's settings (the client there talks to a placeholder host): the fail mode and the quota.
  it.effect("L1 L2 X1 the retries-and-limits settings: the 21st creation of a minute fails in fail mode", () =>
    Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const error = yield* Effect.flip(
        Effect.forEach(
          Array.from({ length: 21 }, (_, i) => i),
          (i) =>
            client.vars.create({
              group_id: Ids.GroupId.make(Demo.mainCommunity.group_id),
              channel: "VK",
              title: "t",
              name: `readme_${i}`
            }),
          { concurrency: "unbounded" }
        )
      )
      expect(error._tag).toBe("CreationQuotaExceeded")
    }).pipe(Effect.provide(
      CommunityApiClient.layer({
        baseUrl: ReferenceServer.inProcessBaseUrl,
        token: Redacted.make(Demo.tokens.owner),
        userKey: "user-42",
        onCreationLimit: "fail",
        timeout: Duration.seconds(10),
        retry: {
          schedule: Schedule.exponential(Duration.millis(200)).pipe(Schedule.intersect(Schedule.recurs(3))),
          limitRetries: 3
        }
      }).pipe(
        Layer.provide(ReferenceServer.layerTest()),
        Layer.provide(Pacing.layer({ limit: 30, window: Duration.seconds(1), margin: Duration.millis(20) })),
        Layer.provide(CreationQuota.layer({ perMinute: 20, perDay: 200 }))
      )
    )))
})

/**
 * Runs the service example with the environment a user gives it, against the sandbox of the layer
 * (fresh demo data): how it ended, and the bots whose `active` it changed.
 */
const runService = (env: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    yield* server.reset
    const address = (yield* HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("the sandbox has no TCP address")
    const project = yield* Readme.scratch({ "bots.ts": yield* Readme.example(headings.service) })
    const exit = yield* Readme.run([...Readme.tools.tsx, "bots.ts"], {
      cwd: project.dir,
      env: Readme.environment({
        COMMUNITY_API_BASE_URL: `http://127.0.0.1:${address.port}/external-api/v2`,
        COMMUNITY_API_TOKEN: Demo.tokens.owner,
        ...env
      }),
      millis: bounds.run
    })
    const before = new Map(Demo.demoFixture.bots.map((bot) => [bot.id, bot.active]))
    const changed = (yield* server.snapshot).bots.filter((bot) => before.get(bot.id) !== bot.active).map((bot) =>
      bot.id
    )
    const output = exit.stdout + exit.stderr
    return { exit, output, changed }
  })

// The sandbox's server with the demo data on a free loopback port, on the live clock as a port needs.
layer(ReferenceServer.layerServe({ port: 0 }), { excludeTestServices: true })(
  "README.md: the service example against the sandbox",
  (it) => {
    it.scoped(
      "E4 E6 S2 with no community given it enables the demo coffee shop's bots and counts the ones that cannot be",
      () =>
        Effect.gen(function*() {
          const expected = expectedFor(Demo.mainCommunity)
          const { changed, exit, output } = yield* runService({})
          expect(exit.code, output).toBe(0)
          expect(Readme.logged(output, "INFO"), output).toEqual([expected.summary])
          expect(Readme.logged(output, "WARN")).toHaveLength(expected.failed)
          expect(Readme.logged(output, "ERROR")).toEqual([])
          // The figures are true: exactly the bots it counted as enabled were switched on.
          expect([...changed].sort()).toEqual([...expected.enabled].sort())
          // The output the README shows is this one.
          expect(Readme.section(yield* Readme.readme, headings.service)).toContain(expected.summary)
        }),
      bounds.run + 30_000
    )

    it.scoped(
      "E4 E6 the community comes from COMMUNITY_GROUP_ID and COMMUNITY_CHANNEL",
      () =>
        Effect.gen(function*() {
          const community = Demo.mainCommunityTelegram
          const expected = expectedFor(community)
          const { changed, exit, output } = yield* runService({
            COMMUNITY_GROUP_ID: String(community.group_id),
            COMMUNITY_CHANNEL: community.channel
          })
          expect(exit.code, output).toBe(0)
          expect(Readme.logged(output, "INFO"), output).toEqual([expected.summary])
          expect([...changed].sort()).toEqual([...expected.enabled].sort())
        }),
      bounds.run + 30_000
    )
  }
)
