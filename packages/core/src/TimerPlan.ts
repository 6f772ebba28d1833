/**
 * The plan of the timers both Effect lines keep with one fiber per clock instead of one fiber per
 * timer (`internal/timers.ts` of each client): the timeouts of the exchanges in flight and the holds
 * of the memory store's permits. A fiber forked for each exchange, and interrupted by another fiber
 * forked when the exchange ended, cost two forks and two interruptions a call: about a quarter of the
 * client's own CPU per call with 50 calls in flight (`docs/bench.md`, B9). The timers are entries in
 * one list sorted by when they fall due ({@link TimerList}); the fiber sleeps until the earliest,
 * whole milliseconds ({@link TimerList.wakeDelay}), and calls what came due.
 *
 * The plan decides, the line carries out: when a timer is added, whether the clock's fiber must be
 * (re)started and which one to stop; when one is removed, whether the fiber stops; at each wake-up of
 * the fiber, what is due and how long it sleeps next ({@link ClockPlan.step}). The line forks,
 * interrupts and sleeps with its own Effect.
 *
 * The fiber runs only while a timer is kept: it ends with the last one (or is stopped when the last
 * one is removed), so that nothing holds the event loop of a process with nothing in flight. It is
 * forked again by the next timer, and restarted only for a timer due before the instant it sleeps
 * until.
 *
 * A runtime may resume a fiber at once, on the stack of the callback that resumed it (Effect 4 does,
 * when a timer's callback completes a deferred value): a timer's callback may so run, inside the
 * timers' fiber, fibers that add or remove timers of the same clock. While it fires the list, the
 * fiber is neither stopped nor restarted by them; it reads the list again once the callbacks are done.
 *
 * Per clock, so that each test's clock has timers of its own. A line carries the plan out by
 * {@link timers}, given its effects ({@link Effects}): its fibers, its sleeps and its clocks.
 *
 * Timers made `inBackground` (the holds of the permits) do not keep a process alive on their own: on
 * the live clock their fiber sleeps on an unreferenced `setTimeout` ({@link sleepInBackground}) unless
 * a call waits for one of them to come due ({@link TimerPlan.awaited}). A script whose last answer
 * came does not stay up for the holds of its permits (about a second), while a call waiting for a
 * permit keeps it up until the permit comes.
 *
 * @since 0.1.0
 */
import type { Kind, Lambda } from "./Timed.js"
import * as TimerList from "./TimerList.js"

/**
 * What a sleep on a `setTimeout` can be told: to keep the process alive (`ref`) or not (`unref`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Handle {
  readonly ref: () => unknown
  readonly unref: () => unknown
}

/**
 * A timer added, and what the line does about its clock's fiber: when `fork`, it stops `stop` (if
 * any) and forks a new fiber, which it hands to {@link ClockPlan.forked}.
 *
 * @since 0.1.0
 * @category models
 */
export interface Added<F> {
  readonly timer: TimerList.Timer
  readonly fork: boolean
  readonly stop: F | undefined
}

/**
 * The timers of one clock and the state of its fiber (`F`, the line's fiber).
 *
 * @since 0.1.0
 * @category models
 */
export interface ClockPlan<F> {
  /** Keeps a timer that calls `onDue` (once, with the clock's time) at `at`; see {@link Added}. */
  readonly add: (at: number, onDue: (now: number) => void) => Added<F>
  /** Drops a timer not yet due: the fiber to stop when it was the last one, else `undefined`. */
  readonly remove: (timer: TimerList.Timer) => F | undefined
  /** The fiber forked after {@link ClockPlan.add} said `fork`. */
  readonly forked: (fiber: F) => void
  /** A fiber ended (should one ever end otherwise, by a defect in a callback, the next timer forks another). */
  readonly ended: (fiber: F) => void
  /**
   * The fiber woke: calls what is due, then says how many milliseconds it sleeps before the next step,
   * or `undefined` when no timer is left and it ends.
   */
  readonly step: () => number | undefined
}

/**
 * What a background sleep asks of its timers: whether it keeps the process alive now, and where its
 * handle goes while it lasts (so that a call that comes to wait later can ref it).
 *
 * @since 0.1.0
 * @category models
 */
export interface Background {
  /** Whether a background sleep keeps the process alive now. */
  readonly keepsAlive: () => boolean
  /** The handle of the live clock's background sleep while the fiber sleeps on one, else `undefined`. */
  readonly sleeping: (handle: Handle | undefined) => void
}

/**
 * The timers of one kind, over every clock (`C`, the line's clock).
 *
 * @since 0.1.0
 * @category models
 */
export interface TimerPlan<C extends object, F> extends Background {
  /** Whether the fiber sleeps in the background (see the module's header). */
  readonly inBackground: boolean
  /** The plan of `clock`, whose time `now` reads; made at the first use of the clock. */
  readonly of: (clock: C, now: () => number) => ClockPlan<F>
  /**
   * One more (`1`) or one fewer (`-1`) call waits for a timer to come due; while any does, a
   * background sleep keeps the process alive.
   */
  readonly awaited: (change: 1 | -1) => void
}

const clockPlan = <F>(now: () => number): ClockPlan<F> => {
  const list = TimerList.make()
  /** The fiber, while there is one, and the instant it sleeps until. */
  let fiber: F | undefined
  let sleepsUntil = 0
  const stop = () => {
    const stopped = fiber
    fiber = undefined
    return stopped
  }
  return {
    add: (at, onDue) => {
      const timer = list.add(at, onDue)
      // Added by a callback of the fiber, it is read with the rest once they are done.
      if (list.firing() || (fiber !== undefined && at >= sleepsUntil)) return { timer, fork: false, stop: undefined }
      // None runs, or it sleeps past this timer: (re)started, it sleeps until the earliest one.
      sleepsUntil = at
      return { timer, fork: true, stop: stop() }
    },
    // Removed by a callback of the fiber, the last one ends it once they are done.
    remove: (timer) => list.remove(timer) && list.size() === 0 && !list.firing() ? stop() : undefined,
    forked: (forked) => {
      fiber = forked
    },
    ended: (ended) => {
      if (fiber === ended) fiber = undefined
    },
    step: () => {
      list.fire(now())
      const next = list.next()
      if (next === undefined) {
        fiber = undefined
        return undefined
      }
      sleepsUntil = next
      // Read again: the callbacks ran fibers that the clock's time may have moved past.
      return TimerList.wakeDelay(next, now())
    }
  }
}

/**
 * Makes the plan of timers of one kind. `inBackground`: see the module's header.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <C extends object, F>(options: { readonly inBackground?: boolean | undefined } = {}): TimerPlan<
  C,
  F
> => {
  const byClock = new WeakMap<C, ClockPlan<F>>()
  let waiting = 0
  let handle: Handle | undefined
  return {
    inBackground: options.inBackground === true,
    of: (clock, now) => {
      let plan = byClock.get(clock)
      if (plan === undefined) {
        plan = clockPlan<F>(now)
        byClock.set(clock, plan)
      }
      return plan
    },
    awaited: (change) => {
      waiting += change
      // Only the live clock's sleep has a handle: the first waiter refs it, the last one unrefs it.
      if (handle === undefined) return
      if (waiting === 1 && change === 1) handle.ref()
      else if (waiting === 0) handle.unref()
    },
    keepsAlive: () => waiting > 0,
    sleeping: (sleeping) => {
      handle = sleeping
    }
  }
}

/**
 * Sleeps `millis` on a `setTimeout` that keeps the process alive only while the timers' `keepsAlive()`
 * (never, without timers), then calls `wake`; returns what cancels it. The timers are told of the
 * handle while the sleep lasts (and of `undefined` when it ends), so that a waiter that comes later
 * can ref it. What sleeps this way is bookkeeping no call waits for (or, for the timers, only while one
 * waits for them): a process with nothing else to do may exit before it wakes. Only the live clock
 * sleeps so; a test's clock, or a clock of the caller's own, sleeps as it always does.
 *
 * @since 0.1.0
 * @category utils
 */
export const sleepInBackground = (millis: number, wake: () => void, timers?: Background | undefined): () => void => {
  const handle = setTimeout(() => {
    timers?.sleeping(undefined)
    wake()
  }, millis)
  if (timers?.keepsAlive() !== true) handle.unref()
  timers?.sleeping(handle)
  return () => {
    timers?.sleeping(undefined)
    clearTimeout(handle)
  }
}

/**
 * What {@link timers} needs of a line: its effects `F` (of a result, never failing), its clocks `C`
 * (`live` the one of its default services, the only one whose sleeps may be left unreferenced) and its
 * fibers `Fib`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends Lambda, C extends object, Fib> {
  readonly live: C
  /** The time of `clock`, in epoch milliseconds. */
  readonly now: (clock: C) => number
  /** What `f` makes of the current clock. */
  readonly clockWith: <A>(f: (clock: C) => Kind<F, A>) => Kind<F, A>
  /** Sleeps `millis` on `clock`. */
  readonly sleep: (clock: C, millis: number) => Kind<F, void>
  /** Waits until `start` calls the `wake` it is given; interrupted, calls what `start` returned. */
  readonly callback: (start: (wake: () => void) => () => void) => Kind<F, void>
  readonly suspend: <A>(make: () => Kind<F, A>) => Kind<F, A>
  readonly succeed: <A>(value: A) => Kind<F, A>
  readonly andThen: <A>(first: Kind<F, void>, next: Kind<F, A>) => Kind<F, A>
  readonly map: <A, B>(effect: Kind<F, A>, f: (a: A) => B) => Kind<F, B>
  /** Forks `effect` apart from the current fiber, interruptible whatever region it is forked from. */
  readonly fork: (effect: Kind<F, void>) => Kind<F, Fib>
  /** Calls `f` when `fiber` ends. */
  readonly onEnd: (fiber: Fib, f: () => void) => void
  /** What `f` makes, given how the current fiber stops another (with no fiber forked to do it). */
  readonly stopping: <A>(f: (stop: (fiber: Fib) => void) => Kind<F, A>) => Kind<F, A>
}

/**
 * Timers of one kind, over a line's effects `F`: a fiber per clock.
 *
 * @since 0.1.0
 * @category models
 */
export interface Timers<F extends Lambda> {
  /** Calls `onDue` (once, from the timers' fiber, with the clock's time) at `at` on the clock, unless removed first. */
  readonly addAt: (at: number, onDue: (now: number) => void) => Kind<F, TimerList.Timer>
  /** Removes a timer not yet due; the fiber stops with the last one. */
  readonly remove: (timer: TimerList.Timer) => Kind<F, void>
  /**
   * For timers made `inBackground`: one more (`1`) or one fewer (`-1`) call waits for one of them to
   * come due; while any does, they keep the process alive.
   */
  readonly awaited: (change: 1 | -1) => void
}

/**
 * Sleeps `millis` on `clock`: on an unreferenced `setTimeout` when it is the live one
 * ({@link sleepInBackground}), as it always does on any other (a test's clock, or one of the caller's).
 *
 * @since 0.1.0
 * @category utils
 */
export const sleeping = <F extends Lambda, C extends object, Fib>(
  effects: Effects<F, C, Fib>,
  clock: C,
  millis: number,
  timers?: Background | undefined
): Kind<F, void> =>
  clock === effects.live
    ? effects.callback((wake) => sleepInBackground(millis, wake, timers))
    : effects.sleep(clock, millis)

/**
 * Carries out the plan of timers of one kind ({@link make}) with a line's effects: a fiber per clock,
 * forked by the first timer, that calls what is due and sleeps until the next timer kept.
 *
 * @since 0.1.0
 * @category constructors
 */
export const timers = <F extends Lambda, C extends object, Fib>(
  effects: Effects<F, C, Fib>,
  options: { readonly inBackground?: boolean | undefined } = {}
): Timers<F> => {
  const plan = make<C, Fib>(options)
  const stateOf = (clock: C) => plan.of(clock, () => effects.now(clock))
  const sleep = (clock: C, millis: number) =>
    plan.inBackground ? sleeping(effects, clock, millis, plan) : effects.sleep(clock, millis)
  // The fiber's loop: what is due is called, then it sleeps until the next timer kept.
  const run = (clock: C, state: ClockPlan<Fib>): Kind<F, void> =>
    effects.suspend(() => {
      const millis = state.step()
      return millis === undefined
        ? effects.succeed(undefined)
        : effects.andThen(sleep(clock, millis), run(clock, state))
    })
  return {
    awaited: plan.awaited,
    addAt: (at, onDue) =>
      effects.clockWith((clock) => {
        const state = stateOf(clock)
        const added = state.add(at, onDue)
        if (!added.fork) return effects.succeed(added.timer)
        return effects.stopping((stop) => {
          if (added.stop !== undefined) stop(added.stop)
          return effects.map(effects.fork(run(clock, state)), (fiber) => {
            state.forked(fiber)
            effects.onEnd(fiber, () => state.ended(fiber))
            return added.timer
          })
        })
      }),
    remove: (timer) =>
      effects.clockWith((clock) =>
        effects.stopping((stop) => {
          const fiber = stateOf(clock).remove(timer)
          if (fiber !== undefined) stop(fiber)
          return effects.succeed(undefined)
        })
      )
  }
}
