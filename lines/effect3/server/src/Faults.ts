/**
 * Faults the reference server can inject, so that tests (through the `ReferenceServer` service) and the
 * sandbox (through `--faults` and `POST /_sandbox/faults`) can see how a caller copes with a flaky
 * service. Every fault is off by default.
 *
 * @since 0.1.0
 */
import type * as Drift from "@community-api/core/Drift"
import { Schema } from "effect"

const Count = Schema.Int.pipe(Schema.nonNegative())
const Probability = Schema.Number.pipe(Schema.between(0, 1))
const Millis = Schema.Int.pipe(Schema.nonNegative())

/**
 * Which operations a fault hits: `section/method` strings as `Operation.path`; all when omitted.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Paths = Schema.Array(Schema.String)

/**
 * "the next N matching requests", or "each matching request with a probability, drawn from a seeded
 * generator" (deterministic for a given seed).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Trigger = Schema.Union(
  Schema.Struct({ next: Count }),
  Schema.Struct({ probability: Probability, seed: Schema.Int })
)

/**
 * The type {@link Trigger} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Trigger = typeof Trigger.Type

const Targeted = {
  /** Only these `section/method` paths; every operation when omitted. */
  paths: Schema.optional(Paths),
  /** `true`: the action is performed and then the fault is answered (the ambiguous case). */
  afterAction: Schema.optional(Schema.Boolean)
}

/**
 * Every fault, all optional.
 *
 * - `keyServiceUnavailable`: error 9, nothing done.
 * - `internalError`: error 101; with `afterAction: true` the action is performed first.
 * - `latency`: a delay before every answer, on the server's clock: the Effect `Clock` (so `TestClock`
 *   drives it), or the clock given in the server's options.
 * - `dropConnection`: no answer at all. In process the client fails with a transport
 *   `RequestError`; on a port the socket is destroyed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FaultSettings = Schema.Struct({
  keyServiceUnavailable: Schema.optional(Trigger),
  internalError: Schema.optional(Schema.Union(
    Schema.Struct({ next: Count, ...Targeted }),
    Schema.Struct({ probability: Probability, seed: Schema.Int, ...Targeted })
  )),
  latency: Schema.optional(Schema.Union(
    Schema.Struct({ fixed: Millis }),
    Schema.Struct({ min: Millis, max: Millis, seed: Schema.Int })
  )),
  dropConnection: Schema.optional(Schema.Struct({ next: Count, ...Targeted }))
}).annotations({ identifier: "FaultSettings" })

/**
 * The type {@link FaultSettings} decodes to.
 *
 * @since 0.1.0
 * @category options
 */
export type FaultSettings = typeof FaultSettings.Type

/**
 * No faults.
 *
 * @since 0.1.0
 * @category constants
 */
export const none: FaultSettings = {}

type Json = Extract<Drift.Change, { readonly _tag: "Set" }>["value"]

const Json = Schema.Unknown as unknown as Schema.Schema<Json>

/**
 * A declared drift of the answers (`Drift` of the core), as `--drift` of the sandbox takes it: a list
 * of changes, each naming its operation (`section/method`) and a path (`response.items[].name`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const DriftSettings: Schema.Schema<Drift.Drift> = Schema.Array(Schema.Union(
  Schema.TaggedStruct("Rename", { operation: Schema.String, at: Schema.String, to: Schema.String }),
  Schema.TaggedStruct("Remove", { operation: Schema.String, at: Schema.String }),
  Schema.TaggedStruct("Add", { operation: Schema.String, at: Schema.String, value: Json }),
  Schema.TaggedStruct("Set", { operation: Schema.String, at: Schema.String, value: Json }),
  Schema.TaggedStruct("ErrorCode", { operation: Schema.String, code: Schema.Int })
)).annotations({ identifier: "DriftSettings" })

/**
 * Declared answers: for an undocumented reading operation the server does not model (which answers
 * error 6 otherwise), the `response` it answers instead, by operation (`section/method`), as the
 * sandbox's `--answers` file holds them: `{"bots/getSteps": [{"id": "…", "type": "text"}]}`.
 *
 * @since 0.1.0
 * @category models
 */
export type UndocumentedAnswers = { readonly [operation: string]: Json }

/**
 * {@link UndocumentedAnswers} as JSON: an object of JSON values by operation.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UndocumentedAnswersSettings: Schema.Schema<UndocumentedAnswers> = Schema.Record({
  key: Schema.String,
  value: Json
}).annotations({ identifier: "UndocumentedAnswers" })

/**
 * Declared answers given for an operation that may not have one: not an operation of the contract,
 * a documented one, one that does not only read, or one the server models. Raised when the server is
 * made, before it answers anything.
 *
 * @since 0.1.0
 * @category errors
 */
export class UndocumentedAnswersError extends Schema.TaggedError<UndocumentedAnswersError>()(
  "UndocumentedAnswersError",
  { operation: Schema.String, reason: Schema.String }
) {
  override get message() {
    return `a declared answer for ${this.operation}, which ${this.reason}`
  }
}
