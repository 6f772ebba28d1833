/**
 * What the tools answer, run in process over the client and the reference server on the `TestClock`:
 * the client's own errors (creation quota, unknown outcome) as tool errors with advice, and the advice
 * table itself.
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as CreationQuota from "@community-api/client/CreationQuota"
import * as Pacing from "@community-api/client/Pacing"
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import * as Advice from "../src/Advice.js"
import * as Answer from "../src/Answer.js"
import * as Handlers from "../src/Handlers.js"
import * as Session from "../src/Session.js"
import * as Tools from "../src/Tools.js"

const { mainCommunity, tokens } = DemoFixture

const TestLayer = CommunityApiClient.layer({
  baseUrl: ReferenceServer.inProcessBaseUrl,
  token: Redacted.make(tokens.owner),
  ...Session.clientOptions
}).pipe(Layer.provideMerge(Layer.mergeAll(ReferenceServer.layerTest(), Pacing.layer(), CreationQuota.layer())))

const tool = (name: string) => Tools.all.find((candidate) => candidate.definition.name === name)!

const run = (name: string, args: Handlers.Arguments) =>
  Effect.flatMap(CommunityApiClient.CommunityApiClient, (client) => Handlers.run(client, tool(name), args))

const errorOf = (result: { readonly structuredContent?: unknown }) =>
  (result.structuredContent as { readonly error: Answer.ErrorAnswer }).error

describe("tool errors", () => {
  it.effect("L2 L4 the 21st creation of a minute is CreationQuotaExceeded at once, with the time it resets", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 20; i++) {
        const created = yield* run("vars_create", { ...mainCommunity, title: `t${i}`, name: `quota_${i}` })
        expect(created.isError, JSON.stringify(created.content)).toBeFalsy()
      }
      const refused = yield* run("vars_create", { ...mainCommunity, title: "t", name: "quota_last" })
      expect(refused.isError).toBe(true)
      expect(errorOf(refused)).toMatchObject({
        type: "CreationQuotaExceeded",
        operation: "vars/create",
        window: "minute",
        resetsAt: "1970-01-01T00:01:00.000Z",
        advice: Advice.byTag.CreationQuotaExceeded
      })
      const server = yield* ReferenceServer.ReferenceServer
      expect((yield* server.recentRequests).filter((entry) => JSON.stringify(entry).includes("vars/create")))
        .toHaveLength(20)
    }).pipe(Effect.provide(TestLayer)))

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

  it.effect("E8 C5 lists_addUser answers no structured content and one line", () =>
    Effect.gen(function*() {
      const result = yield* run("lists_addUser", { list_id: DemoFixture.listId, uid: DemoFixture.subscriberUid })
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toBeUndefined()
      expect(result.content).toEqual([{
        type: "text",
        text: "lists/addUser: done; the API answers no data for this operation."
      }])
    }).pipe(Effect.provide(TestLayer)))

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
  })
})
