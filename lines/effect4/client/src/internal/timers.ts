/**
 * Timers kept by one fiber per clock instead of one fiber per timer, for the timeouts of the exchanges
 * in flight (`deadline.ts`) and the holds of the memory store's permits (`permits.ts`), as the Effect 3
 * line keeps them. The plan is the core's (`TimerPlan` of `@community-api/core`: when the clock's
 * fiber is forked, stopped, what is due and how long it sleeps, and why, including the callbacks that
 * Effect 4 runs on the timers' own fiber); this module carries it out with a detached fiber per clock
 * and the clock's sleeps.
 */
import type * as TimerList from "@community-api/core/TimerList"
import * as TimerPlan from "@community-api/core/TimerPlan"
import type { Clock, Fiber } from "effect"
import { Duration, Effect } from "effect"

/** A timer kept, to remove. */
export type Timer = TimerList.Timer

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
  /**
   * For timers made `inBackground`: one more (`1`) or one fewer (`-1`) call waits for one of them to
   * come due; while any does, they keep the process alive.
   */
  readonly awaited: (change: 1 | -1) => void
}

type ClockPlan = TimerPlan.ClockPlan<Fiber.Fiber<void>>

/** The clock of Effect's default services: the only one whose sleeps may be left unreferenced. */
const liveClock: Clock.Clock = Effect.runSync(Effect.clockWith(Effect.succeed))

/**
 * Sleeps `millis` on an unreferenced `setTimeout` when `clock` is the live one, as the core's
 * `TimerPlan.sleepInBackground` says; a `TestClock`, or a clock of the caller's own, sleeps as it
 * always does.
 *
 * @internal
 */
export const sleepInBackground = (
  clock: Clock.Clock,
  millis: number,
  timers?: TimerPlan.Background
): Effect.Effect<void> =>
  clock === liveClock
    ? Effect.callback<void>((resume) =>
      Effect.sync(TimerPlan.sleepInBackground(millis, () => resume(Effect.void), timers))
    )
    : clock.sleep(Duration.millis(millis))

/**
 * Makes timers of one kind, with a fiber of their own per clock. `inBackground`: see the core's
 * `TimerPlan`.
 *
 * @internal
 */
export const make = (options: { readonly inBackground?: boolean } = {}): Timers => {
  const plan = TimerPlan.make<Clock.Clock, Fiber.Fiber<void>>(options)
  const sleep = (clock: Clock.Clock, millis: number) =>
    plan.inBackground
      ? sleepInBackground(clock, millis, plan)
      : clock.sleep(Duration.millis(millis))
  // The fiber's loop: what is due is called, then it sleeps until the next timer kept.
  const run = (clock: Clock.Clock, state: ClockPlan): Effect.Effect<void> =>
    Effect.suspend(() => {
      const millis = state.step()
      return millis === undefined ? Effect.void : Effect.andThen(sleep(clock, millis), run(clock, state))
    })
  // Stopped from here, with no fiber forked to interrupt it.
  const stop = (fiber: Fiber.Fiber<void> | undefined, by: number) => fiber?.interruptUnsafe(by)
  return {
    awaited: plan.awaited,
    addAt: (at, onDue) =>
      Effect.clockWith((clock) => {
        const state = plan.of(clock, () => clock.currentTimeMillisUnsafe())
        const added = state.add(at, onDue)
        if (!added.fork) return Effect.succeed(added.timer)
        return Effect.withFiber((self) => {
          stop(added.stop, self.id)
          // Forked interruptible whatever the region it is forked from, so that it can be stopped.
          return Effect.map(Effect.forkDetach(run(clock, state)), (fiber) => {
            state.forked(fiber)
            fiber.addObserver(() => state.ended(fiber))
            return added.timer
          })
        })
      }),
    remove: (timer) =>
      Effect.clockWith((clock) =>
        Effect.withFiber((self) => {
          stop(plan.of(clock, () => clock.currentTimeMillisUnsafe()).remove(timer), self.id)
          return Effect.void
        })
      )
  }
}
