/**
 * Calendar windows of the creation quota (L2, L4): the minute starts at :00 and the day at 03:00
 * Moscow time, which is 00:00 UTC (Moscow keeps UTC+3 all year), so both are plain divisions of
 * epoch milliseconds.
 */

const minuteMillis = 60_000
const dayMillis = 86_400_000

/** @internal */
export interface Settings {
  readonly perMinute: number
  readonly perDay: number
}

/** @internal */
export interface Exhausted {
  readonly _tag: "Exhausted"
  readonly window: "minute" | "day"
  readonly resetsAt: number
}

/** @internal */
export type Verdict = { readonly _tag: "Granted" } | Exhausted

/** @internal */
export interface Counter {
  /** Counts one creation at `now` when the quota allows it. */
  readonly take: (now: number) => Verdict
  /** Gives back a creation taken at `taken` that the server did not count (error 9). */
  readonly refund: (taken: number, now: number) => void
  /** Marks the current minute as used up (the server answered 5). */
  readonly exhaustMinute: (now: number) => void
}

/** @internal */
export const nextMinute = (now: number): number => (Math.floor(now / minuteMillis) + 1) * minuteMillis

/** @internal */
export const nextDay = (now: number): number => (Math.floor(now / dayMillis) + 1) * dayMillis

/** @internal */
export const make = (settings: Settings): Counter => {
  let minute = -1
  let day = -1
  let inMinute = 0
  let inDay = 0
  const roll = (now: number) => {
    const m = Math.floor(now / minuteMillis)
    const d = Math.floor(now / dayMillis)
    if (m !== minute) {
      minute = m
      inMinute = 0
    }
    if (d !== day) {
      day = d
      inDay = 0
    }
  }
  return {
    take(now) {
      roll(now)
      if (inDay >= settings.perDay) return { _tag: "Exhausted", window: "day", resetsAt: nextDay(now) }
      if (inMinute >= settings.perMinute) return { _tag: "Exhausted", window: "minute", resetsAt: nextMinute(now) }
      inMinute++
      inDay++
      return { _tag: "Granted" }
    },
    refund(taken, now) {
      roll(now)
      if (Math.floor(taken / minuteMillis) === minute && inMinute > 0) inMinute--
      if (Math.floor(taken / dayMillis) === day && inDay > 0) inDay--
    },
    exhaustMinute(now) {
      roll(now)
      inMinute = Math.max(inMinute, settings.perMinute)
    }
  }
}
