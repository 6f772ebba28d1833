/**
 * The creation counts of several users in one process's memory, by the calendar arithmetic of
 * {@link Limits}: what a limiter in memory holds, in either Effect line, which only adds the clock.
 * Every operation takes the current time, so that the book itself reads no clock.
 *
 * @since 0.1.0
 */
import * as Budget from "./Budget.js"
import * as Limits from "./Limits.js"
import type * as RedisScripts from "./RedisScripts.js"
import type * as Timed from "./Timed.js"
import * as UserTable from "./UserTable.js"

/**
 * A book of creation counts.
 *
 * @since 0.1.0
 * @category models
 */
export interface CreationBook {
  /** Counts a creation of `user` at `now`, unless a window is used up. */
  readonly take: (user: string, now: number) => RedisScripts.Verdict
  /** Confirms a creation counted at `taken`: still good within its minute, else counted again at `now`. */
  readonly retake: (user: string, taken: number, now: number) => RedisScripts.Verdict
  /** Gives back a creation counted at `taken`, which the server did not count. */
  readonly refund: (user: string, taken: number, now: number) => void
  /** Marks `window` of `user` used up at `now` (the server refused with 5). */
  readonly exhaust: (user: string, window: Limits.CreationWindow, now: number) => void
  /** The window of `user` that is used up at `now`, if any. */
  readonly usedUp: (user: string, now: number) => Limits.CreationWindow | undefined
  /** What is left of the creations of `user` at `now`, and when each window resets. */
  readonly budget: (user: string, now: number) => Budget.Creations
  /** How many users have counts in the book: a user's leave once nothing of theirs counts at the time. */
  readonly users: () => number
}

/**
 * The limits of a book or a store of counts, each the API's where it is not given.
 *
 * @since 0.1.0
 * @category options
 */
export interface Settings {
  /** Creations per calendar minute; default 20. */
  readonly perMinute?: number | undefined
  /** Creations per day from 03:00 Moscow time; default 200. */
  readonly perDay?: number | undefined
}

/**
 * The settings with the API's limits where none is given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const settingsOf = (settings: Settings = {}): Limits.CreationSettings => ({
  perMinute: settings.perMinute ?? Limits.creationDefaults.perMinute,
  perDay: settings.perDay ?? Limits.creationDefaults.perDay
})

/**
 * An empty book with `settings`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings: Limits.CreationSettings = Limits.creationDefaults): CreationBook => {
  // A user's counts leave the book once both of its windows have passed (at the latest when its day
  // ends, 03:00 Moscow time) or a refund brought them back to nothing.
  const counts = UserTable.make<{ count: Limits.CreationCount }>({
    create: () => ({ count: Limits.emptyCount }),
    isIdle: ({ count }, now) => {
      const current = Limits.rollCount(count, now)
      return current.inMinute === 0 && current.inDay === 0
    },
    sweepEveryMillis: Limits.minuteMillis
  })
  const countOf = (user: string, now: number) => counts.get(user, now).count
  const set = (user: string, now: number, count: Limits.CreationCount) => {
    counts.get(user, now).count = count
    counts.settle(user, now)
  }
  const take = (user: string, now: number): RedisScripts.Verdict => {
    const verdict = Limits.takeCreation(countOf(user, now), now, settings)
    if (verdict._tag === "Exhausted") {
      counts.settle(user, now)
      return { ...verdict, now }
    }
    set(user, now, verdict.count)
    return { _tag: "Taken", at: now }
  }
  const refund = (user: string, taken: number, now: number) =>
    set(user, now, Limits.refundCreation(countOf(user, now), taken, now))
  return {
    take,
    retake: (user, taken, now) => {
      // A day begins with a minute, so one test covers both windows.
      if (Limits.nextMinute(taken) > now) return { _tag: "Taken", at: taken }
      refund(user, taken, now) // still counted in today's window when the day did not change
      return take(user, now)
    },
    refund,
    exhaust: (user, window, now) => {
      const count = Limits.rollCount(countOf(user, now), now)
      set(
        user,
        now,
        window === "minute"
          ? { ...count, inMinute: Math.max(count.inMinute, settings.perMinute) }
          : { ...count, inDay: Math.max(count.inDay, settings.perDay) }
      )
    },
    usedUp: (user, now) => {
      const entry = counts.peek(user)
      return entry === undefined ? undefined : Limits.exhaustedWindow(entry.count, now, settings)
    },
    budget: (user, now) => Budget.creations(counts.peek(user)?.count ?? Limits.emptyCount, now, settings),
    users: () => counts.size()
  }
}

/**
 * A book's calls as a line's store of counts in memory makes them: each the {@link CreationBook}'s
 * call of the same name, run at the current time in the line's effect `F` (see `Timed`), the time
 * read when the effect runs.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store<F extends Timed.Lambda> {
  readonly take: (user: string) => Timed.Kind<F, RedisScripts.Verdict>
  readonly retake: (user: string, taken: number) => Timed.Kind<F, RedisScripts.Verdict>
  readonly refund: (user: string, taken: number) => Timed.Kind<F, void>
  readonly exhaust: (user: string, window: Limits.CreationWindow) => Timed.Kind<F, void>
  readonly usedUp: (user: string) => Timed.Kind<F, Limits.CreationWindow | undefined>
  readonly budget: (user: string) => Timed.Kind<F, Budget.Creations>
  /** How many users the book holds counts for. */
  readonly users: Timed.Kind<F, number>
}

/**
 * The calls of `book` run by `run` at the current time (see {@link Store}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const store = <F extends Timed.Lambda>(book: CreationBook, run: Timed.Run<F>): Store<F> => ({
  take: (user) => run((now) => book.take(user, now)),
  retake: (user, taken) => run((now) => book.retake(user, taken, now)),
  refund: (user, taken) => run((now) => book.refund(user, taken, now)),
  exhaust: (user, window) => run((now) => book.exhaust(user, window, now)),
  usedUp: (user) => run((now) => book.usedUp(user, now)),
  budget: (user) => run((now) => book.budget(user, now)),
  users: run(() => book.users())
})
