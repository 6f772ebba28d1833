/**
 * The Lua scripts of the Redis store of the limiters, and the layout of their arguments and replies.
 * Every process of a user, on either Effect line, runs the same scripts on the same keys (`RedisKeys`),
 * loaded under these names: a change to a text here is a change to what every process of a user
 * shares. Each line only carries the calls to Redis; what they send and how a reply reads is here.
 *
 * Every decision is one Lua script, run atomically by Redis on its own clock (`TIME`):
 *
 * - Pacing, per user: a sorted set of the permits in flight, scored by when their lease lapses (now +
 *   lease at the take, pushed back by a renewal every third of the lease while the request is in
 *   flight), and a sorted set of the permits given back, scored by when they come back (the hold of
 *   `PacingRule`: `max(answer + afterAnswer, take + afterTake)`, both on the Redis clock; the take's
 *   time is part of the permit's name). A take drops what has lapsed or come back and, unless the user
 *   is blocked, grants as many permits as this process's waiters ask for while fewer than `limit` are
 *   held; it says how long the waiters left should wait. A process that dies stops renewing, so its
 *   permits lapse within the lease. A take whose reply never came (a stalled Redis runs it late) is
 *   undone by the prefix of its permits' names, so that they are not held unused for a lease.
 * - Creations, per user: one hash of the counts of the current calendar minute and day (the fields of
 *   `Limits.CreationCount`), with the windows computed from the Redis clock and the constants of
 *   `Limits`, kept until the day ends.
 *
 * Times in the pacing scripts are microseconds (Redis's `TIME` has them; a Lua number holds them
 * exactly), in the creation script milliseconds. The calls below take milliseconds throughout.
 *
 * @since 0.1.0
 */
import * as Lua from "./internal/lua.js"
import * as Limits from "./Limits.js"
import type { Hold } from "./PacingRule.js"
import type { Keys } from "./RedisKeys.js"

/**
 * The name of a script, as it is defined on a connection.
 *
 * @since 0.1.0
 * @category models
 */
export type Script =
  | "communityApiTakePermits"
  | "communityApiRenewPermits"
  | "communityApiReleasePermit"
  | "communityApiReturnTake"
  | "communityApiBlockUser"
  | "communityApiCountCreations"
  | "communityApiReadPermits"
  | "communityApiReadCreations"

/**
 * A script's text and how many of its arguments are keys.
 *
 * @since 0.1.0
 * @category models
 */
export interface Definition {
  readonly numberOfKeys: number
  readonly lua: string
}

/**
 * The scripts by the name they are defined under on a connection.
 *
 * @since 0.1.0
 * @category constants
 */
export const scripts: { readonly [Name in Script]: Definition } = {
  communityApiTakePermits: { numberOfKeys: 4, lua: Lua.takePermits },
  communityApiRenewPermits: { numberOfKeys: 2, lua: Lua.renewPermits },
  communityApiReleasePermit: { numberOfKeys: 2, lua: Lua.releasePermit },
  communityApiReturnTake: { numberOfKeys: 2, lua: Lua.returnTake },
  communityApiBlockUser: { numberOfKeys: 1, lua: Lua.blockUser },
  communityApiCountCreations: { numberOfKeys: 1, lua: Lua.countCreations },
  communityApiReadPermits: { numberOfKeys: 3, lua: Lua.readPermits },
  communityApiReadCreations: { numberOfKeys: 1, lua: Lua.readCreations }
}

/**
 * What a script answers: Redis turns a Lua table into an array of integers and strings.
 *
 * @since 0.1.0
 * @category models
 */
export type Reply = ReadonlyArray<number | string>

/**
 * One run of a script: its name, its keys and its other arguments, in the order the script reads
 * them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Call {
  readonly script: Script
  readonly keys: ReadonlyArray<string>
  readonly args: ReadonlyArray<string | number>
}

/**
 * Milliseconds as the microseconds of the pacing scripts' arguments.
 *
 * @since 0.1.0
 * @category utils
 */
export const micros = (millis: number): number => Math.ceil(millis * 1000)

/**
 * The options of a take of permits, in milliseconds.
 *
 * @since 0.1.0
 * @category models
 */
export interface TakeOptions {
  /** Permits per user. */
  readonly limit: number
  /** How long a permit in flight stays held without a renewal. */
  readonly leaseMillis: number
  /** A prefix of the permits' names unique to this take among every process of the user. */
  readonly namePrefix: string
  /** The longest the waiters left wait while permits are in flight. */
  readonly pollMillis: number
  /** How many permits to take: one for each waiter of this process. */
  readonly count: number
  /** How far ahead a permit coming back is reserved for a waiter. */
  readonly leadMillis: number
  /** How many of `count` are interactive calls, served first (`Lane`); default none. */
  readonly interactive?: number | undefined
  /** The permits kept for interactive calls while one waited within the last window (`Lane.reserved`). */
  readonly kept?: number | undefined
  /** The window of the limit. */
  readonly windowMillis?: number | undefined
}

/**
 * Takes up to `count` permits of the user of `keys` (see {@link TakeOptions}); read its reply with
 * {@link readTake}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const takePermits = (keys: Keys, options: TakeOptions): Call => ({
  script: "communityApiTakePermits",
  keys: [keys.inFlight, keys.given, keys.blocked, keys.interactiveWaited],
  args: [
    options.limit,
    micros(options.leaseMillis),
    options.namePrefix,
    micros(options.pollMillis),
    options.count,
    micros(options.leadMillis),
    options.interactive ?? 0,
    options.kept ?? 0,
    micros(options.windowMillis ?? Limits.rateWindowMillis)
  ]
})

/**
 * What a take answered: the permits granted, in the order of the waiters, each with how long until it
 * may be used (a permit reserved as it comes back), and how long the waiters left should wait before
 * asking again (0 when none is left). In milliseconds.
 *
 * @since 0.1.0
 * @category models
 */
export interface Taken {
  readonly waitMillis: number
  readonly granted: ReadonlyArray<{ readonly name: string; readonly delayMillis: number }>
}

/**
 * Reads the reply of {@link takePermits}.
 *
 * @since 0.1.0
 * @category utils
 */
export const readTake = (reply: Reply): Taken => {
  const [wait, ...granted] = reply
  return {
    waitMillis: Number(wait) / 1000,
    granted: Array.from({ length: Math.floor(granted.length / 2) }, (_, i) => ({
      name: String(granted[2 * i]),
      delayMillis: Number(granted[2 * i + 1]) / 1000
    }))
  }
}

/**
 * Keeps the permits `names` of a process in flight for another lease, but not one already given back.
 *
 * @since 0.1.0
 * @category constructors
 */
export const renewPermits = (keys: Keys, leaseMillis: number, names: Iterable<string>): Call => ({
  script: "communityApiRenewPermits",
  keys: [keys.inFlight, keys.given],
  args: [micros(leaseMillis), ...names]
})

/**
 * Gives the permit `name` back, held as `hold` says on the Redis clock.
 *
 * @since 0.1.0
 * @category constructors
 */
export const releasePermit = (keys: Keys, name: string, hold: Hold): Call => ({
  script: "communityApiReleasePermit",
  keys: [keys.inFlight, keys.given],
  args: [name, micros(hold.afterAnswerMillis), micros(hold.afterTakeMillis)]
})

/**
 * Gives back, unused, every permit granted by the take of `namePrefix` ({@link TakeOptions}): a take
 * whose reply never came (a timeout, a failed connection) may still run in Redis and grant permits
 * that no waiter receives. Sent on the connection of the take, it runs after it. Read its reply with
 * {@link readReturned}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const returnTake = (keys: Keys, namePrefix: string): Call => ({
  script: "communityApiReturnTake",
  keys: [keys.inFlight, keys.given],
  args: [namePrefix]
})

/**
 * Reads the reply of {@link returnTake}: how many permits the take had granted and were given back.
 *
 * @since 0.1.0
 * @category utils
 */
export const readReturned = (reply: Reply): number => Number(reply[0])

/**
 * Blocks every take of the user for `millis` from now on the Redis clock (a block already longer
 * stays).
 *
 * @since 0.1.0
 * @category constructors
 */
export const blockUser = (keys: Keys, millis: number): Call => ({
  script: "communityApiBlockUser",
  keys: [keys.blocked],
  args: [micros(millis)]
})

/**
 * What to do with the creation counts of a user: count one now (`take`), count again now one
 * counted at a time of an earlier minute (`retake`), give one back (`refund`), use a window up
 * (`exhaust`), or tell the window used up (`usedUp`).
 *
 * @since 0.1.0
 * @category models
 */
export type CountRequest =
  | { readonly _tag: "take" }
  | { readonly _tag: "retake"; readonly taken: number }
  | { readonly _tag: "refund"; readonly taken: number }
  | { readonly _tag: "exhaust"; readonly window: Limits.CreationWindow }
  | { readonly _tag: "usedUp" }

/**
 * One run of the count script for `request`, with the quota of `settings` and the calendar of
 * `Limits`; read the reply of `take` and `retake` with {@link readVerdict}, that of `usedUp` with
 * {@link readUsedUp}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const countCreations = (keys: Keys, settings: Limits.CreationSettings, request: CountRequest): Call => ({
  script: "communityApiCountCreations",
  keys: [keys.creations],
  args: [
    request._tag,
    settings.perMinute,
    settings.perDay,
    Limits.minuteMillis,
    Limits.dayMillis,
    Limits.dayStartOffsetMillis,
    ...(request._tag === "retake" || request._tag === "refund"
      ? [request.taken]
      : request._tag === "exhaust"
      ? [request.window]
      : [])
  ]
})

/**
 * What a count answered: counted at `at`, or the window that is used up (nothing counted) with when
 * it resets and the Redis time of the answer, all in epoch milliseconds on the Redis clock.
 *
 * @since 0.1.0
 * @category models
 */
export type Verdict =
  | { readonly _tag: "Taken"; readonly at: number }
  | {
    readonly _tag: "Exhausted"
    readonly window: Limits.CreationWindow
    readonly resetsAt: number
    readonly now: number
  }

/**
 * Reads the reply of a `take` or a `retake` of {@link countCreations}.
 *
 * @since 0.1.0
 * @category utils
 */
export const readVerdict = (reply: Reply): Verdict =>
  reply[0] === 1
    ? { _tag: "Taken", at: Number(reply[1]) }
    : {
      _tag: "Exhausted",
      window: reply[1] === "day" ? "day" : "minute",
      resetsAt: Number(reply[2]),
      now: Number(reply[3])
    }

/**
 * Reads the reply of a `usedUp` of {@link countCreations}: the window used up now, if any.
 *
 * @since 0.1.0
 * @category utils
 */
export const readUsedUp = (reply: Reply): Limits.CreationWindow | undefined => {
  const window = reply[0]
  return window === "minute" || window === "day" ? window : undefined
}

/**
 * Reads, changing nothing, the creation counts of the user of `keys` in the current minute and day;
 * read its reply with {@link readCounts}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readCreations = (keys: Keys): Call => ({
  script: "communityApiReadCreations",
  keys: [keys.creations],
  args: [Limits.minuteMillis, Limits.dayMillis, Limits.dayStartOffsetMillis]
})

/**
 * Reads the reply of {@link readCreations}: the counts of the current minute and day, and the Redis
 * time (epoch milliseconds).
 *
 * @since 0.1.0
 * @category utils
 */
export const readCounts = (reply: Reply): { readonly count: Limits.CreationCount; readonly now: number } => {
  const now = Number(reply[2])
  return {
    count: {
      minute: Limits.minuteOf(now),
      inMinute: Number(reply[0]),
      day: Limits.dayOf(now),
      inDay: Number(reply[1])
    },
    now
  }
}

/**
 * Reads, changing nothing, what is left of the rate window of the user of `keys`; read its reply with
 * {@link readPermitsLeft}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readPermits = (keys: Keys): Call => ({
  script: "communityApiReadPermits",
  keys: [keys.inFlight, keys.given, keys.blocked],
  args: []
})

/**
 * Reads the reply of {@link readPermits}: the permits held (in flight or given back and not yet
 * back), when the first given back comes back, the end of a block and the Redis time, in milliseconds.
 *
 * @since 0.1.0
 * @category utils
 */
export const readPermitsLeft = (reply: Reply): {
  readonly held: number
  readonly nextBackAt: number | undefined
  readonly blockedUntil: number
  readonly now: number
} => {
  const nextBack = Number(reply[2])
  return {
    held: Number(reply[0]) + Number(reply[1]),
    nextBackAt: nextBack > 0 ? nextBack / 1000 : undefined,
    blockedUntil: Number(reply[3]) / 1000,
    now: Number(reply[4]) / 1000
  }
}
