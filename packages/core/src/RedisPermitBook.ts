/**
 * This process's side of the pacing permits kept in Redis, "sans I/O": what the Redis store of either
 * Effect line decides, as the scripts to run ({@link RedisScripts.Call}) and what their replies mean,
 * so that the lines only send the calls, wake the waiters and sleep.
 *
 * Per user: the calls waiting for a permit by lane, asked for in one take (interactive ones first, each
 * lane first come, first served) by one asking loop at a time; the names of this process's permits in
 * flight, renewed every third of the lease until given back; this process's own block of the user
 * after a refusal for the rate; and a take whose reply never came, whose permits are given back by the
 * prefix of their names until a lease after the take failed (by then any permit it granted has lapsed).
 *
 * A user's entry leaves memory once nothing of it waits, asks, is in flight or blocked here, and no
 * take of it is left to give back ({@link UserTable}).
 *
 * @since 0.1.0
 */
import * as Budget from "./Budget.js"
import { type Lane, lanes } from "./Lane.js"
import type { Hold } from "./PacingRule.js"
import { type Keys, keysOf } from "./RedisKeys.js"
import * as RedisScripts from "./RedisScripts.js"
import * as UserTable from "./UserTable.js"

/**
 * The longest the waiters of a user sleep between two takes while every permit is held: one may be
 * given back with a short hold.
 *
 * @since 0.1.0
 * @category constants
 */
export const pollMillis = 50

/**
 * How far ahead a permit coming back is reserved for a waiter: more than a round trip to Redis and the
 * wake-up of a busy process. A permit reserved before another process blocked the user is used when it
 * comes back all the same (this process's own blocks hold for it).
 *
 * @since 0.1.0
 * @category constants
 */
export const leadMillis = 30

/**
 * A take whose reply never came: it timed out (a stalled Redis runs it when it wakes) or its
 * connection failed (it may have run before). Its permits reach no waiter and nothing renews them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Unanswered {
  readonly namePrefix: string
  /** Until when its permits could be held: a lease after it failed. */
  readonly until: number
}

/**
 * This process's side of one user's permits.
 *
 * @since 0.1.0
 * @category models
 */
export interface Entry<W> {
  readonly user: string
  readonly keys: Keys
  /** The calls waiting for a permit by lane, each first come first served. */
  readonly waiters: Record<Lane, Array<W>>
  /** Whether an asking loop runs for the user. */
  asking: boolean
  /** The names of this process's permits in flight (or reserved), renewed until given back. */
  readonly inFlight: Set<string>
  /** Until when this process blocked the user. */
  blockedUntil: number
  /** The take whose reply never came, while its permits could still be held. */
  unanswered: Unanswered | undefined
}

/**
 * One take: the waiters it asks for and the call that asks.
 *
 * @since 0.1.0
 * @category models
 */
export interface Take {
  readonly namePrefix: string
  /** How many waiters it asks for. */
  readonly count: number
  /** How many of them interactive: the first `interactive` permits granted are theirs. */
  readonly interactive: number
  readonly call: RedisScripts.Call
}

/**
 * A permit a take granted, with the waiter it goes to; none when that waiter stopped waiting
 * meanwhile (the permit then goes back unused, {@link unused}).
 *
 * @since 0.1.0
 * @category models
 */
export interface Granted<W> {
  readonly name: string
  /** How long until it may be used (a permit reserved as it comes back). */
  readonly delayMillis: number
  readonly waiter: W | undefined
}

/**
 * The hold of a permit taken and not used: back when it would have come back anyway.
 *
 * @since 0.1.0
 * @category constants
 */
export const unused: Hold = { afterAnswerMillis: 0, afterTakeMillis: 0 }

/**
 * This process's side of every user's permits in Redis.
 *
 * @since 0.1.0
 * @category models
 */
export interface RedisPermitBook<W> {
  readonly limit: number
  /** The user's entry, made when missing. */
  readonly entry: (user: string, now: number) => Entry<W>
  /** Queues a waiter; `true` when the user's asking loop must be started (it was not running). */
  readonly enqueue: (entry: Entry<W>, lane: Lane, waiter: W) => boolean
  /** A waiter stopped waiting: `true` when it was still queued (now removed); `false` when it was handed a permit. */
  readonly remove: (entry: Entry<W>, lane: Lane, waiter: W, now: number) => boolean
  /**
   * The next take of the asking loop, or `undefined` when no one waits any more: the loop ends there.
   */
  readonly nextTake: (entry: Entry<W>, now: number) => Take | undefined
  /**
   * The call that gives back the permits of the user's take whose reply never came, while they could
   * still be held; `undefined` when there is none (a lapsed one is forgotten).
   */
  readonly pendingReturn: (
    entry: Entry<W>,
    now: number
  ) => { readonly unanswered: Unanswered; readonly call: RedisScripts.Call } | undefined
  /** The return of `unanswered` was answered: it is forgotten. */
  readonly returned: (entry: Entry<W>, unanswered: Unanswered, now: number) => void
  /** A take got no reply: its permits are to be given back ({@link RedisPermitBook.pendingReturn}). */
  readonly takeFailed: (entry: Entry<W>, take: Take, now: number) => void
  /** Every waiter of the user, removed: the line fails them (the store could not be asked). */
  readonly drain: (entry: Entry<W>) => ReadonlyArray<W>
  /**
   * A take's reply: each permit granted with its waiter, in the order asked (now in flight here), and
   * how long the loop sleeps before the next take when some still wait.
   */
  readonly answered: (
    entry: Entry<W>,
    take: Take,
    reply: RedisScripts.Reply
  ) => { readonly granted: ReadonlyArray<Granted<W>>; readonly sleepMillis: number | undefined }
  /** The call that gives a permit back after its hold; it is no longer renewed from now on. */
  readonly release: (entry: Entry<W>, name: string, hold: Hold) => RedisScripts.Call
  /** The renewal of each user's permits in flight here, and the entries with a take to give back. */
  readonly renewals: () => ReadonlyArray<{ readonly entry: Entry<W>; readonly call: RedisScripts.Call | undefined }>
  /** After a refusal for the rate: this process's own block, and the call that blocks the user in Redis. */
  readonly block: (user: string, millis: number, now: number) => RedisScripts.Call
  /** How long a granted permit must still wait for this process's own block of the user. */
  readonly blockedFor: (entry: Entry<W>, now: number) => number
  /** The call that reads the user's permits, for {@link RedisPermitBook.budget}. */
  readonly readBudget: (user: string) => RedisScripts.Call
  /** What is left of the user's requests, from the reply of {@link RedisPermitBook.readBudget}. */
  readonly budget: (reply: RedisScripts.Reply) => Budget.Requests
  /** Lets the user's entry go if nothing of it is left. */
  readonly settle: (user: string, now: number) => void
}

/**
 * This process's name among the user's processes, from a random integer (the line's random).
 *
 * @since 0.1.0
 * @category constructors
 */
export const processId = (random: number): string => random.toString(36).replace("-", "")

const waiting = <W>(entry: Entry<W>) => entry.waiters.interactive.length + entry.waiters.batch.length

/**
 * A book for `limit` permits per user under `prefix` in Redis, leased for `leaseMillis`, with `kept`
 * of each window kept for interactive calls. `processId` names this process's permits among every
 * process of the user.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <W>(options: {
  readonly prefix: string
  readonly limit: number
  readonly leaseMillis: number
  readonly kept?: number | undefined
  readonly processId: string
}): RedisPermitBook<W> => {
  const users = UserTable.make<Entry<W>>({
    create: (user) => ({
      user,
      keys: keysOf(options.prefix, user),
      waiters: { interactive: [], batch: [] },
      asking: false,
      inFlight: new Set(),
      blockedUntil: 0,
      unanswered: undefined
    }),
    isIdle: (entry, now) =>
      waiting(entry) === 0 && !entry.asking && entry.inFlight.size === 0 &&
      entry.blockedUntil <= now && (entry.unanswered === undefined || entry.unanswered.until <= now)
  })
  let takes = 0
  return {
    limit: options.limit,
    entry: (user, now) => users.get(user, now),
    enqueue: (entry, lane, waiter) => {
      entry.waiters[lane].push(waiter)
      if (entry.asking) return false
      entry.asking = true
      return true
    },
    remove: (entry, lane, waiter, now) => {
      const index = entry.waiters[lane].indexOf(waiter)
      if (index < 0) return false
      entry.waiters[lane].splice(index, 1)
      users.settle(entry.user, now)
      return true
    },
    nextTake: (entry, now) => {
      if (waiting(entry) === 0) {
        entry.asking = false
        users.settle(entry.user, now)
        return undefined
      }
      const namePrefix = `${options.processId}-${(takes++).toString(36)}`
      // Granted in the order asked: the interactive waiters first, then the batch ones.
      const count = waiting(entry)
      const interactive = entry.waiters.interactive.length
      return {
        namePrefix,
        count,
        interactive,
        call: RedisScripts.takePermits(entry.keys, {
          limit: options.limit,
          leaseMillis: options.leaseMillis,
          namePrefix,
          pollMillis,
          count,
          interactive,
          kept: options.kept,
          leadMillis
        })
      }
    },
    pendingReturn: (entry, now) => {
      const unanswered = entry.unanswered
      if (unanswered === undefined) return undefined
      if (unanswered.until <= now) {
        entry.unanswered = undefined
        users.settle(entry.user, now)
        return undefined
      }
      return { unanswered, call: RedisScripts.returnTake(entry.keys, unanswered.namePrefix) }
    },
    returned: (entry, unanswered, now) => {
      if (entry.unanswered === unanswered) entry.unanswered = undefined
      users.settle(entry.user, now)
    },
    takeFailed: (entry, take, now) => {
      entry.unanswered = { namePrefix: take.namePrefix, until: now + options.leaseMillis }
    },
    drain: (entry) => lanes.flatMap((lane) => entry.waiters[lane].splice(0)),
    answered: (entry, take, reply) => {
      const { granted, waitMillis } = RedisScripts.readTake(reply)
      const assigned = granted.map(({ delayMillis, name }, index): Granted<W> => {
        entry.inFlight.add(name)
        return { name, delayMillis, waiter: entry.waiters[index < take.interactive ? "interactive" : "batch"].shift() }
      })
      return { granted: assigned, sleepMillis: waiting(entry) > 0 ? Math.ceil(waitMillis) : undefined }
    },
    release: (entry, name, hold) => {
      // Out of the set before the release is sent, so that no renewal sent after the release names it.
      entry.inFlight.delete(name)
      return RedisScripts.releasePermit(entry.keys, name, hold)
    },
    renewals: () =>
      Array.from(users.entries(), ([, entry]) => ({
        entry,
        call: entry.inFlight.size === 0
          ? undefined
          : RedisScripts.renewPermits(entry.keys, options.leaseMillis, entry.inFlight)
      })),
    block: (user, millis, now) => {
      const entry = users.get(user, now)
      entry.blockedUntil = Math.max(entry.blockedUntil, now + millis)
      return RedisScripts.blockUser(entry.keys, millis)
    },
    blockedFor: (entry, now) => Math.max(0, entry.blockedUntil - now),
    readBudget: (user) => RedisScripts.readPermits(keysOf(options.prefix, user)),
    budget: (reply) => Budget.requests({ limit: options.limit, ...RedisScripts.readPermitsLeft(reply) }),
    settle: (user, now) => users.settle(user, now)
  }
}
