/**
 * The server's clock: the core's `Clock` given from outside, seen as an Effect `Clock`, so that the
 * pipeline reads the time and waits the same way whether Effect's own clock (and so `TestClock`)
 * drives it or another runtime's.
 *
 * @internal
 */
import type * as CoreClock from "@community-api/core/Clock"
import { Clock, Duration, Effect } from "effect"

/**
 * The Effect `Clock` of a core clock: the time is its `now`, a sleep is a call it schedules, cancelled
 * when the sleeping fiber is interrupted (a request whose client went away keeps nothing scheduled).
 */
export const fromCore = (clock: CoreClock.Clock): Clock.Clock => {
  const millis = () => clock.now()
  const nanos = () => BigInt(Math.round(clock.now() * 1_000_000))
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    currentTimeMillis: Effect.sync(millis),
    unsafeCurrentTimeNanos: nanos,
    currentTimeNanos: Effect.sync(nanos),
    sleep: (duration) => {
      const decoded = Duration.decode(duration)
      // An endless sleep schedules nothing: a timer given `Infinity` would fire at once.
      if (!Duration.isFinite(decoded)) return Effect.never
      return Effect.async<void>((resume) => {
        const cancel = clock.schedule(Duration.toMillis(decoded), () => resume(Effect.void))
        return Effect.sync(cancel)
      })
    }
  }
}

/**
 * `clock` as a manual clock, when it is one (the core's `Clock.manual`, or any clock with its
 * `advance` and `setTime`): the sandbox's clock route turns such a clock, and no other.
 */
export const manualOf = (clock: CoreClock.Clock | undefined): CoreClock.ManualClock | undefined => {
  const manual = clock as Partial<CoreClock.ManualClock> | undefined
  return typeof manual?.advance === "function" && typeof manual.setTime === "function"
    ? manual as CoreClock.ManualClock
    : undefined
}
