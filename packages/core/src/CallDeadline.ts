/**
 * The deadline of one call and the timeout of each of its exchanges, "sans I/O": what both lines'
 * clients decide when either passes, with the time passed in. The lines race each attempt against a
 * watch that sleeps {@link CallDeadline.untilDeadline} or is cut short at its exchange's timeout, and
 * build the error the {@link Verdict} names.
 *
 * When the deadline passes the call fails with a timeout of the whole call, unless an exchange of an
 * operation that is not safe to repeat was in flight at that moment: it may have reached the server,
 * so the outcome is unknown, the same answer as for a timeout of that exchange. An exchange stopped by
 * the deadline stays in flight for that verdict; one that outlasted its timeout fails its attempt.
 *
 * @since 0.1.0
 */
import type * as CallSteps from "./CallSteps.js"
import type { Kind, TypeLambda } from "./RedisCounts.js"
import * as RetryTable from "./RetryTable.js"

/**
 * What an attempt fails with once its watch ends: the timeout of its exchange, the deadline of the
 * call, or the deadline while an exchange that may have reached the server was in flight.
 *
 * @since 0.1.0
 * @category models
 */
export type Verdict = "attempt-timeout" | "call-timeout" | "outcome-unknown"

/**
 * The bounds of one call.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallDeadline {
  /** The deadline of the whole call, in milliseconds after it began. */
  readonly deadlineMillis: number
  /** The timeout of each exchange, in milliseconds; `Infinity` for none. */
  readonly timeoutMillis: number
  /** How long from `now` until the deadline (never negative). */
  readonly untilDeadline: (now: number) => number
  /** An attempt begins: its exchange has not timed out yet. */
  readonly attemptStarted: () => void
  /** An exchange is sent at `now`: when its timeout falls due, or `undefined` when it has none. */
  readonly exchangeStarted: (now: number) => number | undefined
  /**
   * An exchange ended; `interrupted` when it was stopped. Stopped by the deadline, it stays in flight
   * for the verdict; stopped at its timeout, it ended.
   */
  readonly exchangeEnded: (interrupted: boolean) => void
  /** The timeout of the exchange in flight fell due: its attempt's watch is to be cut short. */
  readonly timedOut: () => void
  /** What the attempt fails with, read when its watch ends and before the attempt is stopped. */
  readonly verdict: () => Verdict
  /** What the rest of the call (its retries and their delays) fails with at the deadline. */
  readonly deadlineVerdict: () => Exclude<Verdict, "attempt-timeout">
  /** The error a verdict fails with, as the lines build it. */
  readonly failureOf: (verdict: Verdict) => Failure
}

/**
 * The error of a verdict, by its tag and fields: a timeout (of one exchange, or of the whole call with
 * `scope: "call"`), or an unknown outcome with its reason.
 *
 * @since 0.1.0
 * @category models
 */
export type Failure =
  | { readonly _tag: "TimeoutError"; readonly fields: { readonly timeoutMillis: number; readonly scope?: "call" } }
  | { readonly _tag: "OutcomeUnknownError"; readonly fields: { readonly reason: string } }

/**
 * The deadline passed: the failure of the call (`error`, the line's error of the verdict), carried
 * out of its retries, which take it for a final error (it has no code), to the call.
 *
 * @since 0.1.0
 * @category models
 */
export class Passed<E> {
  /**
   * The tag a line's retries and the call tell a passed deadline apart by.
   *
   * @since 0.1.0
   */
  readonly _tag = "DeadlinePassed"
  constructor(readonly error: E) {}
}

/**
 * Whether `error` is the deadline's.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPassed = (error: unknown): error is Passed<unknown> => error instanceof Passed

/**
 * Whether a timeout of an exchange of an operation with `flags` leaves its outcome unknown: unless it
 * is safe to repeat, the same verdict as the retry table's for a timeout.
 *
 * @since 0.1.0
 * @category utils
 */
export const isAmbiguous = (flags: RetryTable.Flags): boolean =>
  RetryTable.decide(flags, "ambiguous") === "outcome-unknown"

/**
 * The bounds of a call beginning at `now`. `ambiguous`: a timeout of this operation's exchange leaves
 * its outcome unknown (it is not safe to repeat).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: {
  readonly now: number
  readonly deadlineMillis: number
  readonly timeoutMillis: number
  readonly ambiguous: boolean
}): CallDeadline => {
  const deadlineAt = options.now + options.deadlineMillis
  let flying = 0
  let timedOut = false
  const deadlineVerdict = () => options.ambiguous && flying > 0 ? "outcome-unknown" as const : "call-timeout" as const
  return {
    deadlineMillis: options.deadlineMillis,
    timeoutMillis: options.timeoutMillis,
    untilDeadline: (now) => Math.max(0, deadlineAt - now),
    attemptStarted: () => {
      timedOut = false
    },
    exchangeStarted: (now) => {
      flying++
      return Number.isFinite(options.timeoutMillis) ? now + options.timeoutMillis : undefined
    },
    exchangeEnded: (interrupted) => {
      if (!interrupted || timedOut) flying--
    },
    timedOut: () => {
      timedOut = true
    },
    verdict: () => timedOut ? "attempt-timeout" : deadlineVerdict(),
    deadlineVerdict,
    failureOf: (verdict) => {
      switch (verdict) {
        case "attempt-timeout":
          return { _tag: "TimeoutError", fields: { timeoutMillis: options.timeoutMillis } }
        case "call-timeout":
          return { _tag: "TimeoutError", fields: { timeoutMillis: options.deadlineMillis, scope: "call" } }
        case "outcome-unknown":
          return {
            _tag: "OutcomeUnknownError",
            fields: {
              reason:
                `deadline: the call's deadline of ${options.deadlineMillis} ms passed while an attempt was in flight`
            }
          }
      }
    }
  }
}

/**
 * How a line makes the errors of a verdict of a call of `operation`: a timeout (of an exchange, or of
 * the call with its `scope`) and an unknown outcome, from the core's fields. Made once by a line, not
 * per call.
 *
 * @since 0.1.0
 * @category models
 */
export interface Errors<Timeout, Unknown> {
  readonly timeout: (
    operation: string,
    fields: Extract<Failure, { readonly _tag: "TimeoutError" }>["fields"]
  ) => Timeout
  readonly unknown: (
    operation: string,
    fields: Extract<Failure, { readonly _tag: "OutcomeUnknownError" }>["fields"]
  ) => Unknown
}

/**
 * The bounds of one call with the line's errors: what a watch that ended, and the deadline of the rest
 * of the call, fail with.
 *
 * @since 0.1.0
 * @category models
 */
export interface WithErrors<Timeout, Unknown> extends CallDeadline {
  /** The error of `verdict`. */
  readonly errorOf: (verdict: Verdict) => Timeout | Unknown
  /** The deadline passed now: the call's failure ({@link deadlineVerdict}), to be carried out of the retries. */
  readonly passed: () => Passed<Timeout | Unknown>
  /**
   * What the watch of an attempt fails with when it ends (read before the attempt is stopped): the
   * timeout of its exchange, or the deadline passed.
   */
  readonly stopped: () => Timeout | Passed<Timeout | Unknown>
  /** The line's watch of the current attempt, which {@link Effects.wake} wakes at the exchange's timeout. */
  watch: unknown
}

/**
 * The bounds of a call of `target` started at `now`, with the line's `errors`: its deadline and timeout
 * as the client's `settings` give them, ambiguous unless the operation is safe to repeat
 * ({@link isAmbiguous}). Its arguments are taken apart, so that a call allocates no options for them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const withErrors = <Timeout, Unknown>(
  now: number,
  settings: { readonly deadlineMillis: number; readonly timeoutMillis: number },
  target: RetryTable.Flags & { readonly path: string },
  errors: Errors<Timeout, Unknown>
): WithErrors<Timeout, Unknown> => {
  // The same verdict as a timeout of the attempt: ambiguous unless the operation is safe to repeat.
  // Called once per call: the bounds are built from the fields, with no copy of the settings.
  const call = make({
    now,
    deadlineMillis: settings.deadlineMillis,
    timeoutMillis: settings.timeoutMillis,
    ambiguous: isAmbiguous(target)
  })
  const errorOf = (verdict: Verdict): Timeout | Unknown => {
    const failure = call.failureOf(verdict)
    return failure._tag === "TimeoutError"
      ? errors.timeout(target.path, failure.fields)
      : errors.unknown(target.path, failure.fields)
  }
  const passed = (verdict: Verdict = call.deadlineVerdict()) => new Passed(errorOf(verdict))
  // Added to the bounds themselves rather than to a copy of their eleven members.
  return Object.assign(call, {
    watch: undefined,
    errorOf,
    passed: () => passed(),
    stopped: () => {
      const verdict = call.verdict()
      return verdict === "attempt-timeout" ? errorOf(verdict) as Timeout : passed(verdict)
    }
  })
}

/**
 * What {@link bounded} needs of a line: its effects `F` (of a result, their errors left to the call's
 * types) on its clocks `C`, the timers of the exchanges' timeouts, and its race of an attempt against
 * the attempt's watch.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda, C> extends CallSteps.Effects<F> {
  /** The time of `clock`, in epoch milliseconds. */
  readonly now: (clock: C) => number
  /** `use` with a timer that calls `onDue` at `at`, removed however `use` ends (even interrupted at once). */
  readonly timed: <A>(at: number, onDue: () => void, use: Kind<F, A>) => Kind<F, A>
  /** `effect`, then `ended` told whether it was interrupted. */
  readonly onEnd: <A>(effect: Kind<F, A>, ended: (interrupted: boolean) => void) => Kind<F, A>
  /** `effect`, or a failure with `onTimeout()` once `millis` passed. */
  readonly timeoutFail: <A>(effect: Kind<F, A>, millis: number, onTimeout: () => unknown) => Kind<F, A>
  /** Wakes the watch the race set in {@link WithErrors.watch} (from the timers' fiber). */
  readonly wake: (watch: unknown) => void
  /**
   * The race of each attempt of `call` against its watch, made once per call: the watch (set in
   * `call.watch` when the attempt starts, and `call.attemptStarted()` told) sleeps until the deadline
   * unless woken first, then fails the attempt with `call.stopped()`, read before the attempt is stopped.
   */
  readonly race: (call: WithErrors<unknown, unknown>, clock: C) => CallSteps.Bounds<F>["attempt"]
}

/**
 * Runs the call that `make` builds with the bounds of a call of `target` started on `clock` (the core's
 * verdicts, with the line's `errors`): its exchanges counted in flight, each under its timeout (a
 * timer of the line's, removed however the exchange ends); each attempt raced against its watch; once
 * an attempt failed, the rest of the call (its retries and their delays) within the deadline. The
 * deadline's failure is carried out of the retries as {@link Passed} and fails the call with its error.
 *
 * @since 0.1.0
 * @category execution
 */
export const bounded = <F extends TypeLambda, C, A>(
  effects: Effects<F, C>,
  clock: C,
  settings: { readonly deadlineMillis: number; readonly timeoutMillis: number },
  target: RetryTable.Flags & { readonly path: string },
  errors: Errors<unknown, unknown>,
  make: (bounds: CallSteps.Bounds<F>) => Kind<F, A>
): Kind<F, A> => {
  const call = withErrors(effects.now(clock), settings, target, errors)
  const onTimeout = () => {
    call.timedOut()
    effects.wake(call.watch)
  }
  const inFlight = <B>(exchange: Kind<F, B>): Kind<F, B> =>
    effects.onEnd(
      effects.suspend(() => {
        const due = call.exchangeStarted(effects.now(clock))
        return due === undefined ? exchange : effects.timed(due, onTimeout, exchange)
      }),
      call.exchangeEnded
    )
  // The rest of the call against the deadline alone (each attempt in it has its own race).
  const rest = <B>(effect: Kind<F, B>): Kind<F, B> =>
    effects.suspend(() => effects.timeoutFail(effect, call.untilDeadline(effects.now(clock)), call.passed))
  return effects.catchAll(
    make({ inFlight, attempt: effects.race(call, clock), rest }),
    (error) => effects.fail(isPassed(error) ? error.error : error)
  )
}
