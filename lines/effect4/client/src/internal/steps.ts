/**
 * This line's effects for the steps of a call that the core takes (`@community-api/core/CallSteps`):
 * reading an answer's envelope, and the attempts as the core's plan (`CallPlan`) decides them. Here is
 * what needs Effect 4: the schedule's steps (with their sleeps), made only once an attempt failed, and
 * each attempt after the first numbered on the call's span.
 */
import type * as CallSteps from "@community-api/core/CallSteps"
import type { TypeLambda } from "@community-api/core/RedisCounts"
import * as Spans from "@community-api/core/Spans"
import { Envelope } from "@community-api/effect4-schema"
import { Effect, Schedule } from "effect"
import * as Pull from "effect/Pull"
import * as ClientError from "../ClientError.js"
import type * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"

/** An Effect 4 effect of a result, its errors left to the call's types. */
export interface F extends TypeLambda {
  readonly type: Effect.Effect<this["A"], any>
}

/** The combinators the core's steps run with. */
export const effects: CallSteps.Effects<F> = {
  suspend: Effect.suspend,
  fail: Effect.fail,
  catchAll: (effect, f) => Effect.catch(effect, f),
  catchDefect: (effect, f) => Effect.catchDefect(effect, f),
  andThen: (first, next) => Effect.andThen(first, next),
  flatMap: (effect, f) => Effect.flatMap(effect, f)
}

/** The envelope's own error, and the `ResponseDecodeError` it becomes. */
export const decoding: CallSteps.Decoding = {
  isEnvelopeError: (error): error is Envelope.EnvelopeDecodeError => error instanceof Envelope.EnvelopeDecodeError,
  unreadable: (operation, reason) => new ClientError.ResponseDecodeError({ operation, reason })
}

/** The retries of a client on `schedule`: spent, it tells the core to stop (the call fails with the error). */
export const retries = (schedule: Schedule.Schedule<unknown, Retry.Retryable>): CallSteps.Retries<F> => ({
  numbered: (number, last, attempt) =>
    Metrics.retried(last).pipe(
      Effect.andThen(Effect.annotateCurrentSpan(Spans.attemptAttribute, number)),
      Effect.andThen(attempt)
    ),
  schedule: Effect.map(
    Schedule.toStepWithSleep(schedule as Schedule.Schedule<unknown, unknown>),
    (delay) => (error: unknown) => Pull.catchDone(Effect.as(delay(error), true), () => Effect.succeed(false))
  ),
  unknown: (operation, reason) => new ClientError.OutcomeUnknownError({ operation, reason })
})
