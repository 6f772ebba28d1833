/**
 * What is left of a user's limits and when it comes back, as the client's limiters read it from their
 * store (memory or Redis): `client.budget`, `Pacing.Service.budget`, `CreationQuota.Service.budget`
 * and `estimate`. The models and the arithmetic of the core's `Budget`, and the JSON that the
 * command line (`limits --json`) and the MCP server (`limits_get`) show of them: {@link Json}, made
 * by {@link toJson}, whose JSON Schema the MCP server derives for its tool. The JSON's fields and
 * the conversion are the core's (`Budget.Json`, `Budget.toJson` of `@community-api/core`), the same on
 * the Effect 4 line; the schemas are this line's.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Budget"
import { DateTime, Schema } from "effect"

/**
 * The budgets' arithmetic and `Window` (over epoch milliseconds, as the stores keep them), constants
 * (`maxCreations`, `limiters`) and `mapInstants`, from the core. The models of this line's instants
 * (`Requests`, `Creations`, `OfUser`, `Estimate`, `Question`), `Json`, `WindowJson` and `toJson` are
 * this module's own below, over the core's.
 *
 * @since 0.1.0
 */
export * from "@community-api/core/Budget"

/**
 * An instant of a budget as the core and the stores keep it (epoch milliseconds), as this line gives
 * it: a `DateTime.Utc`. The one conversion of the services' budgets, by `mapInstants`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const utc = (epochMillis: number): DateTime.Utc => DateTime.unsafeMake(epochMillis)

/**
 * The requests of a user's rate window, and when the next permit held comes back (`DateTime.Utc`, or
 * `undefined` while every held permit waits for its answer). A store's is `Requests<number>`.
 *
 * @since 0.1.0
 * @category models
 */
export type Requests<Instant = DateTime.Utc> = Core.Requests<Instant>

/**
 * The creations left to a user in the current calendar minute and day, and when each resets
 * (`DateTime.Utc`): two of the core's `Window<DateTime.Utc>`. A store's is `Creations<number>`.
 *
 * @since 0.1.0
 * @category models
 */
export type Creations<Instant = DateTime.Utc> = Core.Creations<Instant>

/**
 * What is left of a user's limits (`client.budget`): its {@link Requests} and {@link Creations}.
 *
 * @since 0.1.0
 * @category models
 */
export type OfUser<Instant = DateTime.Utc> = Core.OfUser<Instant>

/**
 * Whether a number of creations fits by an instant: `InTime` with the instant the last of them can be
 * sent (`lastAt`), or `Late` with the earliest they could all be sent by (`earliest`), each a
 * `DateTime.Utc`.
 *
 * @since 0.1.0
 * @category models
 */
export type Estimate<Instant = DateTime.Utc> = Core.Estimate<Instant>

/**
 * Whether `creations` creations can all be sent `by` an instant (a `DateTime.Utc`).
 *
 * @since 0.1.0
 * @category models
 */
export type Question<Instant = DateTime.Utc> = Core.Question<Instant>

// What each field means is said once, by the command's help and the tool's description: a JSON Schema
// derived from these holds the shapes alone (`{ type: "integer", minimum: 0 }`, not effect's
// descriptions of its filters), as the tool list's size is paid for by every conversation.
const Count = Schema.Int.pipe(Schema.nonNegative({ jsonSchema: { type: "integer", minimum: 0 } }))

/** An instant in ISO 8601, UTC, to the millisecond: `2026-01-01T15:00:00.000Z`. */
const Instant = Schema.String

const window = { used: Count, limit: Count, left: Count }

/**
 * One window of a limit, as {@link Json} shows it: used, limit, left, and when it resets.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WindowJson = Schema.Struct({ ...window, resets_at: Instant })

/**
 * One window of a limit as the JSON shows it: the type {@link WindowJson} decodes to.
 *
 * @since 0.1.0
 * @category schemas
 */
export type WindowJson = typeof WindowJson.Type

/**
 * The JSON of a budget: where the limiters keep it, the requests (`resets_at` null while every permit
 * held waits for its answer), the creations of the minute and the day, and the answer to a
 * {@link Question} when one was asked (`last_at`, the earliest instant the last of them can be sent).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Json = Schema.Struct({
  limiters: Schema.Literal(...Core.limiters),
  requests: Schema.Struct({ ...window, resets_at: Schema.NullOr(Instant) }),
  creations: Schema.Struct({ minute: WindowJson, day: WindowJson }),
  estimate: Schema.optional(Schema.Struct({ creations: Count, by: Instant, in_time: Schema.Boolean, last_at: Instant }))
})

/**
 * The JSON of a budget: the type {@link Json} decodes to.
 *
 * @since 0.1.0
 * @category schemas
 */
export type Json = typeof Json.Type

/**
 * The {@link Json} of a budget kept where `limiters` says, with the answer to `asked` when there is
 * one (its `estimate`, from `Budget.estimate` of the same budget): the core's conversion, the same on
 * the Effect 4 line, its instants read by `DateTime.toEpochMillis`.
 *
 * @example
 * ```ts
 * import { Budget, CommunityApiClient } from "@community-api/client"
 * import { DemoFixture, ReferenceServer } from "@community-api/server"
 * import { Effect, Layer, Redacted } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoFixture.tokens.owner)
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * // The budget as JSON, for a status page or a tool's answer.
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const json = Budget.toJson(yield* api.budget, "memory")
 *   strictEqual(json.creations.minute.limit, 20)
 *   strictEqual(typeof json.creations.day.resets_at, "string")
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const toJson = (
  budget: OfUser,
  limiters: Core.Limiters,
  asked?: Question & { readonly estimate: Estimate }
): Json => Core.toJson(budget, limiters, asked, DateTime.toEpochMillis)
