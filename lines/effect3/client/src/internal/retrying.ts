/**
 * The attempts of a call, as the core's plan (`@community-api/core/CallPlan`) decides them from the
 * contract: an attempt refused with 5 is sent again at once (its admission waits for the window),
 * errors the policy retries are sent again on its schedule, and an ambiguous failure of an operation
 * that is not safe to repeat ends as `OutcomeUnknownError`. This module carries the steps out: the
 * schedule's delays (its driver, made only once an attempt has failed: most calls succeed at once),
 * and the numbering of the attempts on the call's span.
 */
import * as CallPlan from "@community-api/core/CallPlan"
import * as Spans from "@community-api/core/Spans"
import { Effect, Schedule } from "effect"
import * as ClientError from "../ClientError.js"
import type * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"

/**
 * Runs `attempt` as `plan` says, and once it failed, the rest of the call within `rest` (the deadline's
 * race). Each attempt after the first annotates the current span with its number and is counted as a
 * retry by what the one before it failed with. The first attempt's number is among the span's
 * attributes from the start (the core's `Spans.attributesOf`): an annotation costs several microseconds, and most
 * calls make one attempt.
 *
 * @internal
 */
export const run = <A, E, E2>({ attempt, operation, plan, rest, schedule }: {
  readonly operation: string
  readonly plan: CallPlan.CallPlan
  readonly schedule: Schedule.Schedule<unknown, Retry.Retryable>
  readonly attempt: Effect.Effect<A, E>
  /** Bounds the rest of the call, once an attempt failed (the deadline's race). */
  readonly rest: (retries: Effect.Effect<A, E | ClientError.OutcomeUnknownError>) => Effect.Effect<A, E2>
}): Effect.Effect<A, E | ClientError.OutcomeUnknownError | E2> => {
  const numbered = Effect.suspend(() => {
    const number = plan.started()
    if (number === 1) return attempt
    Metrics.retried(plan.last())
    return Effect.zipRight(Effect.annotateCurrentSpan(Spans.attemptAttribute, number), attempt)
  })
  const ended = (step: CallPlan.Step, error: E) =>
    step === "outcome-unknown"
      ? Effect.fail(new ClientError.OutcomeUnknownError({ operation, reason: CallPlan.unknownReason(error) }))
      : Effect.fail(error)
  return Effect.catchAll(numbered, (first): Effect.Effect<A, E | ClientError.OutcomeUnknownError | E2> => {
    const step = plan.failed(first)
    if (step === "outcome-unknown" || step === "fail") return ended(step, first)
    return rest(Effect.flatMap(Schedule.driver(schedule), (driver) => {
      // Only the errors the policy retries reach the schedule.
      const next = (error: E, step: CallPlan.Step): Effect.Effect<A, E | ClientError.OutcomeUnknownError> => {
        if (step === "again") return again
        if (step !== "schedule") return ended(step, error)
        return Effect.matchEffect(driver.next(error as Retry.Retryable), {
          onFailure: () => Effect.fail(error),
          onSuccess: () => again
        })
      }
      const again = Effect.catchAll(numbered, (error) => next(error, plan.failed(error)))
      return next(first, step)
    }))
  })
}
