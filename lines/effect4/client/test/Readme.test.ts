/**
 * (The Effect 4 line's counterpart of the Effect 3 client's suite of the same name.)
 *
 * The README's Effect 4 examples, as written: their text is taken out of README.md by heading and
 * saved in a scratch project (`support/ReadmeExamples.ts`); there `tsc` checks them, the service runs
 * with `tsx` against the Effect 4 server package's sandbox on a loopback port, and the test file runs
 * with `vitest`, each a real child process. A README edit that breaks an example fails here.
 */
import * as Demo from "@community-api/core/DemoData"
import { Ids } from "@community-api/effect4-schema"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted, Schedule, Schema } from "effect"
import { spawn } from "node:child_process"
import * as Fs from "node:fs/promises"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Readme from "./support/ReadmeExamples.js"

const headings = {
  service: "### In a service, on Effect 4",
  tests: "### In tests, on Effect 4, with the reference server in-process"
} as const

/** What the service example must do to `community` of the demo data. */
const expectedFor = (community: { readonly group_id: number; readonly channel: string }) =>
  Readme.expectedFor(Demo.fixture.bots, community)

/** Generous bounds on a hang of a child on a busy machine; nothing is asserted on its speed. */
const bounds = { tsc: 240_000, run: 180_000 } as const

describe("README.md, the client's Effect 4 examples as written", () => {
  it.live(
    "the two examples typecheck with the client package's strict settings",
    () =>
      Effect.gen(function*() {
        const project = yield* Readme.scratch({
          "service.ts": yield* Readme.example(headings.service),
          "example.test.ts": yield* Readme.example(headings.tests)
        })
        const exit = yield* Readme.run([...Readme.tools.tsc, "-p", "tsconfig.json"], {
          cwd: project.dir,
          env: Readme.environment(),
          millis: bounds.tsc
        })
        expect(exit.stdout + exit.stderr).toBe("")
        expect(exit.code).toBe(0)
      }),
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
      }),
    bounds.run + 30_000
  )

  // The Effect 3 README's settings on this line: the fail mode, the retries and the quota.
  it.effect("L1 L2 X1 the retries-and-limits settings: the 21st creation of a minute fails in fail mode", () =>
    Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      const group_id = Schema.decodeSync(Ids.GroupId)(Demo.mainCommunity.group_id)
      const error = yield* Effect.flip(
        Effect.forEach(
          Array.from({ length: 21 }, (_, i) => i),
          (i) => client.vars.create({ group_id, channel: "VK", title: "t", name: `readme_${i}` }),
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
          schedule: Schedule.max([Schedule.exponential(Duration.millis(200)), Schedule.recurs(3)]),
          limitRetries: 3
        }
      }).pipe(
        Layer.provide(ReferenceServer.layerTest()),
        Layer.provide(Pacing.layer({ limit: 30, window: Duration.seconds(1), margin: Duration.millis(20) })),
        Layer.provide(CreationQuota.layer({ perMinute: 20, perDay: 200 }))
      )
    )))
})

/** The Effect 4 server package's sandbox on a free loopback port, fresh demo data; stopped with the scope. */
const sandbox = Effect.acquireRelease(
  Effect.callback<{ readonly baseUrl: string; readonly stop: () => void }, Error>((resume) => {
    const child = spawn(process.execPath, [...Readme.tools.sandbox, "--port", "0", "--quiet"], {
      env: Readme.environment(),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let banner = ""
    const stop = () => {
      child.kill("SIGKILL")
    }
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      banner += chunk
      const match = /(http:\/\/127\.0\.0\.1:\d+\/external-api\/v2)/.exec(banner)
      if (match !== null) resume(Effect.succeed({ baseUrl: match[1]!, stop }))
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (banner += chunk))
    child.once("exit", (code) => resume(Effect.fail(new Error(`the sandbox exited with ${code}:\n${banner}`))))
    return Effect.sync(stop)
  }),
  (server) => Effect.sync(server.stop)
)

/** The ids of the bots of `community` that are enabled now, read from the sandbox page by page. */
const enabledBots = (baseUrl: string, community: { readonly group_id: number; readonly channel: string }) =>
  Effect.promise(async () => {
    const ids: Array<string> = []
    for (let offset = 0;; offset += 500) {
      const response = await fetch(`${baseUrl}/bots/get`, {
        method: "POST",
        headers: { authorization: `Bearer ${Demo.tokens.owner}`, "content-type": "application/json" },
        body: JSON.stringify({ ...community, count: 500, offset })
      })
      const page = (await response.json()).response as {
        readonly items: ReadonlyArray<{ readonly id: string; readonly active: number }>
        readonly total: number
      }
      ids.push(...page.items.filter((bot) => bot.active === 1).map((bot) => bot.id))
      if (page.items.length === 0 || offset + 500 >= page.total) return ids
    }
  })

/**
 * Runs the service example with the environment a user gives it, against a fresh sandbox: how it
 * ended, and the bots of `community` it switched on.
 */
const runService = (
  community: { readonly group_id: number; readonly channel: string },
  env: Readonly<Record<string, string>>
) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* sandbox
    const before = new Set(yield* enabledBots(baseUrl, community))
    const project = yield* Readme.scratch({ "bots.ts": yield* Readme.example(headings.service) })
    const exit = yield* Readme.run([...Readme.tools.tsx, "bots.ts"], {
      cwd: project.dir,
      env: Readme.environment({ COMMUNITY_API_BASE_URL: baseUrl, COMMUNITY_API_TOKEN: Demo.tokens.owner, ...env }),
      millis: bounds.run
    })
    const changed = (yield* enabledBots(baseUrl, community)).filter((id) => !before.has(id))
    return { exit, output: exit.stdout + exit.stderr, changed }
  })

describe("README.md: the Effect 4 service example against the sandbox", () => {
  it.live(
    "E4 E6 S2 with no community given it enables the demo coffee shop's bots and counts the ones that cannot be",
    () =>
      Effect.gen(function*() {
        const expected = expectedFor(Demo.mainCommunity)
        const { changed, exit, output } = yield* runService(Demo.mainCommunity, {})
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

  it.live(
    "E4 E6 the community comes from COMMUNITY_GROUP_ID and COMMUNITY_CHANNEL",
    () =>
      Effect.gen(function*() {
        const community = Demo.mainCommunityTelegram
        const expected = expectedFor(community)
        const { changed, exit, output } = yield* runService(community, {
          COMMUNITY_GROUP_ID: String(community.group_id),
          COMMUNITY_CHANNEL: community.channel
        })
        expect(exit.code, output).toBe(0)
        expect(Readme.logged(output, "INFO"), output).toEqual([expected.summary])
        expect([...changed].sort()).toEqual([...expected.enabled].sort())
      }),
    bounds.run + 30_000
  )
})
