/**
 * The attempts of a call, as the core's plan (`@community-api/core/CallPlan`) decides them: again at
 * once after error 5 (the admission waits for the window), on the policy's schedule after the errors
 * it retries, or an `OutcomeUnknownError` after an ambiguous failure of an operation that is not safe
 * to repeat. The schedule's steps (with their sleeps) are made only once an attempt failed; each
 * attempt after the first is numbered on the call's span.
 */
import * as CallPlan from "@community-api/core/CallPlan"
import * as Spans from "@community-api/core/Spans"
import { Effect, Schedule } from "effect"
import * as Pull from "effect/Pull"
import * as ClientError from "../ClientError.js"
import type * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"

/** Runs the attempts of a call of `operation` as `plan` says; once one failed, the rest within `rest`. */
export const run = <A, E, E2>(
  operation: string,
  plan: CallPlan.CallPlan,
  schedule: Schedule.Schedule<unknown, Retry.Retryable>,
  attempt: Effect.Effect<A, E>,
  rest: (retries: Effect.Effect<A, E | ClientError.OutcomeUnknownError>) => Effect.Effect<A, E2>
): Effect.Effect<A, E | ClientError.OutcomeUnknownError | E2> => {
  type Failure = E | ClientError.OutcomeUnknownError
  const counted = Effect.suspend(() => {
    const number = plan.started()
    return number === 1 ? attempt : Metrics.retried(plan.last()).pipe(
      Effect.andThen(Effect.annotateCurrentSpan(Spans.attemptAttribute, number)),
      Effect.andThen(attempt)
    )
  })
  const stop = (error: E, step: CallPlan.Step): Effect.Effect<never, Failure> =>
    Effect.fail(
      step === "outcome-unknown"
        ? new ClientError.OutcomeUnknownError({ operation, reason: CallPlan.unknownReason(error) })
        : error
    )
  const retried = (first: E, firstStep: CallPlan.Step) =>
    Effect.flatMap(Schedule.toStepWithSleep(schedule as Schedule.Schedule<unknown, unknown>), (delay) => {
      const after = (error: E, step: CallPlan.Step): Effect.Effect<A, Failure> =>
        step === "again"
          ? loop
          : step === "schedule"
          // Only the errors the policy retries step the schedule; spent, the call fails with the error.
          ? Pull.catchDone(Effect.andThen(delay(error), loop), () => Effect.fail(error))
          : stop(error, step)
      const loop: Effect.Effect<A, Failure> = Effect.catch(counted, (error) => after(error, plan.failed(error)))
      return after(first, firstStep)
    })
  return Effect.catch(counted, (first): Effect.Effect<A, Failure | E2> => {
    const step = plan.failed(first)
    return step === "again" || step === "schedule" ? rest(retried(first, step)) : stop(first, step)
  })
}
