/**
 * The deadline of a whole call (every attempt, retry, pacing wait and quota wait together) and the
 * timeout of each attempt's exchange. When the deadline passes the call stops (an attempt in flight is
 * abandoned and its connection closed) and fails with `TimeoutError { scope: "call" }`, unless an
 * attempt of an operation that is not safe to repeat was in flight at that moment: it may have
 * reached the server, so the call fails with `OutcomeUnknownError`, the same answer as for a timeout
 * of that attempt. When an exchange outlasts the timeout, its attempt fails with `TimeoutError`.
 *
 * Both are kept by one race per attempt: the attempt (admission, exchange, decoding) against a watch
 * that sleeps until the deadline, which the timeout of the exchange in flight cuts short when the
 * exchange outlasts it (the timeouts of all exchanges are kept by one fiber, `timers.ts`). A race for
 * each, one inside the other, cost some 80 µs more a call (measured without a socket, about a third of
 * the client's own work). Only once an attempt has failed does the
 * rest of the call (its retries and their delays) run inside a race of its own against the deadline
 * ({@link Bounds.rest}).
 *
 * The watch starts before its attempt, as a timer started with the call would: on the `TestClock` a
 * wake-up registered later goes first at the same instant, so a wake-up of the attempt that falls on
 * the very instant of the deadline (a quota's next minute) still goes before the deadline.
 */
import * as CallDeadline from "@community-api/core/CallDeadline"
import type { Clock } from "effect"
import { Duration, Effect, Exit, Fiber, FiberId } from "effect"
import * as ClientError from "../ClientError.js"
import * as Steps from "./steps.js"
import * as Timers from "./timers.js"

/** The timeouts of the exchanges in flight, of every client. */
const timeouts = Timers.make()

/** The errors of the verdicts, made once for every call. */
/** @internal */
export const errors: CallDeadline.Errors<ClientError.TimeoutError, ClientError.OutcomeUnknownError> = {
  timeout: (operation, fields) => new ClientError.TimeoutError({ operation, ...fields }),
  unknown: (operation, fields) => new ClientError.OutcomeUnknownError({ operation, ...fields })
}

/** What the core's `CallDeadline.bounded` runs a call with: this line's effects, timers and race. @internal */
export const effects: CallDeadline.Effects<Steps.F, Clock.Clock> = {
  ...Steps.effects,
  now: (clock) => clock.unsafeCurrentTimeMillis(),
  // The timer added and removed as a resource: an interruption right after the timer is added still
  // removes it (left behind, it would cut short a later attempt's watch, and keep the timers' fiber up).
  timed: (at, onDue, use) =>
    Effect.acquireUseRelease(timeouts.addAt(at, onDue), () => use, (timer) => timeouts.remove(timer)),
  onEnd: (effect, ended) => Effect.onExit(effect, (exit) => Effect.sync(() => ended(Exit.isInterrupted(exit)))),
  timeoutFail: (effect, millis, onTimeout) =>
    Effect.timeoutFail(effect, { duration: Duration.millis(millis), onTimeout }),
  wake: (watch) => (watch as Fiber.RuntimeFiber<unknown, unknown> | undefined)?.unsafeInterruptAsFork(FiberId.none),
  race: (call, clock) => {
    // Sleeps until the deadline, unless the exchange of its attempt times out first.
    const watch = Effect.withFiberRuntime<void>((fiber) => {
      call.watch = fiber
      call.attemptStarted()
      return Effect.sleep(Duration.millis(call.untilDeadline(clock.unsafeCurrentTimeMillis())))
    })
    return (body) =>
      Effect.raceWith(watch, body, {
        // Read before the attempt is stopped: whether an exchange was in flight at that moment.
        onSelfDone: (_, running) => Effect.zipRight(Fiber.interrupt(running), Effect.fail(call.stopped())),
        onOtherDone: (exit, watch) => Effect.zipRight(Fiber.interrupt(watch), exit)
      })
  }
}
