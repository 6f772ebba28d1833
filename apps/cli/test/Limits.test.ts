/**
 * `community-api limits`: what is left of the user's limits and when it comes back, and whether N
 * creations fit by an instant. A process of its own (no Redis) has the whole budget, read in process
 * on the `TestClock` so that every instant is known; bad words are one usage error each. With
 * `COMMUNITY_API_REDIS_URL` the budget is the one every process of the user shares: a permit another
 * process holds while its request waits for the sandbox, and a creation another process made, read by
 * the command in process and by the executable spawned as a user runs it, against the sandbox on a
 * port and a real `redis-server` (`scripts/redis.mjs`).
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Target from "@community-api/client/Target"
import { Limits } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { NodeHttpClient } from "@effect/platform-node"
import { beforeEach, describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Fiber, Layer, Option, Redacted, Schedule, Scope, TestClock } from "effect"
import * as RedisServer from "../../../lines/effect3/client/test/support/RedisServer.js"
import { recordCommands, recordedArguments } from "../../../scripts/redis-cli.mjs"
import * as ExitCode from "../src/ExitCode.js"
import * as Calendar from "./support/Calendar.js"
import * as InProcess from "./support/InProcess.js"
import * as Outcome from "./support/Outcome.js"
import { community, sandboxOnPort } from "./support/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

const { tokens } = DemoFixture

const iso = (epochMillis: number) => new Date(epochMillis).toISOString()

/** 2026-11-26 17:59:30 UTC (20:59:30 in Moscow): half a minute before a minute turns. */
const at = Date.UTC(2026, 10, 26, 17, 59, 30)

/** The command run in process on the `TestClock`: its exit code and what it wrote. */
const runOnTestClock = (args: ReadonlyArray<string>, options: Outcome.RunOptions) =>
  Effect.gen(function*() {
    const running = yield* InProcess.start(["limits", ...args], options)
    const code = yield* Fiber.join(running.fiber)
    return { code, stdout: running.stdout(), stderr: running.stderr() }
  })

/** Runs the words and checks the form of a usage error: exit 2, one line, nothing on standard output. */
const refused = async (args: ReadonlyArray<string>): Promise<string> => {
  const result = await InProcess.run(["limits", ...args])
  expect(result.code, args.join(" ")).toBe(ExitCode.kinds.usage.code)
  expect(result.stdout, args.join(" ")).toBe("")
  const lines = result.stderr.trimEnd().split("\n")
  expect(lines, args.join(" ")).toHaveLength(1)
  expect(lines[0], args.join(" ")).toMatch(/^community-api: usage error: limits /)
  return lines[0]!
}

describe("a process of its own", () => {
  const sandbox = sandboxOnPort()

  it.effect("L1 L2 L4 --json: all 30 requests, 20 creations this minute and 200 this day, and when each resets", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(at)
      const result = yield* runOnTestClock(["--json"], { env: sandbox.env(tokens.owner) })
      expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
      expect(JSON.parse(result.stdout)).toEqual({
        limiters: "memory",
        // Nothing held: nothing to come back, so now.
        requests: { used: 0, limit: Limits.requestsPerWindow, left: 30, resets_at: iso(at) },
        creations: {
          minute: { used: 0, limit: Limits.creationsPerMinute, left: 20, resets_at: "2026-11-26T18:00:00.000Z" },
          // The day turns at 03:00 Moscow time, 00:00 UTC.
          day: { used: 0, limit: Limits.creationsPerDay, left: 200, resets_at: "2026-11-27T00:00:00.000Z" }
        }
      })
      // Scripts read the JSON: no note for people.
      expect(result.stderr).toBe("")
      Outcome.expectNoToken(result, tokens.owner)
    }))

  it.effect("L2 L4 N creations by an instant: 20 this minute, 20 each minute after, the day's 200, then the next day", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(at)
      const estimate = (creations: number, by: string) =>
        Effect.map(
          runOnTestClock(["--json", "--creations", String(creations), "--by", by], { env: sandbox.env(tokens.owner) }),
          (result) => {
            expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
            return (JSON.parse(result.stdout) as { readonly estimate: unknown }).estimate
          }
        )
      // 20 fit this minute: the last of them now.
      expect(yield* estimate(20, "2026-11-26T20:59:45+03:00")).toEqual({
        creations: 20,
        by: "2026-11-26T17:59:45.000Z",
        in_time: true,
        last_at: iso(at)
      })
      // 25: the last 5 at 18:00, a quarter of a minute too late for 17:59:45, in time for 18:00.
      expect(yield* estimate(25, "2026-11-26T17:59:45Z")).toMatchObject({
        in_time: false,
        last_at: "2026-11-26T18:00:00.000Z"
      })
      expect(yield* estimate(25, "2026-11-26T18:00Z")).toMatchObject({
        in_time: true,
        last_at: "2026-11-26T18:00:00.000Z"
      })
      // 250: the day's 200 by 18:08, then 20, 20 and 10 from 00:00 UTC the next day.
      expect(yield* estimate(250, "2026-11-27T00:00Z")).toMatchObject({
        in_time: false,
        last_at: "2026-11-27T00:02:00.000Z"
      })
      // An instant without an offset is this machine's local time.
      expect(yield* estimate(1, "2026-11-26T18:00")).toMatchObject({
        by: iso(new Date(2026, 10, 26, 18, 0).getTime())
      })
    }))

  it.effect("the table: each limit with what is used and left, when it resets in local time and ISO, the answer", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(at)
      const result = yield* runOnTestClock(["--creations", "25", "--by", "2026-11-26T17:59:45Z"], {
        env: sandbox.env(tokens.owner)
      })
      expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
      const [header, ...lines] = result.stdout.trimEnd().split("\n")
      expect(header!.split(/\s{2,}/)).toEqual(["window", "used", "left", "limit", "resets", "resets_at"])
      const rows = lines.slice(0, 3).map((line) => line.trim().split(/\s{2,}/))
      expect(rows.map((row) => row[0])).toEqual(["requests (second)", "creations (minute)", "creations (day)"])
      expect(rows.map((row) => row.slice(1, 4))).toEqual([["0", "30", "30"], ["0", "20", "20"], ["0", "200", "200"]])
      expect(rows.map((row) => row[5])).toEqual([iso(at), "2026-11-26T18:00:00.000Z", "2026-11-27T00:00:00.000Z"])
      // The local column is the same instant, in this machine's zone, to the second.
      for (const row of rows) expect(new Date(row[4]!.replace(" ", "T")).getTime()).toBe(Date.parse(row[5]!))
      expect(lines[3]).toMatch(
        /^25 creations by \S+ \S+ \(2026-11-26T17:59:45\.000Z\): no, the last could be sent at the earliest at \S+ \S+ \(2026-11-26T18:00:00\.000Z\)$/
      )
      // Whose limits these are, said where a person reads the table.
      expect(result.stderr).toContain("this process's own limits")
      expect(result.stderr).toContain(Target.redisUrlVariable)
    }))

  it("bad words are one usage error each, before any client is made", async () => {
    expect(await refused(["--creations", "-1", "--by", "2026-11-26T18:00Z"])).toBe(
      "community-api: usage error: limits --creations: \"-1\" is not an integer from 1 to 100000"
    )
    for (const count of ["0", "1.5", "many", "100001"]) {
      expect(await refused(["--creations", count, "--by", "2026-11-26T18:00Z"])).toContain(
        `--creations: "${count}" is not an integer from 1 to 100000`
      )
    }
    for (const instant of ["yesterday-ish", "2026-02-30T10:00Z", "2026-11-26", "18:00", "2026-11-26T25:00Z"]) {
      const line = await refused(["--creations", "3", "--by", instant])
      expect(line).toContain(`limits --by: "${instant}" is not an ISO date and time`)
    }
    expect(await refused(["--creations", "3"])).toContain("--creations needs --by too")
    expect(await refused(["--by", "2026-11-26T18:00Z"])).toContain("--by needs --creations too")
    expect(await refused(["--retries", "2"])).toContain("limits has no flag --retries")
  })

  it("its help says whose limits they are, with and without Redis", async () => {
    const help = await InProcess.run(["limits", "--help"])
    expect(help.code).toBe(ExitCode.kinds.success.code)
    const text = help.stdout.replace(/\s+/g, " ")
    expect(text).toContain("community-api limits [--creations N --by INSTANT] [--json] [--token-stdin]")
    expect(text).toContain(`Without ${Target.redisUrlVariable} they are this process's own, so a new process has all`)
    expect(text).toContain("shared by every process of the user")
    for (const line of help.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
    const top = await InProcess.run(["--help"])
    expect(top.stdout).toContain("community-api limits [--creations N --by INSTANT] [flags]")
  })
})

describe("COMMUNITY_API_REDIS_URL: every process of the user", () => {
  const sandbox = sandboxOnPort()
  const redis = RedisServer.forTests()

  beforeEach(async () => {
    await recordCommands(redis.port)
  })

  /** The environment of a command of the user of `token` against the sandbox, its limits in the Redis. */
  const shared = (token: string) => ({ ...sandbox.env(token), COMMUNITY_API_REDIS_URL: redis.url })

  /** Another process of the user of `token`, as a service is: the client with its limiters in the Redis. */
  const otherProcess = (token: string) =>
    Target.layer(
      {
        _tag: "Remote",
        baseUrl: sandbox.baseUrl(),
        token: Redacted.make(token),
        redisUrl: Option.some(Redacted.make(redis.url))
      },
      { client: { timeout: "10 minutes", deadline: "10 minutes" }, sandbox: Effect.die("a real API is named") }
    ).pipe(Layer.provide(NodeHttpClient.layer))

  it(
    "L1 a permit another process holds while its request waits for its answer: 1 used, back after an answer",
    async () => {
      // The sandbox answers nothing for ten minutes: the other process's request stays in flight, its
      // permit renewed in the Redis while it lives.
      await sandbox.control((server) => server.setFaults({ latency: { fixed: 600_000 } }))
      const scope = Effect.runSync(Scope.make())
      try {
        const client = await Effect.runPromise(
          Effect.map(
            Layer.buildWithScope(otherProcess(tokens.admin), scope),
            Context.get(CommunityApiClient.CommunityApiClient)
          )
        )
        const inFlight = Effect.runFork(client.users.me())
        // Its permit is taken once the Redis has run the script that names its key.
        await Effect.runPromise(
          Effect.repeat(
            Effect.promise(async () => RedisServer.clientKeys(await recordedArguments(redis.port)).permits.length),
            { until: (permits) => permits > 0, schedule: Schedule.spaced("50 millis") }
          ).pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error("no permit was taken") }))
        )
        const result = await InProcess.run(["limits", "--json"], { env: shared(tokens.admin) })
        expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
        const budget = JSON.parse(result.stdout) as Record<string, any>
        expect(budget.limiters).toBe("redis")
        expect(budget.requests).toEqual({ used: 1, limit: 30, left: 29, resets_at: null })
        // Another user of the same Redis has all of its own.
        const other = await InProcess.run(["limits", "--json"], { env: shared(tokens.mailer) })
        expect(JSON.parse(other.stdout).requests).toMatchObject({ used: 0, left: 30 })
        await Effect.runPromise(Fiber.interrupt(inFlight))
      } finally {
        await Effect.runPromise(Scope.close(scope, Exit.void))
        await sandbox.control((server) => server.setFaults({}))
      }
    },
    Spawn.timeout
  )

  it("L2 L4 the executable reads the creation another process made, and the estimate counts it", async () => {
    // A try that a minute's turn split is run again, and its creation stays in the day's count.
    const createdAt: Array<number> = []
    const result = await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
      await begin()
      const startedAt = Date.now()
      createdAt.push(startedAt)
      const created = await InProcess.run(
        ["vars", "create", ...community, "--title", "Общий бюджет", "--name", `shared_budget_${retry}`],
        { env: shared(tokens.owner) }
      )
      expect(created.code, created.stderr).toBe(ExitCode.kinds.success.code)
      // 25 more: 19 left this minute, the last 6 when the next one begins.
      const nextMinute = Limits.nextMinute(startedAt)
      const limits = await Spawn.run(["limits", "--json", "--creations", "25", "--by", iso(nextMinute + 30_000)], {
        env: shared(tokens.owner)
      })
      return { startedAt, nextMinute, limits }
    })
    const { limits, nextMinute, startedAt } = result
    expect(limits.code, limits.stderr).toBe(ExitCode.kinds.success.code)
    Outcome.expectNoToken(limits, tokens.owner)
    const budget = JSON.parse(limits.stdout) as Record<string, any>
    expect(budget.limiters).toBe("redis")
    expect(budget.creations.minute).toEqual({ used: 1, limit: 20, left: 19, resets_at: iso(nextMinute) })
    const today = createdAt.filter((at) => Limits.dayOf(at) === Limits.dayOf(startedAt)).length
    expect(budget.creations.day).toEqual({
      used: today,
      limit: 200,
      left: 200 - today,
      resets_at: iso(Limits.nextDay(startedAt))
    })
    // The other process's permit is held until a second after its answer, or already back.
    expect(budget.requests.used + budget.requests.left).toBe(30)
    expect(budget.estimate).toEqual({
      creations: 25,
      by: iso(nextMinute + 30_000),
      in_time: true,
      last_at: iso(nextMinute)
    })
  }, Spawn.timeout)
})
