/**
 * The deadline of a whole call: every attempt, retry, pacing wait and quota wait together. When it
 * passes the call stops (an attempt in flight is abandoned and its connection closed) and fails with
 * `TimeoutError { scope: "call" }`, unless an attempt of an operation that is not safe to repeat was
 * in flight at that moment: it may have reached the server, so the call fails with
 * `OutcomeUnknownError`, the same answer as for a timeout of that attempt.
 */
import { Duration, Effect, Exit } from "effect"
import * as ClientError from "../ClientError.js"
import * as Retry from "../Retry.js"
import type * as Retrying from "./retrying.js"

/**
 * Marks an exchange as in flight while it runs; an exchange ended by the deadline stays marked.
 *
 * @internal
 */
export type InFlight = <A, E>(exchange: Effect.Effect<A, E>) => Effect.Effect<A, E>

/**
 * Runs the call that `make` builds within `deadline`.
 *
 * @internal
 */
export const bounded = <A, E>(
  target: Retrying.Flags & { readonly path: string },
  deadline: Duration.Duration,
  make: (inFlight: InFlight) => Effect.Effect<A, E>
): Effect.Effect<A, E | ClientError.TimeoutError | ClientError.OutcomeUnknownError> =>
  Effect.suspend(() => {
    const deadlineMillis = Duration.toMillis(deadline)
    let flying = 0
    const inFlight: InFlight = (exchange) =>
      Effect.suspend(() => {
        flying++
        return exchange
      }).pipe(
        // Interrupted by the deadline, it stays in flight for the verdict below.
        Effect.onExit((exit) => Exit.isInterrupted(exit) ? Effect.void : Effect.sync(() => flying--))
      )
    // The same verdict as a timeout of the attempt: ambiguous unless the operation is safe to repeat.
    const ambiguous =
      Retry.decide(target, new ClientError.TimeoutError({ operation: target.path, timeoutMillis: 0 })) ===
        "outcome-unknown"
    return Effect.timeoutFail(make(inFlight), {
      duration: deadline,
      onTimeout: () =>
        ambiguous && flying > 0
          ? new ClientError.OutcomeUnknownError({
            operation: target.path,
            reason: `deadline: the call's deadline of ${deadlineMillis} ms passed while an attempt was in flight`
          })
          : new ClientError.TimeoutError({ operation: target.path, timeoutMillis: deadlineMillis, scope: "call" })
    })
  })
