/**
 * The memory store of the creation counts (`CountStore.layerMemory`, the default behind
 * `CreationQuota`): per user the counts of the current calendar minute and day, in this process,
 * with the contract's arithmetic (`Limits`) on Effect's `Clock`.
 */
import { Limits } from "@community-api/schema"
import { Effect } from "effect"
import type * as CountStore from "../CountStore.js"

/** The settings with the contract's defaults (`Limits.creationDefaults`) filled in. @internal */
export const resolve = (settings: CountStore.Settings = {}): Limits.CreationSettings => ({
  perMinute: settings.perMinute ?? Limits.creationDefaults.perMinute,
  perDay: settings.perDay ?? Limits.creationDefaults.perDay
})

/** A memory store of creation counts, synchronously. @internal */
export const unsafeMakeStore = (settings: Limits.CreationSettings): CountStore.Service<never> => {
  const counts = new Map<string, Limits.CreationCount>()
  const countOf = (user: string) => counts.get(user) ?? Limits.emptyCount
  /** Counts one creation at `now`, or says which window is used up. */
  const take = (user: string, now: number): CountStore.Verdict => {
    const verdict = Limits.takeCreation(countOf(user), now, settings)
    if (verdict._tag === "Exhausted") return { ...verdict, now }
    counts.set(user, verdict.count)
    return { _tag: "Taken", at: now }
  }
  const giveBack = (user: string, taken: number, now: number) =>
    counts.set(user, Limits.refundCreation(countOf(user), taken, now))
  const withNow = <A>(f: (now: number) => A): Effect.Effect<A> =>
    Effect.clockWith((clock) => Effect.sync(() => f(clock.unsafeCurrentTimeMillis())))
  return {
    take: (user) => withNow((now) => take(user, now)),
    retake: (user, taken) =>
      withNow((now): CountStore.Verdict => {
        // A day begins with a minute, so one test covers both windows.
        if (Limits.nextMinute(taken) > now) return { _tag: "Taken", at: taken }
        giveBack(user, taken, now) // still counted in today's window when the day did not change
        return take(user, now)
      }),
    refund: (user, taken) => withNow((now) => void giveBack(user, taken, now)),
    exhaust: (user, window) =>
      withNow((now) => {
        const count = Limits.rollCount(countOf(user), now)
        counts.set(
          user,
          window === "minute"
            ? { ...count, inMinute: Math.max(count.inMinute, settings.perMinute) }
            : { ...count, inDay: Math.max(count.inDay, settings.perDay) }
        )
      }),
    usedUp: (user) => withNow((now) => Limits.exhaustedWindow(countOf(user), now, settings))
  }
}
