/**
 * What is left of a user's limits and when it comes back, as the client's limiters read it from their
 * store (memory or Redis): `client.budget`, `Pacing.Service.budget`, `CreationQuota.Service.budget`
 * and `estimate`. The models and the arithmetic of the core's `Budget`, and the JSON that the command
 * line (`limits --json`) and the MCP server (`limits_get`) show of them on the Effect 3 line:
 * {@link Json}, made by {@link toJson}. The JSON's fields and the conversion are the core's
 * (`Budget.Json`, `Budget.toJson` of `@community-api/core`), so both lines give the same JSON of the
 * same budget; the schemas are this line's, in Effect 4's idioms.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Budget"
import { Schema } from "effect"
import * as Target from "./Target.js"

/**
 * The budgets' models (`Requests`, `Creations`, `OfUser`, `Estimate`, `Question`), arithmetic and
 * constants (`maxCreations`, `limiters`), from the core. `Json`, `WindowJson` and `toJson` are this
 * module's own below, over the core's.
 *
 * @since 0.1.0
 */
export * from "@community-api/core/Budget"

// What each field means is said once, by the command's help and the tool's description. Effect 4's
// JSON Schema of a check holds its keyword alone (`{ type: "integer", minimum: 0 }`), with none of the
// descriptions effect 3 adds, so no annotation is needed for the shapes alone.
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

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
  limiters: Target.Limiters,
  requests: Schema.Struct({ ...window, resets_at: Schema.NullOr(Instant) }),
  creations: Schema.Struct({ minute: WindowJson, day: WindowJson }),
  // `optional` as on the Effect 3 line: absent, or `undefined` in the type (`toJson` never writes it).
  estimate: Schema.optional(Schema.Struct({ creations: Count, by: Instant, in_time: Schema.Boolean, last_at: Instant }))
})

/**
 * @since 0.1.0
 * @category schemas
 */
export type Json = typeof Json.Type

/**
 * The {@link Json} of a budget kept where `limiters` says, with the answer to `asked` when there is
 * one (its `estimate`, `Budget.estimate` of the same budget): the core's conversion, the same on the
 * Effect 3 line.
 *
 * @since 0.1.0
 * @category encoding
 */
export const toJson: (...args: Parameters<typeof Core.toJson>) => Json = Core.toJson
