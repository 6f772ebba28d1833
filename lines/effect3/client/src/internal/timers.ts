/**
 * Timers kept by one fiber per clock instead of one fiber per timer, for the timeouts of the exchanges
 * in flight (`deadline.ts`) and the holds of the memory store's permits (`permits.ts`). The plan and
 * its fiber's loop are the core's (`TimerPlan` of `@community-api/core`, shared with the Effect 4
 * line: when the clock's fiber is forked, stopped, what is due and how long it sleeps, and why); this
 * module gives it this line's effects: a daemon fiber per clock and Effect's sleeps.
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
 * Timers of one kind: a fiber per clock. @internal
 */
export interface Timers extends TimerPlan.Timers<Fx> {}

const effects: TimerPlan.Effects<Fx, Clock.Clock, Fiber.RuntimeFiber<void>> = {
  // The clock of Effect's default services: the only one whose sleeps may be left unreferenced.
  live: Effect.runSync(Effect.clock),
  now: (clock) => clock.unsafeCurrentTimeMillis(),
  clockWith: Effect.clockWith,
  sleep: (_, millis) => Effect.sleep(Duration.millis(millis)),
  callback: (start) => Effect.async<void>((resume) => Effect.sync(start(() => resume(Effect.void)))),
  suspend: Effect.suspend,
  succeed: Effect.succeed,
  andThen: (first, next) => Effect.zipRight(first, next),
  map: (effect, f) => Effect.map(effect, f),
  fork: (effect) => Effect.forkDaemon(Effect.interruptible(effect)),
  onEnd: (fiber, f) => fiber.addObserver(f),
  // No fiber forked to interrupt one: the message is sent from here.
  stopping: (f) => Effect.withFiberRuntime((self) => f((fiber) => fiber.unsafeInterruptAsFork(self.id())))
}

/**
 * Sleeps `millis`: on an unreferenced `setTimeout` when `clock` is the live one, else by
 * `Effect.sleep` on the `Clock` of the context (the core's `TimerPlan.sleeping`). @internal
 */
export const sleepInBackground = (
  clock: Clock.Clock,
  millis: number,
  timers?: TimerPlan.Background
): Effect.Effect<void> => TimerPlan.sleeping(effects, clock, millis, timers)

/** Timers of one kind, on a daemon fiber of their own per clock (`inBackground`: see the core's `TimerPlan`). @internal */
export const make = (options: { readonly inBackground?: boolean } = {}): Timers => TimerPlan.timers(effects, options)
