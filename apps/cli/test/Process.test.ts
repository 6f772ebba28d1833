/**
 * The real executable run as a child process, as a user runs it: once in embedded mode (no
 * configuration) and once against the sandbox on a port started here, with the token piped on
 * standard input. Each start of the executable costs seconds, more on a busy machine, so only these
 * two spawn here (and one in `Secrets.test.ts`); `Commands.test.ts` runs every other command through
 * the same program in process.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import * as ExitCode from "../src/ExitCode.js"
import * as Outcome from "./support/Outcome.js"
import * as Sandbox from "./support/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

const { mainCommunity, tokens } = DemoFixture
const { community } = Sandbox
const { run } = Spawn

describe("embedded sandbox", () => {
  it("E2 groups get --json prints the demo communities with no configuration", async () => {
    const result = await run(["groups", "get", "--json"])
    expect(result.code).toBe(ExitCode.kinds.success.code)
    const page = JSON.parse(result.stdout) as { items: Array<{ group_id: number; channel: string }>; total: number }
    expect(page.total).toBe(page.items.length)
    expect(page.items).toContainEqual(expect.objectContaining(mainCommunity))
    expect(result.stderr).toContain("embedded sandbox")
    Outcome.expectNoToken(result, tokens.owner)
  }, Spawn.timeout)
})

describe("sandbox on a port", () => {
  const sandbox = Sandbox.sandboxOnPort()
  const { control } = sandbox

  it("A1 C12 --token-stdin: every bot of two pages in one table, and the token never shows", async () => {
    const result = await run(["bots", "get", ...community, "--all", "--token-stdin"], {
      env: { COMMUNITY_API_BASE_URL: sandbox.baseUrl() },
      stdin: `${tokens.owner}\n`
    })
    expect(result.code).toBe(ExitCode.kinds.success.code)
    const [header, ...rows] = result.stdout.trimEnd().split("\n")
    expect(header.startsWith("id ")).toBe(true)
    expect(rows).toHaveLength(DemoFixture.mainBotCount)
    expect(result.stderr).not.toContain("embedded sandbox")
    Outcome.expectNoToken(result, tokens.owner)
    const requests = await control((server) => server.recentRequests)
    expect(requests.filter((entry) => JSON.stringify(entry).includes("bots/get")).length).toBeGreaterThanOrEqual(2)
  }, Spawn.timeout)
})
