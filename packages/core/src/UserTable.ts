/**
 * The per-user state a process keeps (a limiter's gate, a pacing rule, creation counts), held only
 * while its user is active: an entry leaves once it is idle, so that memory follows the users active
 * now and not every user the process has ever served.
 *
 * An entry says itself whether it is idle (nothing of its user in flight, waiting or held, and its
 * windows over). It is dropped at the first of two moments: when its owner reports the end of some
 * activity of the user ({@link UserTable.settle}: the last permit came back, the last call answered),
 * or at the next sweep, which looks at every entry at most once per `sweepEveryMillis` of the owner's
 * clock, at a lookup. The sweep catches what ends by time alone (a creation day, a block).
 *
 * @since 0.1.0
 */

/**
 * A table of per-user entries that drops the idle ones.
 *
 * @since 0.1.0
 * @category models
 */
export interface UserTable<A> {
  /** The entry of `user`, made when missing; the idle entries are swept first when a sweep is due at `now`. */
  readonly get: (user: string, now: number) => A
  /** The entry of `user` if there is one; makes none and sweeps nothing. */
  readonly peek: (user: string) => A | undefined
  /** Drops the entry of `user` if it is idle at `now`: its owner calls it when some activity ended. */
  readonly settle: (user: string, now: number) => void
  /** Drops every idle entry at `now`. */
  readonly sweep: (now: number) => void
  /** How many users have an entry. */
  readonly size: () => number
  /** The entries, for work over every user (a renewal of leases). */
  readonly entries: () => IterableIterator<[string, A]>
}

/**
 * How often, at most, a table looks at every entry for the idle ones (on its owner's clock), unless
 * told otherwise.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultSweepEveryMillis = 1_000

/**
 * An empty table: `create` makes a user's entry, `isIdle` says whether an entry may go at `now`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <A>(options: {
  readonly create: (user: string) => A
  readonly isIdle: (entry: A, now: number) => boolean
  readonly sweepEveryMillis?: number | undefined
  /** Told of each entry that leaves (what is kept about the user elsewhere, a metric's series, goes too). */
  readonly onDrop?: ((user: string, entry: A) => void) | undefined
}): UserTable<A> => {
  const entries = new Map<string, A>()
  const every = options.sweepEveryMillis ?? defaultSweepEveryMillis
  const onDrop = options.onDrop
  let nextSweep = -Infinity
  const drop = (user: string, entry: A) => {
    entries.delete(user)
    onDrop?.(user, entry)
  }
  const sweep = (now: number) => {
    nextSweep = now + every
    for (const [user, entry] of entries) {
      if (options.isIdle(entry, now)) drop(user, entry)
    }
  }
  return {
    get: (user, now) => {
      if (now >= nextSweep) sweep(now)
      let entry = entries.get(user)
      if (entry === undefined) {
        entry = options.create(user)
        entries.set(user, entry)
      }
      return entry
    },
    peek: (user) => entries.get(user),
    settle: (user, now) => {
      const entry = entries.get(user)
      if (entry !== undefined && options.isIdle(entry, now)) drop(user, entry)
    },
    sweep,
    size: () => entries.size,
    entries: () => entries.entries()
  }
}
