/**
 * `limits_get`, what is left of the user's limits, as an assistant's client meets it: the official
 * MCP SDK's client (which validates each structured content against the tool's output schema) talks
 * to the server's protocol over the SDK's in-memory transport, the tools running on the client and the
 * reference server in process on the `TestClock`, so that no permit comes back while the test reads
 * and every instant is known. The shared budget in Redis, read by the compiled server, is in
 * `RedisLimiters.test.ts`.
 */
import type * as ClientBudget from "@community-api/client/Budget"
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect, Option, Runtime, TestClock } from "effect"
import * as Budget from "../src/Budget.js"
import * as Limits from "../src/Limits.js"
import * as Options from "../src/Options.js"
import * as Server from "../src/Server.js"
import * as Surface from "../src/Surface.js"
import * as Tools from "../src/Tools.js"
import * as InProcess from "./support/InProcess.js"

const { mainCommunity } = DemoFixture

const TestLayer = InProcess.clientLayer()

const iso = (epochMillis: number) => new Date(epochMillis).toISOString()

/** 2026-11-26 17:59:30 UTC (20:59:30 in Moscow): half a minute before a minute turns. */
const at = Date.UTC(2026, 10, 26, 17, 59, 30)

/**
 * The SDK's client connected to a protocol server with every tool, which runs them on the client of
 * this test's context (on its clock). Its tools are listed first, so that it validates every answer.
 */
const connect = Effect.gen(function*() {
  const runtime = yield* Effect.runtime<CommunityApiClient.CommunityApiClient>()
  const server = Server.make({
    tools: Surface.offered(Surface.full),
    instructions: Server.instructions({ _tag: "Embedded", token: Option.none() }),
    run: (tool, args, signal) =>
      Runtime.runPromise(runtime)(
        Effect.flatMap(
          CommunityApiClient.CommunityApiClient,
          (client) => tool.run(client, args, { budget: Budget.defaultChars })
        ),
        { signal }
      )
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name: "limits-test", version: "0.0.0" })
  yield* Effect.promise(() => server.connect(serverSide))
  yield* Effect.acquireRelease(
    Effect.promise(() => client.connect(clientSide)),
    () => Effect.promise(() => client.close())
  )
  yield* Effect.promise(() => client.listTools())
  const call = (name: string, args: Record<string, unknown> = {}) =>
    Effect.promise(() => client.callTool({ name, arguments: args }))
  return { call }
})

/** The tool's result: the client's JSON of a budget. */
type Result = ClientBudget.Json

/** An answer of the SDK's `callTool`. */
type Answer = Readonly<Record<string, unknown>>

const resultOf = (answer: Answer): Result => {
  expect(answer.isError, JSON.stringify(answer)).toBeFalsy()
  return (answer.structuredContent as { readonly result: Result }).result
}

const issuesOf = (answer: Answer) => {
  expect(answer.isError).toBe(true)
  const error = (answer.structuredContent as { readonly error: Record<string, any> }).error
  expect(error.type).toBe("InvalidInput")
  expect(error.operation).toBe(Limits.name)
  return error.issues as ReadonlyArray<{ readonly parameter: string; readonly message: string }>
}

describe("limits_get through the SDK's client", () => {
  it.scoped("L1 L2 L4 two calls hold two permits; a creation uses one of the minute and of the day", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(at)
      const { call } = yield* connect
      // A server that has sent nothing has all of it, and its line says none is held.
      const untouched = yield* call(Limits.name)
      expect((untouched.content as ReadonlyArray<{ readonly text: string }>)[0]!.text).toContain(
        "30 of 30 requests left, none held;"
      )
      expect(resultOf(untouched)).toEqual({
        limiters: "memory",
        requests: { used: 0, limit: 30, left: 30, resets_at: iso(at) },
        creations: {
          minute: { used: 0, limit: 20, left: 20, resets_at: "2026-11-26T18:00:00.000Z" },
          day: { used: 0, limit: 200, left: 200, resets_at: "2026-11-27T00:00:00.000Z" }
        }
      })
      resultOf(yield* call("users_me"))
      resultOf(yield* call("groups_get", { count: 2 }))
      // Each permit is held a second and the margin past its answer; the clock has not moved.
      const two = resultOf(yield* call(Limits.name))
      expect(two.requests).toEqual({ used: 2, limit: 30, left: 28, resets_at: "2026-11-26T17:59:31.020Z" })
      expect(two.creations.minute.used).toBe(0)
      resultOf(yield* call("vars_create", { ...mainCommunity, title: "Бюджет", name: "budget_read" }))
      const created = yield* call(Limits.name, { creations: 25, by: "2026-11-26T20:59:45+03:00" })
      expect(resultOf(created)).toEqual({
        limiters: "memory",
        requests: { used: 3, limit: 30, left: 27, resets_at: "2026-11-26T17:59:31.020Z" },
        creations: {
          minute: { used: 1, limit: 20, left: 19, resets_at: "2026-11-26T18:00:00.000Z" },
          day: { used: 1, limit: 200, left: 199, resets_at: "2026-11-27T00:00:00.000Z" }
        },
        // 19 fit this minute; the last 6 at 18:00, a quarter of a minute past the deadline.
        estimate: { creations: 25, by: "2026-11-26T17:59:45.000Z", in_time: false, last_at: "2026-11-26T18:00:00.000Z" }
      })
      // The line says it all, for a client that shows the model only text.
      const line = (created.content as ReadonlyArray<{ readonly text: string }>)[0]!.text
      expect(line).toContain("27 of 30 requests left, the next back at 2026-11-26T17:59:31.020Z")
      expect(line).toContain("19 of 20 this minute")
      expect(line).toContain("25 creations by 2026-11-26T17:59:45.000Z: not in time")
      // Once the holds are over, the requests are back; the minute's creation until 18:00.
      yield* TestClock.adjust("1020 millis")
      const later = resultOf(yield* call(Limits.name, { creations: 25, by: "2026-11-26T18:00:00Z" }))
      expect(later.requests).toMatchObject({ used: 0, left: 30 })
      expect(later.creations.minute.left).toBe(19)
      expect(later.estimate).toMatchObject({ in_time: true, last_at: "2026-11-26T18:00:00.000Z" })
      // Reading the limits sends nothing to the API.
      const server = yield* ReferenceServer.ReferenceServer
      expect((yield* server.recentRequests).length).toBe(3)
    }).pipe(Effect.provide(TestLayer)))

  it.scoped("arguments that do not fit are refused, every issue named", () =>
    Effect.gen(function*() {
      const { call } = yield* connect
      const both = issuesOf(yield* call(Limits.name, { creations: -1, by: "yesterday-ish" }))
      expect(both.map((issue) => issue.parameter)).toEqual(["creations", "by"])
      expect(both[0]!.message).toBe("must be a whole number from 1 to 100000")
      expect(both[1]!.message).toContain("ISO 8601 date and time with its offset")
      expect(issuesOf(yield* call(Limits.name, { creations: 3 }))).toEqual([
        { parameter: "by", message: "is required with creations: the two go together" }
      ])
      expect(issuesOf(yield* call(Limits.name, { by: "2026-11-26T18:00:00Z" }))[0]!.parameter).toBe("creations")
      // A day the calendar does not have; a time without its offset.
      for (const by of ["2026-02-30T10:00:00Z", "2026-11-26T18:00:00"]) {
        expect(issuesOf(yield* call(Limits.name, { creations: 1, by }))[0]!.parameter).toBe("by")
      }
      expect(issuesOf(yield* call(Limits.name, { count: 3 }))).toEqual([
        expect.objectContaining({ parameter: "count", allowed: ["creations", "by"] })
      ])
    }).pipe(Effect.provide(TestLayer)))
})

describe("the tool", () => {
  const { definition } = Tools.limitsTool

  it("read-only, idempotent, a closed world; its input schema is valid JSON Schema and keeps the bounds", () => {
    expect(definition.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false
    })
    const validate = new Ajv2020({ strict: true }).compile(definition.inputSchema)
    expect(validate({})).toBe(true)
    expect(validate({ creations: 40, by: "2026-11-26T18:00:00+03:00" })).toBe(true)
    expect(validate({ creations: 0, by: "2026-11-26T18:00:00Z" })).toBe(false)
    expect(validate({ creations: 40, by: "tomorrow" })).toBe(false)
    expect(validate({ other: 1 })).toBe(false)
  })

  it("its description says what it answers and whose limits they are, in words", () => {
    const description = definition.description ?? ""
    expect(description).toContain("30 a second")
    expect(description).toContain("20 a calendar minute and 200 a day")
    expect(description).toContain("it sends nothing to the API")
    expect(description).toContain("memory, this server's own calls alone (so a new server has all of them)")
    expect(description).toContain("COMMUNITY_API_REDIS_URL")
    expect(description).not.toMatch(/\b[CRSEALVX][0-9]{1,2}\b/)
  })

  it("the instructions name it when it is offered, and not when the filters leave it out", () => {
    const embedded = { _tag: "Embedded", token: Option.none() } as const
    const told = (...words: ReadonlyArray<string>) =>
      Server.instructions(embedded, Surface.select(Options.parse(words).surface))
    expect(told()).toContain(`${Limits.name} tells how much of both is left`)
    expect(told("--read-only", "--toolsets", "bots")).toContain(Limits.name)
    expect(told("--tools", "users_me")).not.toContain(Limits.name)
  })
})
