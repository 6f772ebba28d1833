/**
 * The README's examples of the client, as written: their text is taken out of README.md by heading
 * (each line's own, `Line.readme`) and saved in a scratch project (`src/Readme.ts`); there the test
 * file runs with `vitest` and the service runs with `tsx` against the line's reference server on a
 * loopback port, each a real child process. A README edit that breaks an example fails here. (That
 * the examples typecheck is each line's own test: the lines' READMEs hold different examples.)
 */
import * as Demo from "@community-api/core/DemoData"
import * as Fs from "node:fs/promises"
import type { Line } from "../src/Driver.js"
import * as Readme from "../src/Readme.js"
import { assert, scenario, suite } from "../src/Scenario.js"

type Community = { readonly group_id: number; readonly channel: string }

/** What the service example must do to `community` of the demo data. */
const expectedFor = (community: Community) => Readme.expectedFor(Demo.fixture.bots, community)

/**
 * Runs the line's service example with the environment a user gives it, against the line's server
 * on a real port (fresh demo data): how it ended, and the bots whose `active` it changed.
 */
const runService = async (line: Line, env: Readonly<Record<string, string>>) => {
  const world = await line.realPort()
  const exit = await Readme.withScratch(
    line.readme,
    { "bots.ts": await Readme.example(line.readme.service) },
    (project) =>
      Readme.run([...Readme.tools(line.readme).tsx, "bots.ts"], {
        cwd: project.dir,
        env: Readme.environment({
          COMMUNITY_API_BASE_URL: world.baseUrl,
          COMMUNITY_API_TOKEN: Demo.tokens.owner,
          ...env
        }),
        millis: Readme.bounds.run
      })
  )
  const before = new Map(Demo.fixture.bots.map((bot) => [bot.id, bot.active]))
  const changed = (await world.server.snapshot()).bots.filter((bot) => before.get(bot.id) !== bot.active).map((bot) =>
    bot.id
  )
  return { exit, output: exit.stdout + exit.stderr, changed }
}

const timeout = Readme.bounds.run + 30_000

export default suite("README.md, the client's examples as written", [
  scenario("A6 the in-process test example passes when vitest runs it", async (line) => {
    const files = { "example.test.ts": await Readme.example(line.readme.tests) }
    const report = await Readme.withScratch(line.readme, files, async (project) => {
      const exit = await Readme.run(
        [...Readme.tools(line.readme).vitest, "run", "--reporter=json", "--outputFile=report.json"],
        { cwd: project.dir, env: Readme.environment(), millis: Readme.bounds.run }
      )
      assert.equal(exit.code, 0, exit.stdout + exit.stderr)
      return JSON.parse(await Fs.readFile(project.path("report.json"), "utf8"))
    })
    assert.ok(report.numTotalTests > 0)
    assert.equal(report.numPassedTests, report.numTotalTests)
  }, timeout),

  // The README's settings (the client there talks to a placeholder host): the fail mode and the quota,
  // 30 requests a second with a 20 ms margin and 200 creations a day being the limiters' defaults.
  scenario(
    "L1 L2 X1 the retries-and-limits settings: the 21st creation of a minute fails in fail mode",
    async (line) => {
      const world = await line.reference({ pacingLimit: 30, quotaPerMinute: 20 })
      const client = await world.client({
        userKey: "user-42",
        onCreationLimit: "fail",
        timeout: 10_000,
        // Exponential from 200 ms, three retries.
        retry: { delays: [200, 400, 800], limitRetries: 3 }
      })
      const calls = Array.from(
        { length: 21 },
        (_, i) =>
          client.call("vars/create", {
            group_id: Demo.mainCommunity.group_id,
            channel: "VK",
            title: "t",
            name: `readme_${i}`
          })
      )
      // The 21st fails, and only it: every other creation is made.
      const ended = await Promise.all(calls)
      assert.deepEqual(
        ended.flatMap((o) => o._tag === "Success" ? [] : [o._tag === "Failure" ? o.error._tag : o._tag]),
        [
          "CreationQuotaExceeded"
        ]
      )
    }
  ),

  scenario(
    "E4 E6 S2 with no community given it enables the demo coffee shop's bots and counts the ones that cannot be",
    async (line) => {
      const expected = expectedFor(Demo.mainCommunity)
      const { changed, exit, output } = await runService(line, {})
      assert.equal(exit.code, 0, output)
      assert.deepEqual(Readme.logged(output, "INFO"), [expected.summary], output)
      assert.equal(Readme.logged(output, "WARN").length, expected.failed)
      assert.deepEqual(Readme.logged(output, "ERROR"), [])
      // The figures are true: exactly the bots it counted as enabled were switched on.
      assert.deepEqual([...changed].sort(), [...expected.enabled].sort())
      // The output the README shows is this one.
      assert.ok(Readme.section(await Readme.readme(), line.readme.service).includes(expected.summary))
    },
    timeout
  ),

  scenario("E4 E6 the community comes from COMMUNITY_GROUP_ID and COMMUNITY_CHANNEL", async (line) => {
    const community: Community = Demo.mainCommunityTelegram
    const expected = expectedFor(community)
    const { changed, exit, output } = await runService(line, {
      COMMUNITY_GROUP_ID: String(community.group_id),
      COMMUNITY_CHANNEL: community.channel
    })
    assert.equal(exit.code, 0, output)
    assert.deepEqual(Readme.logged(output, "INFO"), [expected.summary], output)
    assert.deepEqual([...changed].sort(), [...expected.enabled].sort())
  }, timeout)
])
