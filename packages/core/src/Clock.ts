/**
 * The clock a runtime gives the reference server and the client's pacing: the current time and the
 * waits they schedule (injected latency, the token cache, the rate and quota windows). It is an
 * interface with no runtime in it, so that any runtime can drive it: Effect 3's or Effect 4's `Clock`
 * (and so their `TestClock`), the system's timers, or a test's hand.
 *
 * @since 0.1.0
 */

/**
 * The current time and scheduled wake-ups.
 *
 * @since 0.1.0
 * @category models
 */
export interface Clock {
  /** The current time, in milliseconds since the epoch. */
  readonly now: () => number
  /** Calls `wake` once `millis` have passed on this clock; the function returned cancels the call. */
  readonly schedule: (millis: number, wake: () => void) => () => void
}

/**
 * The system's clock: `Date.now` and timers.
 *
 * @since 0.1.0
 * @category constructors
 */
export const system: Clock = {
  now: () => Date.now(),
  schedule: (millis, wake) => {
    const timer = setTimeout(wake, Math.max(0, millis))
    return () => clearTimeout(timer)
  }
}

/**
 * A clock that moves only when told to, as a test turns it.
 *
 * @since 0.1.0
 * @category models
 */
export interface ManualClock extends Clock {
  /**
   * Moves the time forward by `millis`, waking, in the order of their times, every call scheduled up
   * to the new time (and those they schedule within it).
   */
  readonly advance: (millis: number) => void
  /** Moves the time to `epochMillis`, never back; the same as {@link ManualClock.advance} by the difference. */
  readonly setTime: (epochMillis: number) => void
  /** How many calls are scheduled and not yet woken or cancelled. */
  readonly pending: () => number
}

interface Scheduled {
  readonly at: number
  readonly order: number
  readonly wake: () => void
}

/**
 * A {@link ManualClock} that starts at `epochMillis`.
 *
 * @example
 * ```ts
 * import * as Clock from "@community-api/core/Clock"
 * import { deepStrictEqual, strictEqual } from "node:assert"
 *
 * const clock = Clock.manual(Date.UTC(2026, 0, 5, 9, 30))
 * const woken: Array<string> = []
 * clock.schedule(1_000, () => woken.push("after a second"))
 * clock.schedule(60_000, () => woken.push("after a minute"))
 *
 * clock.advance(1_000)
 * deepStrictEqual(woken, ["after a second"])
 * strictEqual(clock.pending(), 1)
 *
 * clock.advance(59_000)
 * deepStrictEqual(woken, ["after a second", "after a minute"])
 * strictEqual(clock.now(), Date.UTC(2026, 0, 5, 9, 31))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const manual = (epochMillis: number): ManualClock => {
  let time = epochMillis
  let order = 0
  let scheduled: Array<Scheduled> = []
  const next = (until: number): Scheduled | undefined => {
    let first: Scheduled | undefined
    for (const entry of scheduled) {
      if (
        entry.at <= until &&
        (first === undefined || entry.at < first.at || (entry.at === first.at && entry.order < first.order))
      ) {
        first = entry
      }
    }
    return first
  }
  const setTime = (target: number): void => {
    for (let entry = next(target); entry !== undefined; entry = next(target)) {
      const woken = entry
      scheduled = scheduled.filter((other) => other !== woken)
      time = Math.max(time, woken.at)
      woken.wake()
    }
    time = Math.max(time, target)
  }
  return {
    now: () => time,
    schedule: (millis, wake) => {
      const entry: Scheduled = { at: time + Math.max(0, millis), order: order++, wake }
      scheduled.push(entry)
      return () => {
        scheduled = scheduled.filter((other) => other !== entry)
      }
    },
    advance: (millis) => setTime(time + Math.max(0, millis)),
    setTime,
    pending: () => scheduled.length
  }
}
