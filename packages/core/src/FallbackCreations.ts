/**
 * The creations a process counted in its own memory while the shared store of counts (Redis) could
 * not be reached, "sans I/O": so that each is given back or counted again where it was counted, not in
 * the shared store, which never saw it. Kept for a day at most (no count outlives its day).
 *
 * @since 0.1.0
 */
import { dayMillis, minuteMillis, nextMinute } from "./Limits.js"
import type * as RedisScripts from "./RedisScripts.js"
import * as UserTable from "./UserTable.js"

/**
 * The creations counted in memory, by user.
 *
 * @since 0.1.0
 * @category models
 */
export interface FallbackCreations {
  /** A creation of `user` counted in memory at `at`. */
  readonly remember: (user: string, at: number) => void
  /** The verdict of a count in memory for `user`: a creation counted (`Taken`) is remembered. */
  readonly record: (user: string, verdict: RedisScripts.Verdict) => void
  /** Whether the creation of `user` counted at `taken` was counted in memory; it is forgotten either way. */
  readonly forget: (user: string, taken: number) => boolean
  /** The users with a creation remembered. */
  readonly users: () => number
}

/**
 * An empty record of creations counted in memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): FallbackCreations => {
  // The times of a user leave memory once none is of the last day.
  const table = UserTable.make<{ times: Array<number> }>({
    create: () => ({ times: [] }),
    isIdle: ({ times }, now) => times.every((at) => at <= now - dayMillis),
    sweepEveryMillis: minuteMillis
  })
  const remember = (user: string, at: number) => {
    const entry = table.get(user, at)
    entry.times = [...entry.times.filter((time) => time > at - dayMillis), at]
  }
  return {
    remember,
    record: (user, verdict) => {
      if (verdict._tag === "Taken") remember(user, verdict.at)
    },
    forget: (user, taken) => {
      const times = table.peek(user)?.times ?? []
      const index = times.indexOf(taken)
      if (index >= 0) times.splice(index, 1)
      if (times.length === 0) table.settle(user, taken)
      return index >= 0
    },
    users: () => table.size()
  }
}

/**
 * Whether a creation counted in the shared store at `taken`, to be counted again at `now` while the
 * store cannot be reached, still holds: within its calendar minute it does; after it, it is counted
 * again in memory.
 *
 * @since 0.1.0
 * @category utils
 */
export const stillCounted = (taken: number, now: number): boolean => nextMinute(taken) > now

/**
 * The verdict on a creation counted in the shared store at `taken` and confirmed at `now` while the
 * store cannot be reached: `Taken` at `taken` while it still holds ({@link stillCounted}), or
 * `undefined` when it is to be counted again in memory.
 *
 * @since 0.1.0
 * @category utils
 */
export const retakenWhileUnavailable = (taken: number, now: number): RedisScripts.Verdict | undefined =>
  stillCounted(taken, now) ? { _tag: "Taken", at: taken } : undefined
