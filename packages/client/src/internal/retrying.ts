/**
 * The envelope-level retry of a call, as `Retry.decide` reads it from the contract: errors that the
 * policy retries go round its schedule, and an ambiguous failure of an operation that is not safe to
 * repeat ends as `OutcomeUnknownError`. Each attempt is numbered on the call's span.
 */
import type { Operation } from "@community-api/schema"
import { Effect, Either, Predicate, Ref } from "effect"
import type { Schedule } from "effect"
import * as ClientError from "../ClientError.js"
import * as Retry from "../Retry.js"

/**
 * What the retry of a call reads of its operation.
 *
 * @internal
 */
export type Flags = Pick<Operation.Any, "safeToRepeat" | "creation">

/**
 * Runs `retried` over `attempt`, each run of the attempt annotating the current span with its number
 * (counted afresh for every run of the result).
 *
 * @internal
 */
export const numbered = <A, E, B, E2>(
  attempt: Effect.Effect<A, E>,
  retried: (attempt: Effect.Effect<A, E>) => Effect.Effect<B, E2>
): Effect.Effect<B, E2> =>
  Effect.flatMap(Ref.make(0), (count) =>
    retried(
      Effect.zipRight(
        Effect.flatMap(
          Ref.updateAndGet(count, (n) => n + 1),
          (n) => Effect.annotateCurrentSpan("community_api.attempt", n)
        ),
        attempt
      )
    ))

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
