/**
 * Timers kept by one fiber per clock instead of one fiber per timer, for the timeouts of the exchanges
 * in flight (`deadline.ts`) and the holds of the memory store's permits (`permits.ts`), as the Effect 3
 * line keeps them. A fiber forked for each exchange's timeout and interrupted when the exchange ended,
 * and one detached fiber sleeping out each permit's hold, cost a fork or two and an interruption a
 * call. The timers are entries in one list sorted by when they fall due (`TimerList` of the core,
 * shared with the Effect 3 line); the fiber sleeps until the earliest, whole milliseconds
 * (`TimerList.wakeDelay`), and calls what came due.
 *
 * The fiber runs only while a timer is kept: it ends with the last one (or is interrupted when the
 * last one is removed), so that nothing holds the event loop of a process with nothing in flight. It
 * is forked again by the next timer, and restarted only for a timer due before the instant it sleeps
 * until.
 *
 * Unlike Effect 3, Effect 4 runs a fiber resumed by a callback (a `Deferred` completed) at once, on
 * the stack of the callback: a timer's callback may so run, inside the timers' fiber, fibers that add or
 * remove timers of the same clock. While it fires the list, the fiber is neither stopped nor restarted
 * by them; it reads the list again once the callbacks are done.
 *
 * Per clock, so that each test's `TestClock` has timers of its own.
 */
import * as TimerList from "@community-api/core/TimerList"
import type { Clock, Fiber } from "effect"
import { Duration, Effect } from "effect"

/** A timer kept, to remove. */
export type Timer = TimerList.Timer

interface State {
  readonly list: TimerList.TimerList
  /** The fiber, while there is one, and the instant it sleeps until. */
  fiber: Fiber.Fiber<void> | undefined
  sleepsUntil: number
}

/**
 * Timers of one kind: a fiber per clock.
 *
 * @internal
 */
export interface Timers {
  /** Calls `onDue` (once, from the timers' fiber, with the clock's time) at `at` on the clock, unless removed first. */
  readonly addAt: (at: number, onDue: (now: number) => void) => Effect.Effect<Timer>
  /** Removes a timer not yet due; the fiber stops with the last one. */
  readonly remove: (timer: Timer) => Effect.Effect<void>
}

/** Stops the fiber, if any: interrupted from here, with no fiber forked to do it. */
const stop = (state: State, by: number) => {
  const fiber = state.fiber
  state.fiber = undefined
  fiber?.interruptUnsafe(by)
}

/** The fiber's loop: what is due is called, then it sleeps until the next timer kept. */
const run = (clock: Clock.Clock, state: State): Effect.Effect<void> =>
  Effect.suspend(() => {
    state.list.fire(clock.currentTimeMillisUnsafe())
    const next = state.list.next()
    if (next === undefined) {
      state.fiber = undefined
      return Effect.void
    }
    state.sleepsUntil = next
    // Read again: the callbacks ran fibers that the clock's time may have moved past.
    const delay = TimerList.wakeDelay(next, clock.currentTimeMillisUnsafe())
    return Effect.andThen(clock.sleep(Duration.millis(delay)), run(clock, state))
  })

/**
 * Makes timers of one kind, with a fiber of their own per clock.
 *
 * @internal
 */
export const make = (): Timers => {
  const byClock = new WeakMap<Clock.Clock, State>()
  const stateOf = (clock: Clock.Clock): State => {
    let state = byClock.get(clock)
    if (state === undefined) {
      state = { list: TimerList.make(), fiber: undefined, sleepsUntil: 0 }
      byClock.set(clock, state)
    }
    return state
  }
  return {
    addAt: (at, onDue) =>
      Effect.clockWith((clock) => {
        const state = stateOf(clock)
        const timer = state.list.add(at, onDue)
        // Added by a callback of the fiber, it is read with the rest once they are done.
        if (state.list.firing() || (state.fiber !== undefined && at >= state.sleepsUntil)) return Effect.succeed(timer)
        // None runs, or it sleeps past this timer: (re)started, it sleeps until the earliest one.
        return Effect.withFiber((self) => {
          stop(state, self.id)
          state.sleepsUntil = at
          // Forked interruptible whatever the region it is forked from, so that it can be stopped.
          return Effect.map(Effect.forkDetach(run(clock, state)), (fiber) => {
            state.fiber = fiber
            // Should it ever end otherwise (a defect in a callback), the next timer forks another.
            fiber.addObserver(() => {
              if (state.fiber === fiber) state.fiber = undefined
            })
            return timer
          })
        })
      }),
    remove: (timer) =>
      Effect.clockWith((clock) => {
        const state = stateOf(clock)
        // Removed by a callback of the fiber, the last one ends it once they are done.
        if (state.list.remove(timer) && state.list.size() === 0 && !state.list.firing()) {
          return Effect.withFiber((self) => {
            stop(state, self.id)
            return Effect.void
          })
        }
        return Effect.void
      })
  }
}
