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
 * Per clock, so that each test's clock has timers of its own.
 *
 * Timers made `inBackground` (the holds of the permits) do not keep a process alive on their own: on
 * the live clock their fiber sleeps on an unreferenced `setTimeout` ({@link sleepInBackground}) unless
 * a call waits for one of them to come due ({@link TimerPlan.awaited}). A script whose last answer
 * came does not stay up for the holds of its permits (about a second), while a call waiting for a
 * permit keeps it up until the permit comes.
 *
 * @since 0.1.0
 */
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
