/**
 * The envelope-level retry of a call, as `Retry.decide` reads it from the contract: errors that the
 * policy retries go round its schedule, and an ambiguous failure of an operation that is not safe to
 * repeat ends as `OutcomeUnknownError`. Each attempt is numbered on the call's span.
 */
import type { Operation } from "@community-api/effect4-schema"
import { Effect, Predicate, Result } from "effect"
import type { Schedule } from "effect"
import * as ClientError from "../ClientError.js"
import * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"

/** What the retry of a call reads of its operation. */
export type Flags = Pick<Operation.Any, "safeToRepeat" | "creation">

/** The span attribute of an attempt's number. */
export const attemptAttribute = "community_api.attempt"

/** The first attempt's number, among the span's attributes from the start. */
export const firstAttempt = { [attemptAttribute]: 1 } as const

/**
 * Runs `retried` over `attempt`, each run of the attempt after the first annotating the current span
 * with its number, and counts it as a retry by what the run before it failed with.
 */
export const numbered = <A, E, B, E2>(
  attempt: Effect.Effect<A, E>,
  retried: (attempt: Effect.Effect<A, E>) => Effect.Effect<B, E2>
): Effect.Effect<B, E2> =>
  Effect.suspend(() => {
    let count = 0
    // What the last run failed with: the reason of the next one, counted in the retries' metric.
    let last: unknown
    const run = Effect.tapError(attempt, (error) => {
      last = error
      return Effect.void
    })
    return retried(
      Effect.suspend(() => {
        count++
        if (count === 1) return run
        return Metrics.retried(last).pipe(
          Effect.andThen(Effect.annotateCurrentSpan(attemptAttribute, count)),
          Effect.andThen(run)
        )
      })
    )
  })

/** `attempt`, whose first run fails with `first` (it already failed so) and later runs run it. */
const resumedAfter = <A, E>(attempt: Effect.Effect<A, E>, first: E): Effect.Effect<A, E> => {
  let failed = false
  return Effect.suspend(() => {
    if (failed) return attempt
    failed = true
    return Effect.fail(first)
  })
}

/** The retries of `attempt`, built only once it failed with an error that is not `final`. */
export const lazily =
  <A, E, E2>(retry: (attempt: Effect.Effect<A, E>) => Effect.Effect<A, E2>, final: (error: E) => boolean) =>
  (attempt: Effect.Effect<A, E>): Effect.Effect<A, E | E2> =>
    Effect.catch(
      attempt,
      (first): Effect.Effect<A, E | E2> => final(first) ? Effect.fail(first) : retry(resumedAfter(attempt, first))
    )

/** Sends `attempt` again on `schedule` after the errors the policy retries. */
export const onSchedule =
  (target: Flags, schedule: Schedule.Schedule<unknown, Retry.Retryable>) =>
  <A, E>(attempt: Effect.Effect<A, E>): Effect.Effect<A, E> => {
    const isRetried = (error: E): error is E & Retry.Retryable => Retry.decide(target, error) === "retry"
    // Only the errors the policy retries reach its schedule; any other one leaves the loop as a value.
    return attempt.pipe(
      Effect.result,
      Effect.flatMap((result) =>
        Result.isFailure(result) && isRetried(result.failure) ? Effect.fail(result.failure) : Effect.succeed(result)
      ),
      Effect.retry(schedule as Schedule.Schedule<unknown, E & Retry.Retryable>),
      Effect.flatMap((result) =>
        Result.isFailure(result) ? Effect.fail(result.failure) : Effect.succeed(result.success)
      )
    )
  }

const reasonOf = (error: unknown): string => {
  if (Predicate.isTagged(error, "TimeoutError")) return "timeout"
  if (Predicate.isTagged(error, "TransportError") && Predicate.hasProperty(error, "reason")) {
    return `transport: ${String(error.reason)}`
  }
  if (Predicate.hasProperty(error, "code")) return `error ${String(error.code)}`
  return "unknown failure"
}

/** An ambiguous failure of an operation that is not safe to repeat, as `OutcomeUnknownError`. */
export const outcomeUnknown =
  (target: Flags & Pick<Operation.Any, "path">) =>
  <A, E>(attempt: Effect.Effect<A, E>): Effect.Effect<A, E | ClientError.OutcomeUnknownError> =>
    Effect.catchIf(
      attempt,
      (error) => Retry.decide(target, error) === "outcome-unknown",
      (error) => Effect.fail(new ClientError.OutcomeUnknownError({ operation: target.path, reason: reasonOf(error) }))
    )
