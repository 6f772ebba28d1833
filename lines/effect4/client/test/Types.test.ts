import type { ApiError, Bot, Operation, Operations } from "@community-api/effect4-schema"
import { describe, expectTypeOf, it } from "@effect/vitest"
import type { DateTime, Effect, Stream } from "effect"
import type * as ClientError from "../src/ClientError.js"
import type * as CommunityApiClient from "../src/CommunityApiClient.js"

type Client = CommunityApiClient.Client
type ErrorOf<F> = F extends (...args: ReadonlyArray<any>) => Effect.Effect<any, infer E, any> ? E : never
type SuccessOf<F> = F extends (...args: ReadonlyArray<any>) => Effect.Effect<infer A, any, any> ? A : never

describe("Types", () => {
  it("E6 X1 C10 bots/enable takes a branded bot_id and fails with exactly its codes plus the client's errors", () => {
    expectTypeOf<Parameters<Client["bots"]["enable"]>[0]>().toEqualTypeOf<
      Operation.Params<typeof Operations.bots.enable>
    >()
    expectTypeOf<SuccessOf<Client["bots"]["enable"]>>().toEqualTypeOf<Bot.Bot>()
    expectTypeOf<ErrorOf<Client["bots"]["enable"]>>().toEqualTypeOf<
      | ApiError.InvalidTokenError
      | ApiError.RateLimitError
      | ApiError.ActionFailedError
      | ApiError.InvalidParameterError
      | ApiError.AccessDeniedError
      | ApiError.KeyServiceUnavailableError
      | ApiError.InternalServerError
      | ApiError.UnexpectedApiError
      | ClientError.TransportError
      | ClientError.TimeoutError
      | ClientError.RequestEncodeError
      | ClientError.ResponseDecodeError
      | ClientError.LimiterUnavailable
    >()
  })

  it("L2 X1 only creations can fail on the quota, and only operations unsafe to repeat with an unknown outcome", () => {
    expectTypeOf<ClientError.OutcomeUnknownError>().toMatchTypeOf<ErrorOf<Client["vars"]["create"]>>()
    expectTypeOf<ClientError.CreationQuotaExceeded>().toMatchTypeOf<ErrorOf<Client["lists"]["create"]>>()
    expectTypeOf<Extract<ErrorOf<Client["vars"]["get"]>, ClientError.CreationQuotaExceeded>>().toEqualTypeOf<never>()
    expectTypeOf<Extract<ErrorOf<Client["vars"]["get"]>, ClientError.OutcomeUnknownError>>().toEqualTypeOf<never>()
    expectTypeOf<Extract<ErrorOf<Client["lists"]["rename"]>, ClientError.CreationQuotaExceeded>>()
      .toEqualTypeOf<never>()
    expectTypeOf<Extract<ErrorOf<Client["bots"]["addUser"]>, ClientError.OutcomeUnknownError>>()
      .toEqualTypeOf<ClientError.OutcomeUnknownError>()
  })

  it("E1 E11 users/me needs no parameters; vars/create requires its four and gives dates as DateTime", () => {
    expectTypeOf<Parameters<Client["users"]["me"]>>().toEqualTypeOf<[params?: {}]>()
    expectTypeOf<Parameters<Client["vars"]["create"]>[0]>().toHaveProperty("title")
    expectTypeOf<SuccessOf<Client["vars"]["create"]>["create_at"]>().toEqualTypeOf<DateTime.Utc>()
    expectTypeOf<ClientError.CreationQuotaExceeded>().toMatchTypeOf<ErrorOf<Client["vars"]["create"]>>()
    expectTypeOf<ApiError.RateLimitError>().toMatchTypeOf<ErrorOf<Client["vars"]["create"]>>()
  })

  it("C5 E13 operations with no response field succeed with void", () => {
    expectTypeOf<SuccessOf<Client["vars"]["clear"]>>().toEqualTypeOf<void>()
  })

  it("E17 undocumented operations take any record and give unknown", () => {
    // Operations with an assumption in the contract take its payload; the others, any record.
    expectTypeOf<Parameters<Client["funnels"]["getById"]>[0]>().toEqualTypeOf<
      { readonly [x: string]: unknown } | undefined
    >()
    expectTypeOf<SuccessOf<Client["funnels"]["get"]>>().toEqualTypeOf<unknown>()
  })

  it("E17 an operation assumed in the contract takes the assumed payload", () => {
    expectTypeOf<Parameters<Client["lists"]["create"]>[0]>().toHaveProperty("name")
    expectTypeOf<Parameters<Client["bots"]["addUser"]>[0]>().toHaveProperty("bot_id")
  })

  it("C12 streams exist for list operations only, and yield decoded items", () => {
    expectTypeOf<Client["streams"]["bots"]>().toHaveProperty("get")
    expectTypeOf<keyof Client["streams"]["bots"]>().toEqualTypeOf<"get">()
    expectTypeOf<keyof Client["streams"]["users"]>().toEqualTypeOf<never>()
    expectTypeOf<ReturnType<Client["streams"]["bots"]["get"]>>().toMatchTypeOf<Stream.Stream<Bot.Bot, any>>()
  })
})
