/**
 * Faults the reference server can inject, so that tests (through the `ReferenceServer` service) and the
 * sandbox (through `--faults` and `POST /_sandbox/faults`) can see how a caller copes with a flaky
 * service. Every fault is off by default.
 *
 * @since 0.1.0
 */
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
