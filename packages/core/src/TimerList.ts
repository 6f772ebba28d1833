/**
 * Timers kept in one list sorted by when each falls due, so that a runtime keeps them all with one
 * waiter (in both Effect lines one fiber per clock, `internal/timers.ts` of each client) instead of
 * one waiter per timer: the timeouts of the exchanges in flight and the holds of the memory store's
 * permits. A fiber forked for each of them, and interrupted by another when its exchange ended, cost
 * two forks and two interruptions a call (`docs/bench.md`, B9).
 *
 * Timers come mostly in the order they fall due (one timeout per exchange, one hold per permit, time
 * moving on): each is put in place from the end, and those at the front leave as they come due or are
 * removed. The waiter sleeps until {@link TimerList.next}, then calls {@link TimerList.fire}; it sleeps
 * {@link wakeDelay}, whole milliseconds.
 *
 * Firing is safe against what the timers' own callbacks do to the list while they run: a runtime may
 * run, inside a callback, a fiber it resumes, which adds or removes timers of the same list.
 *
 * @since 0.1.0
 */

/**
 * A timer kept: what {@link TimerList.add} returns, and what {@link TimerList.remove} takes.
 *
 * @since 0.1.0
 * @category models
 */
export interface Timer {
  /** When it falls due, on the clock of its list. */
  readonly at: number
}

/**
 * The timers of one clock, sorted by when they fall due.
 *
 * @since 0.1.0
 * @category models
 */
export interface TimerList {
  /** Keeps a timer that calls `onDue` (once, with the time it is fired at) when it falls due at `at`. */
  readonly add: (at: number, onDue: (now: number) => void) => Timer
  /** Drops a timer before it is fired: `true` if it was kept, `false` if it was fired or removed already. */
  readonly remove: (timer: Timer) => boolean
  /**
   * Calls every timer due at `now`, in the order they fall due (those of one instant in the order they
   * were added), each once. A timer that one of them adds, due by `now`, is called in the same pass; one
   * that one of them removes is not called.
   */
  readonly fire: (now: number) => void
  /** When the earliest timer kept falls due; `undefined` when none is kept. */
  readonly next: () => number | undefined
  /** How many timers are kept: neither fired nor removed. */
  readonly size: () => number
  /** Whether {@link TimerList.fire} is calling the timers now (a callback is running). */
  readonly firing: () => boolean
}

interface Kept extends Timer {
  /** `undefined` once it was fired or removed. */
  onDue: ((now: number) => void) | undefined
}

/**
 * How long the waiter of a list sleeps at `now` until `next`: whole milliseconds, at least one. Times
 * may be fractional (a test clock moved by random latencies), and a sleep of exactly `next - now` can
 * end a rounding short of `next`, again and again without end (what hung the fault-injection suite);
 * a timer is fired at most a millisecond late.
 *
 * @since 0.1.0
 * @category utils
 */
export const wakeDelay = (next: number, now: number): number => Math.max(1, Math.ceil(next - now))

/**
 * An empty list.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): TimerList => {
  /** Sorted by `at`; `entries[head]` is the earliest one not yet fired nor passed over. */
  let entries: Array<Kept> = []
  let head = 0
  /** Timers neither fired nor removed. */
  let live = 0
  let firing = false

  /** Past the fired and removed entries at the front; the array let go of, or cut, once mostly passed. */
  const tidy = () => {
    while (head < entries.length && entries[head]!.onDue === undefined) head++
    if (head === entries.length) {
      entries = []
      head = 0
    } else if (head > 1024 && head * 2 > entries.length) {
      entries = entries.slice(head)
      head = 0
    }
  }

  return {
    add: (at, onDue) => {
      const timer: Kept = { at, onDue }
      let i = entries.length
      while (i > head && entries[i - 1]!.at > at) i--
      entries.splice(i, 0, timer)
      live++
      return timer
    },
    remove: (timer) => {
      const kept = timer as Kept
      if (kept.onDue === undefined) return false
      kept.onDue = undefined
      live--
      // Removed mostly in the order they were added: those at the front leave at once.
      tidy()
      return true
    },
    fire: (now) => {
      if (firing) return
      firing = true
      try {
        // `entries` and `head` are read anew at each step: a callback may add or remove timers.
        while (head < entries.length) {
          const timer = entries[head]!
          const onDue = timer.onDue
          if (onDue !== undefined && timer.at > now) break
          head++
          if (onDue !== undefined) {
            timer.onDue = undefined
            live--
            onDue(now)
          }
        }
      } finally {
        firing = false
        tidy()
      }
    },
    next: () => {
      tidy()
      return head < entries.length ? entries[head]!.at : undefined
    },
    size: () => live,
    firing: () => firing
  }
}
