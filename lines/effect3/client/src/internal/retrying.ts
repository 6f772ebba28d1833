/**
 * The envelope-level retry of a call, as `Retry.decide` reads it from the contract: errors that the
 * policy retries go round its schedule, and an ambiguous failure of an operation that is not safe to
 * repeat ends as `OutcomeUnknownError`. Each attempt is numbered on the call's span.
 */
import type { Operation } from "@community-api/schema"
import { Effect, Either, Predicate } from "effect"
import type { Schedule } from "effect"
import * as ClientError from "../ClientError.js"
import * as Retry from "../Retry.js"
import * as Metrics from "./metrics.js"

/**
 * What the retry of a call reads of its operation.
 *
 * @internal
 */
export type Flags = Pick<Operation.Any, "safeToRepeat" | "creation">

/**
 * Runs `retried` over `attempt`, each run of the attempt after the first annotating the current span
 * with its number (counted afresh for every run of the result) and counted as a retry, by what the
 * run before it failed with. The first attempt's number is among
 * the span's attributes from the start ({@link firstAttempt}): an annotation costs several
 * microseconds, and most calls make one attempt.
 *
 * @internal
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
        Metrics.retried(last)
        return Effect.zipRight(Effect.annotateCurrentSpan(attemptAttribute, count), run)
      })
    )
  })

/** The span attribute that numbers the attempts of a call. @internal */
export const attemptAttribute = "community_api.attempt"

/** The span attributes of a call's first attempt. @internal */
export const firstAttempt = { [attemptAttribute]: 1 } as const

/**
 * The attempt as a retry runs it again after `first`: its first run fails with `first` at once (the
 * attempt that failed with it has already run), every later run is the attempt. So a policy applied
 * to it sees the same errors, in the same order, as when applied to the attempt from the start. Made
 * once per failure: its runs share the state.
 */
const resumedAfter = <A, E>(attempt: Effect.Effect<A, E>, first: E): Effect.Effect<A, E> => {
  let failed = false
  return Effect.suspend(() => {
    if (failed) return attempt
    failed = true
    return Effect.fail(first)
  })
}

/**
 * Applies `retry` to the attempt only once it has failed (unless with an error `final` accepts): the
 * same runs and the same result as `retry(attempt)`, but the machinery of a retry (a schedule's state,
 * its loop, a race against the deadline) is built only then, and most calls succeed at once.
 *
 * @internal
 */
export const lazily =
  <A, E, E2>(retry: (attempt: Effect.Effect<A, E>) => Effect.Effect<A, E2>, final: (error: E) => boolean) =>
  (attempt: Effect.Effect<A, E>): Effect.Effect<A, E | E2> =>
    Effect.catchAll(
      attempt,
      (first): Effect.Effect<A, E | E2> => final(first) ? Effect.fail(first) : retry(resumedAfter(attempt, first))
    )

/**
 * Sends the attempt again on `schedule` while it fails with an error the policy retries (9 always;
 * 101, transport failures and timeouts when the operation is safe to repeat).
 *
 * @internal
 */
export const onSchedule =
  (target: Flags, schedule: Schedule.Schedule<unknown, Retry.Retryable>) =>
  <A, E>(attempt: Effect.Effect<A, E>): Effect.Effect<A, E> => {
    const isRetried = (error: E): error is E & Retry.Retryable => Retry.decide(target, error) === "retry"
    // Only the errors the policy retries reach its schedule; any other one leaves the loop as a value.
    return attempt.pipe(
      Effect.either,
      Effect.flatMap((result) =>
        Either.isLeft(result) && isRetried(result.left) ? Effect.fail(result.left) : Effect.succeed(result)
      ),
      Effect.retry(schedule),
      Effect.flatMap(Either.match({ onLeft: Effect.fail, onRight: Effect.succeed }))
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

/**
 * An ambiguous failure (101, transport, timeout) of an operation that is not safe to repeat, once no
 * longer retried, becomes `OutcomeUnknownError`: the action may or may not have happened.
 *
 * @internal
 */
export const outcomeUnknown =
  (target: Flags & Pick<Operation.Any, "path">) =>
  <A, E>(attempt: Effect.Effect<A, E>): Effect.Effect<A, E | ClientError.OutcomeUnknownError> =>
    Effect.catchIf(
      attempt,
      (error) => Retry.decide(target, error) === "outcome-unknown",
      (error) => Effect.fail(new ClientError.OutcomeUnknownError({ operation: target.path, reason: reasonOf(error) }))
    )
