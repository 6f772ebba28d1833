/**
 * Timers kept by one fiber per clock instead of one fiber per timer, for the timeouts of the exchanges
 * in flight (`deadline.ts`) and the holds of the memory store's permits (`permits.ts`), as the Effect 3
 * line keeps them. The plan and its fiber's loop are the core's (`TimerPlan` of `@community-api/core`:
 * when the clock's fiber is forked, stopped, what is due and how long it sleeps, and why, including the
 * callbacks that Effect 4 runs on the timers' own fiber); this module gives it this line's effects: a
 * detached fiber per clock and the clock's sleeps.
 */
import type * as Timed from "@community-api/core/Timed"
import * as TimerPlan from "@community-api/core/TimerPlan"
import type { Clock, Fiber } from "effect"
import { Duration, Effect } from "effect"

/** An effect of this line, never failing. */
interface Fx extends Timed.Lambda {
  readonly type: Effect.Effect<this["A"]>
}

/**
 * Timers of one kind: a fiber per clock.
 *
 * @internal
 */
export interface Timers extends TimerPlan.Timers<Fx> {}

const effects: TimerPlan.Effects<Fx, Clock.Clock, Fiber.Fiber<void>> = {
  // The clock of Effect's default services: the only one whose sleeps may be left unreferenced.
  live: Effect.runSync(Effect.clockWith(Effect.succeed)),
  now: (clock) => clock.currentTimeMillisUnsafe(),
  clockWith: Effect.clockWith,
  sleep: (clock, millis) => clock.sleep(Duration.millis(millis)),
  callback: (start) => Effect.callback<void>((resume) => Effect.sync(start(() => resume(Effect.void)))),
  suspend: Effect.suspend,
  succeed: Effect.succeed,
  andThen: (first, next) => Effect.andThen(first, next),
  map: (effect, f) => Effect.map(effect, f),
  // Forked interruptible whatever the region it is forked from, so that it can be stopped.
  fork: (effect) => Effect.forkDetach(effect),
  onEnd: (fiber, f) => fiber.addObserver(f),
  // Stopped from here, with no fiber forked to interrupt it.
  stopping: (f) => Effect.withFiber((self) => f((fiber) => fiber.interruptUnsafe(self.id)))
}

/**
 * Sleeps `millis` on an unreferenced `setTimeout` when `clock` is the live one, else by the clock's
 * own `sleep` (the core's `TimerPlan.sleeping`).
 *
 * @internal
 */
export const sleepInBackground = (clock: Clock.Clock, millis: number, timers?: TimerPlan.Background) =>
  TimerPlan.sleeping(effects, clock, millis, timers)

/**
 * Makes timers of one kind, each clock's kept by a detached fiber of its own. `inBackground`: see the
 * core's `TimerPlan`.
 *
 * @internal
 */
export const make = (options: { readonly inBackground?: boolean } = {}): Timers => TimerPlan.timers(effects, options)
