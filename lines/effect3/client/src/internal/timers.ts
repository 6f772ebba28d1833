/**
 * Timers kept by one fiber per clock instead of one fiber per timer, for the timeouts of the exchanges
 * in flight (`deadline.ts`) and the holds of the memory store's permits (`permits.ts`). A fiber forked
 * for each exchange, and interrupted by another fiber forked when the exchange ended, cost two forks
 * and two interruptions a call: about a quarter of the client's own CPU per call with 50 calls in
 * flight (`bench/`, B9). The timers are entries in one list sorted by when they fall due (`TimerList`
 * of the core, shared with the Effect 4 line); the fiber sleeps until the earliest, whole milliseconds
 * (`TimerList.wakeDelay`), and calls what came due.
 *
 * The fiber runs only while a timer is kept: it ends with the last one (or is interrupted when the
 * last one is removed), so that nothing holds the event loop of a process with nothing in flight. It
 * is forked again by the next timer, and restarted only for a timer due before the instant it sleeps
 * until.
 *
 * Per clock, so that each test's `TestClock` has timers of its own.
 *
 * Timers made `inBackground` (the holds of the permits) do not keep a process alive on their own: on
 * the live clock their fiber sleeps on an unreferenced `setTimeout` unless a call waits for one of
 * them to come due (`awaited`). A script whose last answer came does not stay up for the holds of
 * its permits (about a second), while a call waiting for a permit keeps it up until the permit comes.
 */
import * as TimerList from "@community-api/core/TimerList"
import type { Clock, Fiber } from "effect"
import { Duration, Effect } from "effect"

/** A timer kept, to remove. */
export type Timer = TimerList.Timer

interface State {
  readonly list: TimerList.TimerList
  /** The fiber, while there is one, and the instant it sleeps until. */
  fiber: Fiber.RuntimeFiber<void> | undefined
  sleepsUntil: number
  /** The `setTimeout` of a background sleep on the live clock, while the fiber sleeps on one. */
  handle: ReturnType<typeof setTimeout> | undefined
}

/**
 * Timers of one kind: a fiber per clock. @internal
 */
export interface Timers {
  /** Calls `onDue` (once, from the timers' fiber) at `at` on the clock, unless removed first. */
  readonly addAt: (at: number, onDue: (now: number) => void) => Effect.Effect<Timer>
  /** Removes a timer not yet due; the fiber stops with the last one. */
  readonly remove: (timer: Timer) => Effect.Effect<void>
  /**
   * For timers made `inBackground`: one more (`1`) or one fewer (`-1`) call waits for one of them to
   * come due; while any does, they keep the process alive.
   */
  readonly awaited: (change: 1 | -1) => void
}

/** The clock of Effect's default services: the only one whose sleeps may be left unreferenced. */
const liveClock: Clock.Clock = Effect.runSync(Effect.clock)

/**
 * Sleeps `millis` on an unreferenced `setTimeout` when `clock` is the live one (a `TestClock`, or a
 * clock of the caller's own, sleeps as it always does), keeping the process alive only while
 * `keepsAlive()`. What sleeps this way is bookkeeping no call waits for (or, for the timers, only
 * while `awaited` says so): a process with nothing else to do may exit before it wakes.
 *
 * @internal
 */
export const sleepInBackground = (
  clock: Clock.Clock,
  millis: number,
  onHandle?: (handle: ReturnType<typeof setTimeout> | undefined) => void,
  keepsAlive: () => boolean = () => false
): Effect.Effect<void> =>
  clock !== liveClock ? Effect.sleep(Duration.millis(millis)) : Effect.async<void>((resume) => {
    const handle = setTimeout(() => {
      onHandle?.(undefined)
      resume(Effect.void)
    }, millis)
    if (!keepsAlive()) handle.unref()
    onHandle?.(handle)
    return Effect.sync(() => {
      onHandle?.(undefined)
      clearTimeout(handle)
    })
  })

interface Options {
  readonly inBackground: boolean
  readonly waiting: () => number
}

const stop = (state: State, by: Fiber.RuntimeFiber<unknown, unknown>) => {
  const fiber = state.fiber
  state.fiber = undefined
  // No fiber forked to interrupt it: the message is sent from here.
  fiber?.unsafeInterruptAsFork(by.id())
}

/** The fiber's loop: what is due is called, then it sleeps until the next timer kept. */
const run = (clock: Clock.Clock, state: State, options: Options): Effect.Effect<void> =>
  Effect.suspend(() => {
    const now = clock.unsafeCurrentTimeMillis()
    state.list.fire(now)
    const next = state.list.next()
    if (next === undefined) {
      state.fiber = undefined
      return Effect.void
    }
    state.sleepsUntil = next
    const millis = TimerList.wakeDelay(next, now)
    const sleep = options.inBackground
      ? sleepInBackground(clock, millis, (handle) => {
        state.handle = handle
      }, () => options.waiting() > 0)
      : Effect.sleep(Duration.millis(millis))
    return Effect.zipRight(sleep, run(clock, state, options))
  })

/**
 * Makes timers of one kind, with a fiber of their own per clock. `inBackground`: see the module's
 * header.
 *
 * @internal
 */
export const make = (options: { readonly inBackground?: boolean } = {}): Timers => {
  const byClock = new WeakMap<Clock.Clock, State>()
  const stateOf = (clock: Clock.Clock): State => {
    let state = byClock.get(clock)
    if (state === undefined) {
      state = { list: TimerList.make(), fiber: undefined, sleepsUntil: 0, handle: undefined }
      byClock.set(clock, state)
    }
    return state
  }
  let waiting = 0
  const runOptions: Options = { inBackground: options.inBackground === true, waiting: () => waiting }
  return {
    awaited: (change) => {
      waiting += change
      // Only the live clock's sleep has a handle: the first waiter refs it, the last one unrefs it.
      const handle = byClock.get(liveClock)?.handle
      if (handle === undefined) return
      if (waiting === 1 && change === 1) handle.ref()
      else if (waiting === 0) handle.unref()
    },
    addAt: (at, onDue) =>
      Effect.withFiberRuntime((self) =>
        Effect.clockWith((clock) => {
          const state = stateOf(clock)
          const timer = state.list.add(at, onDue)
          if (state.fiber !== undefined && at >= state.sleepsUntil) return Effect.succeed(timer)
          // None runs, or it sleeps past this timer: (re)started, it sleeps until the earliest one.
          stop(state, self)
          state.sleepsUntil = at
          return Effect.map(
            // Interruptible whatever the region it is forked from, so that it can be stopped.
            Effect.forkDaemon(Effect.interruptible(run(clock, state, runOptions))),
            (fiber) => {
              state.fiber = fiber
              return timer
            }
          )
        })
      ),
    remove: (timer) =>
      Effect.withFiberRuntime((self) =>
        Effect.clockWith((clock) => {
          const state = stateOf(clock)
          if (state.list.remove(timer) && state.list.size() === 0) stop(state, self)
          return Effect.void
        })
      )
  }
}
