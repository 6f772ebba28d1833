/**
 * The core's sans-I/O objects run at the time of this line's `Clock` (so `TestClock` drives them): this
 * line's `Timed.Run`, which reads the clock when the effect runs.
 */
import type * as Timed from "@community-api/core/Timed"
import { Effect } from "effect"

/** A call run at the current time: an effect that reads the `Clock` when it runs. */
export interface AtClock extends Timed.Lambda {
  readonly type: Effect.Effect<this["A"]>
}

/** Runs `call` at the time of the `Clock`. */
export const atClock: Timed.Run<AtClock> = (call) =>
  Effect.clockWith((clock) => Effect.sync(() => call(clock.currentTimeMillisUnsafe())))
