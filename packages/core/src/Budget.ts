/**
 * What is left of a user's limits, and when it comes back: the requests of the rate window, the
 * creations of the calendar minute and day, and whether a number of creations can be done by a given
 * instant. Plain data and arithmetic, read by both lines' limiters from either store; and the JSON of
 * a budget ({@link Json}, made by {@link toJson}) that the command line (`limits --json`) and the MCP
 * server (`limits_get`) show, whose fields and values both lines' schemas of it describe.
 *
 * @since 0.1.0
 */
import * as Limits from "./Limits.js"

/**
 * One window of a limit: how much of it is used and left, and when it resets (epoch milliseconds; for
 * the request rate, when the next permit held now comes back, or now when none is held).
 *
 * @since 0.1.0
 * @category models
 */
export interface Window {
  readonly used: number
  readonly limit: number
  readonly left: number
  readonly resetsAt: number
}

/**
 * What is left of a user's limits: the requests of the rate window and the creations of the minute
 * and the day.
 *
 * @since 0.1.0
 * @category models
 */
export interface OfUser {
  readonly requests: Requests
  readonly creations: Creations
}

/**
 * The creations left to a user in the current calendar minute and day.
 *
 * @since 0.1.0
 * @category models
 */
export interface Creations {
  readonly minute: Window
  readonly day: Window
}

/**
 * The budget of the creations at `now` of a count (as a store keeps it), with `settings`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const creations = (
  count: Limits.CreationCount,
  now: number,
  settings: Limits.CreationSettings = Limits.creationDefaults
): Creations => {
  const current = Limits.rollCount(count, now)
  const window = (used: number, limit: number, resetsAt: number): Window => ({
    used,
    limit,
    left: Math.max(0, limit - used),
    resetsAt
  })
  return {
    minute: window(current.inMinute, settings.perMinute, Limits.nextMinute(now)),
    day: window(current.inDay, settings.perDay, Limits.nextDay(now))
  }
}

/**
 * The requests of a user's rate window: how many permits are taken or held back (`used`) of `limit`,
 * how many are free now, and when the next held one comes back: `undefined` while every held permit
 * still waits for its answer (a permit comes back a hold after its answer).
 *
 * @since 0.1.0
 * @category models
 */
export interface Requests {
  readonly used: number
  readonly limit: number
  readonly left: number
  readonly resetsAt: number | undefined
}

/**
 * The requests a user may send now: `held` of `limit` permits are taken or held back, and the next of
 * them comes back at `nextBackAt` (when one is given back); a block after a refusal lasts until
 * `blockedUntil`, and leaves none until then.
 *
 * @since 0.1.0
 * @category constructors
 */
export const requests = (options: {
  readonly limit: number
  readonly held: number
  readonly nextBackAt: number | undefined
  readonly blockedUntil: number
  readonly now: number
}): Requests => {
  const held = Math.min(options.limit, Math.max(0, options.held))
  // Whole milliseconds, rounded up (a permit is back no sooner): a clock of fractions (the Redis
  // server's, a monotonic one) would otherwise show through as `1796619063434.686`.
  if (options.blockedUntil > options.now) {
    return { used: options.limit, limit: options.limit, left: 0, resetsAt: Math.ceil(options.blockedUntil) }
  }
  return {
    used: held,
    limit: options.limit,
    left: options.limit - held,
    resetsAt: held === 0
      ? Math.ceil(options.now)
      : options.nextBackAt === undefined
      ? undefined
      : Math.ceil(Math.max(options.now, options.nextBackAt))
  }
}

/**
 * Whether `count` more creations fit by `deadline`: `InTime` with the instant the last of them can be
 * sent at the earliest, or `Late` with the earliest instant they could all be sent by.
 *
 * @since 0.1.0
 * @category models
 */
export type Estimate =
  | { readonly _tag: "InTime"; readonly lastAt: number }
  | { readonly _tag: "Late"; readonly earliest: number }

/**
 * The earliest instant the last of `count` creations can be sent, from `budget` at `now`: as many as
 * the minute and the day leave now, then a full minute's worth (the budget's limit) at each next
 * minute within the day's quota, then the next day's. Only the limits are counted, not the time the
 * requests take.
 *
 * @since 0.1.0
 * @category utils
 */
export const lastCreationAt = (budget: Creations, count: number, now: number): number => {
  const settings = { perMinute: budget.minute.limit, perDay: budget.day.limit }
  let remaining = Math.max(0, Math.floor(count))
  if (remaining === 0) return now
  if (settings.perMinute <= 0 || settings.perDay <= 0) return Infinity
  let at = now
  let inMinute = budget.minute.left
  let inDay = budget.day.left
  // One step per calendar minute, or to the next day when the day is used up: at most count /
  // perMinute steps and one per day crossed.
  for (;;) {
    const fits = Math.min(inMinute, inDay)
    if (remaining <= fits) return at
    remaining -= fits
    inDay -= fits
    if (inDay <= 0) {
      at = Limits.nextDay(at)
      inDay = settings.perDay
    } else {
      at = Limits.nextMinute(at)
    }
    inMinute = settings.perMinute
  }
}

/**
 * Whether `count` creations can all be sent by `deadline` (see {@link lastCreationAt}).
 *
 * @since 0.1.0
 * @category utils
 */
export const estimate = (budget: Creations, count: number, now: number, deadline: number): Estimate => {
  const lastAt = lastCreationAt(budget, count, now)
  return lastAt <= deadline ? { _tag: "InTime", lastAt } : { _tag: "Late", earliest: lastAt }
}

/**
 * Where a client's limiters keep a user's budget: `memory`, this process's own (its calls alone), or
 * `redis`, the Redis every process of the user shares.
 *
 * @since 0.1.0
 * @category constants
 */
export const limiters = ["memory", "redis"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type Limiters = typeof limiters[number]

/**
 * The most creations a question takes ({@link Question}): well over a year of the daily limit.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxCreations = 100_000

/**
 * Whether `creations` creations can all be sent `by` an instant (epoch milliseconds).
 *
 * @since 0.1.0
 * @category models
 */
export interface Question {
  readonly creations: number
  readonly by: number
}

/**
 * One window of a limit, as {@link Json} shows it: used, limit, left, and when it resets (an instant
 * in ISO 8601, UTC, to the millisecond: `2026-01-01T15:00:00.000Z`).
 *
 * @since 0.1.0
 * @category models
 */
export interface WindowJson {
  readonly used: number
  readonly limit: number
  readonly left: number
  readonly resets_at: string
}

/**
 * The JSON of a budget: where the limiters keep it, the requests (`resets_at` null while every permit
 * held waits for its answer), the creations of the minute and the day, and the answer to a
 * {@link Question} when one was asked (`last_at`, the earliest instant the last of them can be sent).
 * Each line describes it with a schema of its own (`Budget.Json` of either client), of this type.
 *
 * @since 0.1.0
 * @category models
 */
export interface Json {
  readonly limiters: Limiters
  readonly requests: {
    readonly used: number
    readonly limit: number
    readonly left: number
    readonly resets_at: string | null
  }
  readonly creations: {
    readonly minute: WindowJson
    readonly day: WindowJson
  }
  readonly estimate?: {
    readonly creations: number
    readonly by: string
    readonly in_time: boolean
    readonly last_at: string
  } | undefined
}

const iso = (epochMillis: number): string => new Date(epochMillis).toISOString()

const windowJson = (window: Window): WindowJson => ({
  used: window.used,
  limit: window.limit,
  left: window.left,
  resets_at: iso(window.resetsAt)
})

/**
 * The {@link Json} of a budget kept where `limiters` says, with the answer to `asked` when there is
 * one (its `estimate`, {@link estimate} of the same budget).
 *
 * @since 0.1.0
 * @category encoding
 */
export const toJson = (
  budget: OfUser,
  limiters: Limiters,
  asked?: Question & { readonly estimate: Estimate }
): Json => {
  const { creations, requests } = budget
  return {
    limiters,
    requests: {
      used: requests.used,
      limit: requests.limit,
      left: requests.left,
      resets_at: requests.resetsAt === undefined ? null : iso(requests.resetsAt)
    },
    creations: { minute: windowJson(creations.minute), day: windowJson(creations.day) },
    ...(asked === undefined ? {} : {
      estimate: {
        creations: asked.creations,
        by: iso(asked.by),
        in_time: asked.estimate._tag === "InTime",
        last_at: iso(asked.estimate._tag === "InTime" ? asked.estimate.lastAt : asked.estimate.earliest)
      }
    })
  }
}
