/**
 * The commands as a user runs them, through the executable's own program (`Cli.main`) in this
 * process: arguments in, exit code and standard output and error out, the environment given
 * explicitly. In embedded mode (no configuration), `serve`, and against the sandbox on a port started
 * here. `Process.test.ts` runs the real executable a few times; these need no new process each.
 */
import { Limits } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import * as ExitCode from "../src/ExitCode.js"
import * as Calendar from "./support/Calendar.js"
import * as InProcess from "./support/InProcess.js"
import * as Outcome from "./support/Outcome.js"
import * as Sandbox from "./support/Sandbox.js"

const { mainCommunity, tokens } = DemoFixture
const { community } = Sandbox
const { run } = InProcess

describe("embedded sandbox", () => {
  it("E4 C12 C13 bots get --all --json streams every bot of every page as one JSON line each", async () => {
    const result = await run(["bots", "get", ...community, "--all", "--json"])
    expect(result.code).toBe(ExitCode.kinds.success.code)
    const lines = result.stdout.trimEnd().split("\n")
    expect(DemoFixture.mainBotCount).toBeGreaterThan(500)
    expect(lines).toHaveLength(DemoFixture.mainBotCount)
    const bots = lines.map((line) => JSON.parse(line) as { id: string; group_id: number; channel: string })
    expect(new Set(bots.map((bot) => bot.id)).size).toBe(DemoFixture.mainBotCount)
    expect(bots.every((bot) => bot.group_id === mainCommunity.group_id && bot.channel === "VK")).toBe(true)
    // No progress bar when standard error is not a terminal.
    expect(result.stderr).not.toContain("items")
  })

  it("E4 C7 bots get prints an aligned table", async () => {
    const result = await run([
      "bots",
      "get",
      "--group-id",
      String(mainCommunity.group_id),
      "--channel",
      "vk",
      "--count",
      "3"
    ])
    expect(result.code).toBe(ExitCode.kinds.success.code)
    const [header, ...rows] = result.stdout.trimEnd().split("\n")
    expect(rows).toHaveLength(3)
    expect(header).toMatch(/^id +name +group_id +channel +active +archived +activity_type +create_at$/)
    const channelColumn = header.indexOf("channel")
    for (const row of rows) {
      expect(row.slice(channelColumn, channelColumn + 3)).toBe("VK ")
      expect(row.slice(0, 24)).toMatch(/^[0-9a-f]{24}$/)
    }
  })

  it("C10 a malformed id is a usage error (exit 2) with the schema's message, and nothing is sent", async () => {
    const result = await run(["bots", "getById", "--bot-id", "not-an-id"])
    expect(result.code).toBe(ExitCode.kinds.usage.code)
    expect(result.stderr).toContain("--bot-id")
    expect(result.stderr).toContain("24 characters")
    expect(result.stderr).not.toContain("embedded sandbox")
    expect(result.stdout).toBe("")
  })

  it("E5 A11 an unknown bot exits 5 with the operation, the error type, code 7 and the Russian text", async () => {
    const result = await run(["bots", "getById", "--bot-id", "0".repeat(24)])
    expect(result.code).toBe(ExitCode.kinds.parameter.code)
    const lines = result.stderr.trimEnd().split("\n")
    expect(lines.at(-1)).toMatch(/^community-api: bots\/getById failed with InvalidParameterError: error 7: [А-Яа-яЁё]/)
  })

  it("A4 a refused token exits 3 and never shows in the output", async () => {
    const result = await run(["users", "me"], { env: { COMMUNITY_API_TOKEN: tokens.expired } })
    expect(result.code).toBe(ExitCode.kinds.access.code)
    expect(result.stderr).toContain("users/me failed with InvalidTokenError: error 4")
    Outcome.expectNoToken(result, tokens.expired)
  })

  it("A8 A9 an employee without the admin role exits 3 on groups/getEmployees", async () => {
    const result = await run(["groups", "getEmployees", ...community], { env: { COMMUNITY_API_TOKEN: tokens.mailer } })
    expect(result.code).toBe(ExitCode.kinds.access.code)
    expect(result.stderr).toContain("groups/getEmployees failed with AccessDeniedError: error 8")
    Outcome.expectNoToken(result, tokens.mailer)
  })

  it("E17 call sends an operation whose parameters are not shown, by path with key=value", async () => {
    const result = await run([
      "call",
      "lists/get",
      `group_id=${mainCommunity.group_id}`,
      `channel=${mainCommunity.channel}`,
      "--json"
    ])
    expect(result.code).toBe(ExitCode.kinds.success.code)
    const page = JSON.parse(result.stdout) as { items: Array<{ id: string }> }
    expect(page.items.map((list) => list.id)).toContain(DemoFixture.listId)
  })
})

describe("serve", () => {
  it.live("C1 C4 serve runs the sandbox on a port, the same program as pnpm start", () =>
    Effect.gen(function*() {
      // Interrupted at the end, as Ctrl-C stops it.
      const running = yield* Effect.acquireRelease(
        InProcess.start(["serve", "--port", "0", "--quiet"]),
        (running) => Fiber.interrupt(running.fiber)
      )
      const [, base] = yield* running.awaitStdout(/(http:\/\/127\.0\.0\.1:\d+\/external-api\/v2)/)
      const response = yield* Effect.promise(() =>
        fetch(`${base}/users/me`, { method: "POST", headers: { authorization: `Bearer ${tokens.owner}` } })
      )
      expect(response.status).toBe(200)
      expect(yield* Effect.promise(() => response.json())).toEqual({
        status: "ok",
        response: expect.objectContaining({ user_id: DemoFixture.userIds.owner })
      })
    }).pipe(Effect.scoped))
})

describe("sandbox on a port", () => {
  const sandbox = Sandbox.sandboxOnPort()
  const { control } = sandbox
  const remote = sandbox.env

  it("A6 the key service down exits 6 (transient) once the retries are spent", async () => {
    await control((server) => server.setFaults({ keyServiceUnavailable: { next: 100 } }))
    const result = await run(["users", "me", "--retries", "0"], { env: remote(tokens.owner) })
    await control((server) => server.clearFaults)
    expect(result.code).toBe(ExitCode.kinds.transient.code)
    expect(result.stderr).toContain("users/me failed with KeyServiceUnavailableError: error 9")
  })

  it("X1 an internal server error exits 1", async () => {
    await control((server) => server.setFaults({ internalError: { next: 100 } }))
    const result = await run(["groups", "get", "--retries", "0"], { env: remote(tokens.owner) })
    await control((server) => server.clearFaults)
    expect(result.code).toBe(ExitCode.kinds.internal.code)
    expect(result.stderr).toContain("groups/get failed with InternalServerError: error 101")
    Outcome.expectNoToken(result, tokens.owner)
  })
})

// A sandbox of its own: filling the creation minute sends many requests at once, which must not count
// against the rate window of the other tests' runs (in process they follow each other within a second).
describe("sandbox on a port, the creation minute used up", () => {
  const sandbox = Sandbox.sandboxOnPort()
  const remote = sandbox.env

  it("L2 L3 L5 a used-up creation minute exits 4 (limit)", async () => {
    const createVariable = ["vars", "create", ...community, "--title", "Город", "--name", "city_cli"]
    const exhaust = async () => {
      // Every attempt counts, a refused one too (L3): refused names fill the minute without creating.
      for (let attempt = 0; attempt < 30; attempt++) {
        const response = await fetch(`${sandbox.baseUrl()}/vars/create`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${tokens.owner}` },
          body: JSON.stringify({ ...mainCommunity, title: "x", name: "bad.name" })
        })
        const body = (await response.json()) as { error_code?: number }
        if (body.error_code === 5) return
      }
      throw new Error("the creation limit never answered 5")
    }
    // The sandbox counts creations per calendar minute (L4): the fill and the command must fall in one
    // minute. On a busy machine a boundary can split them (the fill's attempts in two minutes, neither
    // reaching 20, or the command in the next minute): such a try is judged by nothing and tried again
    // from the start of the new minute (hence the test's bound: a try again may wait for a minute).
    const result = await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
      // A retry follows the last try's requests at once: one rate window first (L1, sliding), so that
      // no refusal of the request rate passes for the used-up minute.
      if (retry > 0) await new Promise((resolve) => setTimeout(resolve, Limits.rateWindowMillis))
      await begin()
      await exhaust()
      return run(createVariable, { env: remote(tokens.owner) })
    }, { room: 5_000 })
    expect(result.code).toBe(ExitCode.kinds.limit.code)
    expect(result.stderr).toMatch(/vars\/create failed with (RateLimitError|CreationQuotaExceeded)/)
    Outcome.expectNoToken(result, tokens.owner)
  }, 180_000)
})
