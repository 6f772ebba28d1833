/**
 * What the tools answer, run in process over the client and the reference server on the `TestClock`:
 * the shape of every answer (`{result}` or `{error}`), the size budget of list answers and paging on
 * from where one stops, limit errors that say how long to wait, refused input told once per parameter,
 * the client's own errors (creation quota, unknown outcome) as tool errors with advice, and the advice
 * table itself.
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as CreationQuota from "@community-api/client/CreationQuota"
import * as Pacing from "@community-api/client/Pacing"
import * as Retry from "@community-api/client/Retry"
import { ApiError, Channel, Limits } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted, TestClock } from "effect"
import { freePort } from "../../../scripts/redis.mjs"
import * as Advice from "../src/Advice.js"
import * as Answer from "../src/Answer.js"
import * as Handlers from "../src/Handlers.js"
import * as Session from "../src/Session.js"
import * as Tools from "../src/Tools.js"
import * as InProcess from "./support/InProcess.js"

const { enableableBotId, mainBotCount, mainCommunity, mainCommunityTelegram, tokens } = DemoFixture

const TestLayer = InProcess.clientLayer()

const tool = (name: string) => Tools.all.find((candidate) => candidate.definition.name === name)!

const run = (name: string, args: Handlers.Arguments, settings?: Handlers.Settings) =>
  Effect.flatMap(CommunityApiClient.CommunityApiClient, (client) => Handlers.run(client, tool(name), args, settings))

type Result = { readonly structuredContent?: unknown; readonly content: ReadonlyArray<unknown> }

const errorOf = (result: Result) => (result.structuredContent as { readonly error: Answer.ErrorAnswer }).error

const resultOf = <A = unknown>(result: Result): A => (result.structuredContent as { readonly result: A }).result

const textOf = (result: Result): string => (result.content[0] as { readonly text: string }).text

interface Bots {
  readonly items: ReadonlyArray<{ readonly id: string }>
  readonly total: number
  readonly next_offset?: number
}

/** 12:00:30 UTC on the first day of the epoch: half a creation minute left. */
const halfPastNoon = Date.UTC(1970, 0, 1, 12, 0, 30)

/** The requests for `path` the reference server answered so far. */
const requestsFor = (path: string) =>
  Effect.map(
    Effect.flatMap(ReferenceServer.ReferenceServer, (server) => server.recentRequests),
    (entries) => entries.filter((entry) => entry.path.includes(path)).length
  )

describe("the shape of an answer", () => {
  it.effect("a result is {result}: a record, a page, and null for an operation with no data", () =>
    Effect.gen(function*() {
      const enabled = yield* run("bots_enable", { bot_id: enableableBotId })
      expect(enabled.isError).toBeFalsy()
      expect(Object.keys(enabled.structuredContent!)).toEqual(["result"])
      expect(resultOf(enabled)).toMatchObject({ id: enableableBotId, active: 1 })
      const page = yield* run("groups_get", { count: 1 })
      expect(Object.keys(page.structuredContent!)).toEqual(["result"])
      const groups = resultOf<Bots>(page)
      expect(groups.items).toHaveLength(1)
      expect(groups.next_offset).toBe(1)
      expect(textOf(page)).toBe(`groups/get: 1 of ${groups.total} items from offset 0; more from offset 1.`)
      const added = yield* run("lists_addUser", { list_id: DemoFixture.listId, uid: DemoFixture.subscriberUid })
      expect(added.isError).toBeFalsy()
      expect(added.structuredContent).toEqual({ result: null })
      expect(added.content).toEqual([{
        type: "text",
        text: "lists/addUser: done; the API answers no data for this operation."
      }])
    }).pipe(Effect.provide(TestLayer)))

  it.effect("E17 call: its result is {result}; an error is {error} alone", () =>
    Effect.gen(function*() {
      const created = yield* run("call", { path: "lists/create", params: { ...mainCommunity, name: "Покупатели" } })
      expect(created.isError).toBeFalsy()
      expect(Object.keys(created.structuredContent!)).toEqual(["result"])
      expect(resultOf(created)).toMatchObject({ name: "Покупатели" })
      const refused = yield* run("mailings_get", DemoFixture.otherCommunity)
      expect(refused.isError).toBe(true)
      expect(Object.keys(refused.structuredContent!)).toEqual(["error"])
      expect(errorOf(refused)).toMatchObject({ type: "AccessDeniedError", code: 8, operation: "mailings/get" })
    }).pipe(Effect.provide(TestLayer)))
})

describe("the size budget of a list answer", () => {
  it.effect("C12 all: true on bots_get stops at a 2,000-character budget with next_offset; paging on gives every bot once", () =>
    Effect.gen(function*() {
      const budget = { budget: 2_000 }
      const args = { ...mainCommunityTelegram, count: 2, all: true }
      const whole = resultOf<Bots>(
        yield* run("bots_get", { ...mainCommunityTelegram, count: 100 }, { budget: 10_000_000 })
      )
      expect(whole.next_offset).toBeUndefined()
      expect(whole.items).toHaveLength(whole.total)

      const before = yield* requestsFor("bots/get")
      const first = yield* run("bots_get", args, budget)
      expect(first.isError, textOf(first)).toBeFalsy()
      const page = resultOf<Bots>(first)
      expect(page.total).toBe(whole.total)
      expect(page.items.length).toBeGreaterThan(0)
      expect(page.items.length).toBeLessThan(whole.total)
      expect(page.next_offset).toBe(page.items.length)
      expect(JSON.stringify(page.items).length).toBeLessThanOrEqual(budget.budget + 2)
      expect(textOf(first)).toBe(
        `bots/get: ${page.items.length} of ${page.total} items from offset 0, as many as fit the answer's budget ` +
          `of 2000 characters; more from offset ${page.next_offset}.`
      )
      // It stopped pulling pages once the budget was reached: not one request per page of 2 to the end.
      expect((yield* requestsFor("bots/get")) - before).toBeLessThan(Math.ceil(whole.total / 2))

      const ids = page.items.map((bot) => bot.id)
      let next = page.next_offset
      for (let answers = 1; next !== undefined; answers++) {
        expect(answers, "paging on ends").toBeLessThan(whole.total)
        yield* TestClock.adjust("1 second")
        const more = resultOf<Bots>(yield* run("bots_get", { ...args, offset: next }, budget))
        expect(more.items.length).toBeGreaterThan(0)
        expect(JSON.stringify(more.items).length).toBeLessThanOrEqual(budget.budget + 2)
        ids.push(...more.items.map((bot) => bot.id))
        expect(more.next_offset === undefined || more.next_offset === next + more.items.length).toBe(true)
        next = more.next_offset
      }
      expect(ids).toEqual(whole.items.map((bot) => bot.id))
      expect(new Set(ids).size).toBe(whole.total)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("C12 all: true with the default budget stops short of 640 bots and says where to go on", () =>
    Effect.gen(function*() {
      const result = yield* run("bots_get", { ...mainCommunity, all: true })
      const page = resultOf<Bots>(result)
      expect(page.total).toBe(mainBotCount)
      expect(page.items.length).toBeLessThan(mainBotCount)
      expect(page.next_offset).toBe(page.items.length)
      expect(JSON.stringify(page.items).length).toBeLessThanOrEqual(Handlers.defaultSettings.budget + 2)
      expect(textOf(result)).toContain(`more from offset ${page.next_offset}`)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("C12 one page is cut to the budget too, going on from the first bot left out", () =>
    Effect.gen(function*() {
      const result = yield* run("bots_get", { ...mainCommunity, count: 50, offset: 10 }, { budget: 2_000 })
      const page = resultOf<Bots>(result)
      expect(page.total).toBe(mainBotCount)
      expect(page.items.length).toBeGreaterThan(0)
      expect(page.items.length).toBeLessThan(50)
      expect(page.next_offset).toBe(10 + page.items.length)
      expect(JSON.stringify(page.items).length).toBeLessThanOrEqual(2_002)
    }).pipe(Effect.provide(TestLayer)))
})

describe("limit errors", () => {
  it.effect("L2 L4 the 21st creation at 12:00:30 is CreationQuotaExceeded at once: resets_at, retry_after_ms 30,000", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(halfPastNoon)
      for (let i = 0; i < 20; i++) {
        const created = yield* run("vars_create", { ...mainCommunity, title: `t${i}`, name: `quota_${i}` })
        expect(created.isError, JSON.stringify(created.content)).toBeFalsy()
      }
      const refused = yield* run("vars_create", { ...mainCommunity, title: "t", name: "quota_last" })
      expect(refused.isError).toBe(true)
      const error = errorOf(refused)
      expect(error).toMatchObject({
        type: "CreationQuotaExceeded",
        operation: "vars/create",
        window: "minute",
        resets_at: "1970-01-01T12:01:00.000Z",
        retry_after_ms: 30_000
      })
      expect(error).not.toHaveProperty("resetsAt")
      expect(error.advice).toBe(
        Advice.ofWait("CreationQuotaExceeded", {
          window: "minute",
          resets_at: "1970-01-01T12:01:00.000Z",
          retry_after_ms: 30_000
        })
      )
      expect(error.advice).toContain("30 seconds")
      expect(textOf(refused)).toContain(error.advice)
      expect(yield* requestsFor("vars/create")).toBe(20)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("L1 error 5 on a read: window second, retry_after_ms the rate window, advice to wait that long", () => {
    const usersMe = Effect.flatMap(HttpClient.HttpClient, (http) =>
      http.execute(
        HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/users/me`).pipe(
          HttpClientRequest.bearerToken(tokens.owner)
        )
      ).pipe(Effect.flatMap((response) => response.json), Effect.scoped))
    return Effect.gen(function*() {
      yield* TestClock.setTime(halfPastNoon)
      // Another client of the same user fills the second: the server refuses the tool's request with 5.
      for (let i = 0; i < Limits.requestsPerWindow; i++) yield* usersMe
      const refused = yield* run("users_me", {})
      expect(refused.isError).toBe(true)
      const error = errorOf(refused)
      expect(error).toMatchObject({
        type: "RateLimitError",
        code: 5,
        operation: "users/me",
        window: "second",
        retry_after_ms: Limits.rateWindowMillis
      })
      expect(error).not.toHaveProperty("resets_at")
      expect(error.advice).toBe(Advice.ofWait("RateLimitError", { window: "second", retry_after_ms: 1_000 }))
      expect(error.advice).toContain("wait 1 second")
    }).pipe(Effect.provide(InProcess.clientLayer({ retry: { limitRetries: 0 } })))
  })

  it("L2 error 5 on a creation: window minute, retry_after_ms to the end of the calendar minute", () => {
    const error5 = ApiError.make(5, "Слишком много запросов", "vars/create")
    const creation = errorOf(Answer.failure("vars/create", error5, { now: halfPastNoon + 250, creation: true }))
    expect(creation).toMatchObject({
      type: "RateLimitError",
      code: 5,
      window: "minute",
      retry_after_ms: Limits.nextMinute(halfPastNoon) - halfPastNoon - 250
    })
    expect(creation.retry_after_ms).toBe(29_750)
    expect(creation.advice).toContain("wait 30 seconds")
    const read = errorOf(Answer.failure("users/me", error5, { now: halfPastNoon + 250, creation: false }))
    expect(read).toMatchObject({ window: "second", retry_after_ms: Limits.rateWindowMillis })
    // Without the time, no wait is told.
    expect(errorOf(Answer.failure("users/me", error5))).not.toHaveProperty("retry_after_ms")
  })

  it("a wait in words", () => {
    expect(Advice.duration(1)).toBe("1 second")
    expect(Advice.duration(30_000)).toBe("30 seconds")
    expect(Advice.duration(119_001)).toBe("2 minutes")
    expect(Advice.duration(3_600_000)).toBe("60 minutes")
    expect(Advice.duration(5 * 3_600_000 + 61_000)).toBe("5 hours 2 minutes")
    expect(Advice.duration(7_200_000)).toBe("2 hours")
  })
})

describe("refused input", () => {
  it.effect("C10 a wrong channel is one issue naming channel, with the contract's channels; nothing is sent", () =>
    Effect.gen(function*() {
      const result = yield* run("bots_get", { group_id: mainCommunity.group_id, channel: "XX" })
      expect(result.isError).toBe(true)
      const error = errorOf(result)
      expect(error.type).toBe("InvalidInput")
      expect(error.issues).toEqual([{
        parameter: "channel",
        message: `"XX" is not one of ${Channel.values.slice(0, -1).join(", ")} or ${Channel.values.at(-1)}, any case`,
        allowed: [...Channel.values]
      }])
      const required = errorOf(
        yield* run("vars_create", { ...mainCommunity, channel: "vkontakte", title: "t", name: "n" })
      )
      expect(required.issues).toEqual([expect.objectContaining({ parameter: "channel", allowed: [...Channel.values] })])
      expect(yield* requestsFor("bots/get")).toBe(0)
      expect(yield* requestsFor("vars/create")).toBe(0)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("C10 an unknown parameter is one issue naming the parameters the tool takes", () =>
    Effect.gen(function*() {
      const error = errorOf(yield* run("bots_enable", { bot_id: "xyz", botid: enableableBotId }))
      expect(error.issues?.map((issue) => issue.parameter)).toEqual(["bot_id", "botid"])
      expect(error.issues?.[1]).toEqual({
        parameter: "botid",
        message: "is not a parameter of this tool; its parameters are bot_id",
        allowed: ["bot_id"]
      })
      const listed = errorOf(yield* run("bots_get", { ...mainCommunity, limit: 5 }))
      expect(listed.issues).toEqual([expect.objectContaining({
        parameter: "limit",
        allowed: Object.keys(tool("bots_get").definition.inputSchema.properties ?? {})
      })])
      expect(listed.issues?.[0]?.allowed).toContain("all")
      const all = errorOf(yield* run("bots_get", { ...mainCommunity, all: "yes" }))
      expect(all.issues).toEqual([{
        parameter: "all",
        message: "\"yes\" is not true or false",
        allowed: [true, false]
      }])
      const path = errorOf(yield* run("call", { path: "nothing/here" }))
      expect(path.issues).toEqual([
        expect.objectContaining({ parameter: "path", allowed: Tools.callable.map((op) => op.path) })
      ])
    }).pipe(Effect.provide(TestLayer)))
})

describe("tool errors", () => {
  it.effect("X1 error 101 on a creation is OutcomeUnknownError: not sent again, and the advice says check first", () =>
    Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      yield* server.setFaults({ internalError: { next: 1 } })
      const result = yield* run("vars_create", { ...mainCommunity, title: "t", name: "unknown_outcome" })
      expect(result.isError).toBe(true)
      const error = errorOf(result)
      expect(error).toMatchObject({ type: "OutcomeUnknownError", operation: "vars/create" })
      expect(error.message).toContain("error 101")
      expect(error.message?.startsWith("vars/create")).toBe(false)
      expect(error.advice).toBe(Advice.byTag.OutcomeUnknownError)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("an API that cannot be reached: the message names the cause once, with its code, host and port", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      // The server's own client over node:http, to a port nothing listens on, sent once.
      const unreachable = CommunityApiClient.layer({
        baseUrl: `http://127.0.0.1:${port}/external-api/v2`,
        token: Redacted.make("thp_mcp_unreachable_test_token"),
        ...Session.clientOptions,
        retry: Retry.never
      }).pipe(Layer.provide(Layer.mergeAll(NodeHttpClient.layer, Pacing.layer(), CreationQuota.layer())))
      const result = yield* Effect.provide(run("users_me", {}), unreachable)
      expect(result.isError).toBe(true)
      expect(errorOf(result)).toMatchObject({
        type: "TransportError",
        operation: "users/me",
        message: `connection refused by 127.0.0.1:${port} (ECONNREFUSED)`
      })
      expect(textOf(result)).toBe(
        `users/me failed with TransportError: connection refused by 127.0.0.1:${port} (ECONNREFUSED). ` +
          Advice.byTag.TransportError
      )
      expect(JSON.stringify(result)).not.toContain("thp_mcp_unreachable_test_token")
    }))

  it("a failure that is no typed error is an internal error, without its detail", () => {
    const result = Answer.failure("bots/get", new Error("secret detail"))
    expect(result.isError).toBe(true)
    expect(errorOf(result)).toEqual({
      type: "InternalError",
      operation: "bots/get",
      advice: Advice.byTag.InternalError
    })
    expect(JSON.stringify(result)).not.toContain("secret detail")
  })

  it("every error type has one English sentence of advice", () => {
    for (const [tag, advice] of Object.entries(Advice.byTag)) {
      expect(advice, tag).toMatch(/^[A-Z][^.]*(?:\.[^ .][^.]*)*\.$/)
      expect(advice, tag).not.toMatch(/[а-яА-Я]/)
    }
    expect(Advice.of("NoSuchError")).toBe(Advice.byTag.InternalError)
    const waits: ReadonlyArray<readonly [string, Advice.Wait]> = [
      ["RateLimitError", { window: "second", retry_after_ms: 1_000 }],
      ["RateLimitError", { window: "minute", retry_after_ms: 12_345 }],
      ["CreationQuotaExceeded", { window: "minute", resets_at: "1970-01-01T00:01:00.000Z", retry_after_ms: 800 }],
      ["CreationQuotaExceeded", { window: "day", resets_at: "1970-01-02T00:00:00.000Z", retry_after_ms: 40_000_000 }]
    ]
    for (const [tag, wait] of waits) {
      const advice = Advice.ofWait(tag, wait)
      expect(advice, tag).toMatch(/^[A-Z][^.]*(?:\.[^ .][^.]*)*\.$/)
      expect(advice, tag).toContain(Advice.duration(wait.retry_after_ms))
    }
  })
})
