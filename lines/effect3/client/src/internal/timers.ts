/**
 * Timers kept by one fiber per clock instead of one fiber per timer, for the timeouts of the exchanges
 * in flight (`deadline.ts`) and the holds of the memory store's permits (`permits.ts`). The plan is the
 * core's (`TimerPlan` of `@community-api/core`, shared with the Effect 4 line: when the clock's fiber is
 * forked, stopped, what is due and how long it sleeps, and why); this module carries it out with a
 * daemon fiber per clock and Effect's sleeps.
 */
import type * as TimerList from "@community-api/core/TimerList"
import * as TimerPlan from "@community-api/core/TimerPlan"
import type { Clock, Fiber } from "effect"
import { Duration, Effect } from "effect"

/** A timer kept, to remove. */
export type Timer = TimerList.Timer

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

type Plan = TimerPlan.TimerPlan<Clock.Clock, Fiber.RuntimeFiber<void>>

/** The clock of Effect's default services: the only one whose sleeps may be left unreferenced. */
const liveClock: Clock.Clock = Effect.runSync(Effect.clock)

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
  clock !== liveClock ?
    Effect.sleep(Duration.millis(millis)) :
    Effect.async<void>((resume) => Effect.sync(TimerPlan.sleepInBackground(millis, () => resume(Effect.void), timers)))

/** The fiber's loop: what is due is called, then it sleeps until the next timer kept. */
const run = (
  plan: Plan,
  clock: Clock.Clock,
  state: TimerPlan.ClockPlan<Fiber.RuntimeFiber<void>>
): Effect.Effect<void> =>
  Effect.suspend(() => {
    const millis = state.step()
    if (millis === undefined) return Effect.void
    const sleep = plan.inBackground
      ? sleepInBackground(clock, millis, plan)
      : Effect.sleep(Duration.millis(millis))
    return Effect.zipRight(sleep, run(plan, clock, state))
  })

/**
 * Makes timers of one kind, with a fiber of their own per clock. `inBackground`: see the core's
 * `TimerPlan`.
 *
 * @internal
 */
export const make = (options: { readonly inBackground?: boolean } = {}): Timers => {
  const plan: Plan = TimerPlan.make(options)
  const stateOf = (clock: Clock.Clock) => plan.of(clock, () => clock.unsafeCurrentTimeMillis())
  // No fiber forked to interrupt one: the message is sent from here.
  const stop = (fiber: Fiber.RuntimeFiber<void> | undefined, by: Fiber.RuntimeFiber<unknown, unknown>) =>
    fiber?.unsafeInterruptAsFork(by.id())
  return {
    awaited: plan.awaited,
    addAt: (at, onDue) =>
      Effect.withFiberRuntime((self) =>
        Effect.clockWith((clock) => {
          const state = stateOf(clock)
          const added = state.add(at, onDue)
          if (!added.fork) return Effect.succeed(added.timer)
          stop(added.stop, self)
          return Effect.map(
            // Interruptible whatever the region it is forked from, so that it can be stopped.
            Effect.forkDaemon(Effect.interruptible(run(plan, clock, state))),
            (fiber) => {
              state.forked(fiber)
              fiber.addObserver(() => state.ended(fiber))
              return added.timer
            }
          )
        })
      ),
    remove: (timer) =>
      Effect.withFiberRuntime((self) =>
        Effect.clockWith((clock) => Effect.sync(() => stop(stateOf(clock).remove(timer), self)))
      )
  }
}
