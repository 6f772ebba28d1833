/**
 * The request rate (L1) and the creation limit (L2–L5), per user across all of the user's tokens, with
 * the contract's constants and calendar arithmetic (`Limits`), so the server counts exactly as the
 * client's limiters do. Memory stays flat: a rate window keeps at most 30 instants per user, a creation
 * counter four numbers.
 *
 * @internal
 */
import { Limits } from "@community-api/schema"

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
}
