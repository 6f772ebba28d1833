/**
 * A sliding log of send times for one user: at most `limit` sends in any `window`, spaced by an extra
 * `margin` so that network jitter cannot squeeze two windows' worth into one at the server.
 *
 * Each caller reserves its send time under no lock (the reservation is one synchronous step), then
 * sleeps until it. Reservations are handed out in order, so callers are served first come first served
 * and the log never exceeds `limit` entries.
 */

/** @internal */
export interface Settings {
  readonly limit: number
  readonly windowMillis: number
  readonly marginMillis: number
}

/** @internal */
export interface SlidingLog {
  /** Reserves the next send time at or after `now` and returns it. */
  readonly reserve: (now: number) => number
  /** Pushes every reserved and future send a whole window past `now` (after the server said 5). */
  readonly penalize: (now: number) => void
}

/** @internal */
export const make = (settings: Settings): SlidingLog => {
  // Send times, oldest first; never more than `limit`.
  const times: Array<number> = []
  const spacing = settings.windowMillis + settings.marginMillis
  return {
    reserve(now) {
      const last = times.length === 0 ? now : times[times.length - 1]!
      const earliest = times.length < settings.limit ? now : times[0]! + spacing
      const at = Math.max(now, last, earliest)
      times.push(at)
      if (times.length > settings.limit) times.shift()
      return at
    },
    penalize(now) {
      // As if `limit` requests had just been sent: the next one goes out a full window later.
      for (let i = 0; i < times.length; i++) times[i] = Math.max(times[i]!, now)
      while (times.length < settings.limit) times.unshift(now)
    }
  }
}
