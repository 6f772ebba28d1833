/**
 * This line's effects for the steps of a call that the core takes (`@community-api/core/CallSteps`):
 * reading an answer's envelope, and the attempts as the core's plan (`CallPlan`) decides them. What
 * needs this line's Effect is here: the schedule's delays (its driver, made only once an attempt has
 * failed: most calls succeed at once) and the numbering of the attempts on the call's span.
 */
import type * as CallSteps from "@community-api/core/CallSteps"
import type { TypeLambda } from "@community-api/core/RedisCounts"
import * as Spans from "@community-api/core/Spans"
import { Envelope } from "@community-api/schema"
import { Effect, Schedule } from "effect"
import * as ClientError from "../ClientError.js"
import type * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"

/** This line's effect of a result, its errors left to the call's types. @internal */
export interface F extends TypeLambda {
  readonly type: Effect.Effect<this["A"], any>
}

/** @internal */
export const effects: CallSteps.Effects<F> = {
  suspend: Effect.suspend,
  fail: Effect.fail,
  catchAll: (effect, f) => Effect.catchAll(effect, f),
  catchDefect: (effect, f) => Effect.catchAllDefect(effect, f),
  andThen: (first, next) => Effect.zipRight(first, next),
  flatMap: (effect, f) => Effect.flatMap(effect, f)
}

/** An answer that is not the operation's envelope is a `ResponseDecodeError`. @internal */
export const decoding: CallSteps.Decoding = {
  isEnvelopeError: (error): error is Envelope.EnvelopeDecodeError => error instanceof Envelope.EnvelopeDecodeError,
  unreadable: (operation, reason) => new ClientError.ResponseDecodeError({ operation, reason })
}

/**
 * The retries of a client on `schedule`. Each attempt after the first annotates the current span with
 * its number and is counted as a retry by what the one before it failed with. The first attempt's
 * number is among the span's attributes from the start (the core's `Spans.attributesOf`): an
 * annotation costs several microseconds, and most calls make one attempt.
 *
 * @internal
 */
export const retries = (schedule: Schedule.Schedule<unknown, Retry.Retryable>): CallSteps.Retries<F> => ({
  numbered: (number, last, attempt) => {
    Metrics.retried(last)
    return Effect.zipRight(Effect.annotateCurrentSpan(Spans.attemptAttribute, number), attempt)
  },
  schedule: Effect.map(
    Schedule.driver(schedule),
    (driver) => (error: unknown) =>
      Effect.match(driver.next(error as Retry.Retryable), { onFailure: () => false, onSuccess: () => true })
  ),
  unknown: (operation, reason) => new ClientError.OutcomeUnknownError({ operation, reason })
})
