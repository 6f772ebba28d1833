/**
 * The deadline of a whole call (every attempt, retry, pacing wait and quota wait together) and the
 * timeout of each attempt's exchange, as the Effect 3 line keeps them. When the deadline passes the
 * call stops (an attempt in flight is abandoned and its connection closed) and fails with
 * `TimeoutError { scope: "call" }`, unless an attempt of an operation that is not safe to repeat was
 * in flight at that moment: it may have reached the server, so the call fails with
 * `OutcomeUnknownError`. When an exchange outlasts the timeout, its attempt fails with `TimeoutError`.
 *
 * One race per attempt: the attempt against a watch that sleeps until the deadline, or until the
 * timeout of the exchange in flight signals that the exchange outlasted it (the timeouts of all
 * exchanges are kept by one fiber per clock, `timers.ts`, instead of a fiber forked and interrupted
 * for each). The watch decides the failure before the attempt is interrupted, so that it still sees
 * whether an exchange was in flight. Only once an attempt has failed does the rest of the call run
 * against the deadline alone.
 *
 * Unlike Effect 3's, Effect 4's `TestClock` wakes sleeps of one instant in the order they were
 * registered, so on it a quota's next minute that falls on the very instant of the deadline comes after
 * the deadline's watch (started with the attempt): such a call fails with the deadline's error. With a
 * real clock the two never tie.
 */
import * as CallDeadline from "@community-api/core/CallDeadline"
import type { Clock } from "effect"
import { Deferred, Duration, Effect, Exit } from "effect"
import * as ClientError from "../ClientError.js"
import * as Steps from "./steps.js"
import * as Timers from "./timers.js"

/** The timeouts of the exchanges in flight, of every client. */
const timeouts = Timers.make()

/** Each verdict's error, for the call of `operation`: made once, not for every call. */
/** @internal */
export const errors: CallDeadline.Errors<ClientError.TimeoutError, ClientError.OutcomeUnknownError> = {
  unknown: (operation, fields) => new ClientError.OutcomeUnknownError({ operation, ...fields }),
  timeout: (operation, fields) => new ClientError.TimeoutError({ operation, ...fields })
}

/** What the core's `CallDeadline.bounded` runs a call with: this line's effects, timers and race. @internal */
export const effects: CallDeadline.Effects<Steps.F, Clock.Clock> = {
  ...Steps.effects,
  now: (clock) => clock.currentTimeMillisUnsafe(),
  // The timer removed however the exchange ends, even when interrupted as soon as it was added.
  timed: (at, onDue, use) =>
    Effect.acquireUseRelease(timeouts.addAt(at, onDue), () => use, (timer) => timeouts.remove(timer)),
  onEnd: (effect, ended) => Effect.onExit(effect, (exit) => Effect.sync(() => ended(Exit.hasInterrupts(exit)))),
  timeoutFail: (effect, millis, onTimeout) =>
    Effect.timeoutOrElse(effect, { duration: Duration.millis(millis), orElse: () => Effect.fail(onTimeout()) }),
  // At the timeout of the exchange, the watch of its attempt is told (from the timers' fiber).
  wake: (signal) => {
    if (signal !== undefined) Deferred.doneUnsafe(signal as Deferred.Deferred<void>, Exit.void)
  },
  race: (call, clock) => (body) =>
    Effect.suspend(() => {
      const told = Deferred.makeUnsafe<void>()
      call.watch = told
      call.attemptStarted()
      // Fails with the verdict at the deadline or at the exchange's timeout, read before the attempt stops.
      const watch: Effect.Effect<never, unknown> = Effect.raceFirst(
        Effect.sleep(Duration.millis(call.untilDeadline(clock.currentTimeMillisUnsafe()))),
        Deferred.await(told)
      ).pipe(Effect.andThen(Effect.suspend(() => Effect.fail(call.stopped()))))
      return Effect.raceFirst(body, watch)
    })
}
