/**
 * The request rate (L1) and the creation limit (L2–L5), per user across all of the user's tokens.
 * Memory stays flat: a rate window keeps at most 30 instants per user, a creation counter two numbers.
 *
 * @internal
 */

/** Requests admitted per sliding second (L1). */
export const requestsPerSecond = 30
/** Creations per clock minute and per day starting at 03:00 Moscow time (L2, L4). */
export const creationsPerMinute = 20
export const creationsPerDay = 200

const minute = 60_000
// 03:00 Moscow time is 00:00 UTC (Moscow keeps UTC+3 all year), so the day starts at a UTC midnight.
const day = 24 * 60 * 60_000

/** Sliding windows of admitted requests. */
export class RateWindows {
  private readonly windows = new Map<number, Array<number>>()

  /** Admits a request at `now` unless 30 were admitted in the last 1000 ms. */
  admit(userId: number, now: number): boolean {
    const recent = (this.windows.get(userId) ?? []).filter((t) => now - t < 1000)
    if (recent.length >= requestsPerSecond) {
      this.windows.set(userId, recent)
      return false
    }
    recent.push(now)
    this.windows.set(userId, recent)
    return true
  }

  clear(): void {
    this.windows.clear()
  }
}

interface Counter {
  minute: number
  inMinute: number
  day: number
  inDay: number
}

/** Creation counters on calendar windows. */
export class CreationCounters {
  private readonly counters = new Map<number, Counter>()

  /** Takes one creation at `now`, or tells which limit is exhausted (nothing is taken then). */
  take(userId: number, now: number): "ok" | "minute" | "day" {
    const thisMinute = Math.floor(now / minute)
    const thisDay = Math.floor(now / day)
    const counter = this.counters.get(userId) ?? { minute: thisMinute, inMinute: 0, day: thisDay, inDay: 0 }
    if (counter.minute !== thisMinute) {
      counter.minute = thisMinute
      counter.inMinute = 0
    }
    if (counter.day !== thisDay) {
      counter.day = thisDay
      counter.inDay = 0
    }
    this.counters.set(userId, counter)
    if (counter.inDay >= creationsPerDay) return "day"
    if (counter.inMinute >= creationsPerMinute) return "minute"
    counter.inMinute++
    counter.inDay++
    return "ok"
  }

  clear(): void {
    this.counters.clear()
  }
}
