/**
 * The request rate (L1) and the creation limit (L2–L5), per user across all of the user's tokens, with
 * the contract's constants and calendar arithmetic (`Limits`), so the server counts exactly as the
 * client's limiters do. Memory stays flat: a rate window keeps at most 30 instants per user, a creation
 * counter four numbers.
 *
 * @internal
 */
import { Limits } from "@community-api/schema"
import type { UserLimits } from "../ReferenceServer.js"

/** Sliding windows of admitted requests. */
export class RateWindows {
  private readonly windows = new Map<number, Array<number>>()

  /** Admits a request at `now` unless the window's worth were admitted in the last window (L1). */
  admit(userId: number, now: number): boolean {
    const recent = (this.windows.get(userId) ?? []).filter((t) => now - t < Limits.rateWindowMillis)
    if (recent.length >= Limits.requestsPerWindow) {
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

  /** The instants of the requests of `userId` admitted in the window that ends at `now`, oldest first. */
  admitted(userId: number, now: number): ReadonlyArray<number> {
    return (this.windows.get(userId) ?? []).filter((t) => t <= now && now - t < Limits.rateWindowMillis)
  }

  /** The users with a window, counted or not any more. */
  users(): Iterable<number> {
    return this.windows.keys()
  }
}

/** Creation counters on the calendar windows (L2, L4). */
export class CreationCounters {
  private readonly counters = new Map<number, Limits.CreationCount>()

  /** Takes one creation at `now`, or tells which window is used up (nothing is taken then). */
  take(userId: number, now: number): "ok" | Limits.CreationWindow {
    const taken = Limits.takeCreation(this.counters.get(userId) ?? Limits.emptyCount, now)
    if (taken._tag === "Exhausted") return taken.window
    this.counters.set(userId, taken.count)
    return "ok"
  }

  clear(): void {
    this.counters.clear()
  }

  /** The counts of `userId` as they stand at `now`. */
  count(userId: number, now: number): Limits.CreationCount {
    return Limits.rollCount(this.counters.get(userId) ?? Limits.emptyCount, now)
  }

  /** The users with a counter, counted or not any more. */
  users(): Iterable<number> {
    return this.counters.keys()
  }
}

/**
 * The limits of `userId`: its requests in the rate window that ends at `rateNow` (the rate's clock),
 * and its creations in the minute and the day that hold `now` (the server's clock).
 */
export const usage = (
  rate: RateWindows,
  creations: CreationCounters,
  userId: number,
  now: number,
  rateNow: number
): UserLimits => {
  const admitted = rate.admitted(userId, rateNow)
  const count = creations.count(userId, now)
  return {
    user: userId,
    second: {
      count: admitted.length,
      limit: Limits.requestsPerWindow,
      // Back to zero when the newest request leaves the window.
      resetsAt: admitted.length === 0 ? rateNow : admitted[admitted.length - 1]! + Limits.rateWindowMillis
    },
    minute: { count: count.inMinute, limit: Limits.creationsPerMinute, resetsAt: Limits.nextMinute(now) },
    day: { count: count.inDay, limit: Limits.creationsPerDay, resetsAt: Limits.nextDay(now) }
  }
}

/** Whether `limits` counts anything. */
export const counted = (limits: UserLimits): boolean =>
  limits.second.count > 0 || limits.minute.count > 0 || limits.day.count > 0
