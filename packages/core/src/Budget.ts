/**
 * What is left of a user's limits, and when it comes back: the requests of the rate window, the
 * creations of the calendar minute and day, and whether a number of creations can be done by a given
 * instant. Plain data and arithmetic, read by both lines' limiters from either store; and the JSON of
 * a budget ({@link Json}, made by {@link toJson}) that the command line (`limits --json`) and the MCP
 * server (`limits_get`) show, whose fields and values both lines' schemas of it describe.
 *
 * The models' instants are epoch milliseconds here (`Instant`, their type parameter, is `number` by
 * default); each line gives its budgets with instants of its own (`DateTime.Utc`), made by
 * {@link mapInstants} in one place, and {@link toJson} reads them through the conversion it is given.
 *
 * @since 0.1.0
 */
import * as Limits from "./Limits.js"

/**
 * One window of a limit: how much of it is used and left, and when it resets (an `Instant`, epoch
 * milliseconds by default; for the request rate, when the next permit held now comes back, or now
 * when none is held).
 *
 * @since 0.1.0
 * @category models
 */
export interface Window<Instant = number> {
  readonly used: number
  readonly limit: number
  readonly left: number
  readonly resetsAt: Instant
}

/**
 * What is left of a user's limits: the requests of the rate window and the creations of the minute
 * and the day.
 *
 * @since 0.1.0
 * @category models
 */
export interface OfUser<Instant = number> {
  readonly requests: Requests<Instant>
  readonly creations: Creations<Instant>
}

/**
 * The creations left to a user in the current calendar minute and day.
 *
 * @since 0.1.0
 * @category models
 */
export interface Creations<Instant = number> {
  readonly minute: Window<Instant>
  readonly day: Window<Instant>
}

/**
 * The budget of the creations at `now` of a count (as a store keeps it), with `settings`.
 *
 * @example
 * ```ts
 * import * as Budget from "@community-api/core/Budget"
 * import * as Limits from "@community-api/core/Limits"
 * import { deepStrictEqual } from "node:assert"
 *
 * const now = Date.UTC(2026, 0, 5, 9, 30)
 * // 15 creations counted in this minute, 190 today.
 * const count = { minute: Limits.minuteOf(now), inMinute: 15, day: Limits.dayOf(now), inDay: 190 }
 *
 * deepStrictEqual(Budget.creations(count, now), {
 *   minute: { used: 15, limit: 20, left: 5, resetsAt: Date.UTC(2026, 0, 5, 9, 31) },
 *   day: { used: 190, limit: 200, left: 10, resetsAt: Date.UTC(2026, 0, 6) }
 * })
 * ```
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
export interface Requests<Instant = number> {
  readonly used: number
  readonly limit: number
  readonly left: number
  readonly resetsAt: Instant | undefined
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
export type Estimate<Instant = number> =
  | { readonly _tag: "InTime"; readonly lastAt: Instant }
  | { readonly _tag: "Late"; readonly earliest: Instant }

/**
 * A budget's model with each of its instants given by `f`: how a line gives the core's budgets (epoch
 * milliseconds) with instants of its own, and back. Its counts are kept; a `resetsAt` that is
 * `undefined` stays so.
 *
 * @since 0.1.0
 * @category utils
 */
export const mapInstants: {
  <A, B>(estimate: Estimate<A>, f: (instant: A) => B): Estimate<B>
  <A, B>(budget: OfUser<A>, f: (instant: A) => B): OfUser<B>
  <A, B>(creations: Creations<A>, f: (instant: A) => B): Creations<B>
  <A, B>(window: Window<A>, f: (instant: A) => B): Window<B>
  <A, B>(requests: Requests<A>, f: (instant: A) => B): Requests<B>
} = <A, B>(
  model: Estimate<A> | OfUser<A> | Creations<A> | Requests<A>,
  f: (instant: A) => B
): Estimate<B> & OfUser<B> & Creations<B> & Requests<B> => mapped(model, f) as never

const mapped = <A, B>(
  model: Estimate<A> | OfUser<A> | Creations<A> | Requests<A>,
  f: (instant: A) => B
): Estimate<B> | OfUser<B> | Creations<B> | Requests<B> => {
  if ("_tag" in model) {
    return model._tag === "InTime"
      ? { _tag: "InTime", lastAt: f(model.lastAt) }
      : { _tag: "Late", earliest: f(model.earliest) }
  }
  if ("requests" in model) {
    return { requests: mapped(model.requests, f) as Requests<B>, creations: mapped(model.creations, f) as Creations<B> }
  }
  if ("minute" in model) {
    return { minute: mapped(model.minute, f) as Window<B>, day: mapped(model.day, f) as Window<B> }
  }
  return { ...model, resetsAt: model.resetsAt === undefined ? undefined : f(model.resetsAt) }
}

/**
 * The earliest instant the last of `count` creations can be sent, from `budget` at `now`: as many as
 * the minute and the day leave now, then a full minute's worth (the budget's limit) at each next
 * minute within the day's quota, then the next day's. Only the limits are counted, not the time the
 * requests take.
 *
 * @example
 * ```ts
 * import * as Budget from "@community-api/core/Budget"
 * import * as Limits from "@community-api/core/Limits"
 * import { strictEqual } from "node:assert"
 *
 * const now = Date.UTC(2026, 0, 5, 9, 30)
 * const budget = Budget.creations(Limits.emptyCount, now)
 *
 * // 20 fit in this minute; the 21st waits for the next one.
 * strictEqual(Budget.lastCreationAt(budget, 20, now), now)
 * strictEqual(Budget.lastCreationAt(budget, 21, now), Date.UTC(2026, 0, 5, 9, 31))
 * ```
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
 * @example
 * ```ts
 * import * as Budget from "@community-api/core/Budget"
 * import * as Limits from "@community-api/core/Limits"
 * import { deepStrictEqual } from "node:assert"
 *
 * const now = Date.UTC(2026, 0, 5, 9, 30)
 * const count = { minute: Limits.minuteOf(now), inMinute: 15, day: Limits.dayOf(now), inDay: 190 }
 * const budget = Budget.creations(count, now)
 *
 * // 10 creations are left today: 5 now and 5 in the next minute.
 * deepStrictEqual(Budget.estimate(budget, 10, now, now + 60_000), {
 *   _tag: "InTime",
 *   lastAt: Date.UTC(2026, 0, 5, 9, 31)
 * })
 * // The 11th waits for tomorrow.
 * deepStrictEqual(Budget.estimate(budget, 11, now, now + 60_000), { _tag: "Late", earliest: Date.UTC(2026, 0, 6) })
 * ```
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
 * Where a budget is kept, one of {@link limiters}: `memory` or `redis`.
 *
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
 * Whether `creations` creations can all be sent `by` an instant (an `Instant`, epoch milliseconds by
 * default).
 *
 * @since 0.1.0
 * @category models
 */
export interface Question<Instant = number> {
  readonly creations: number
  readonly by: Instant
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
 * A {@link Question} with its answer, its `estimate` ({@link estimate} of the same budget).
 *
 * @since 0.1.0
 * @category models
 */
export interface Asked<Instant = number> extends Question<Instant> {
  readonly estimate: Estimate<Instant>
}

/**
 * The {@link Json} of a budget kept where `limiters` says, with the answer to `asked` when there is
 * one. A budget of epoch milliseconds is read as it is; one of a line's instants, through
 * `epochMillis`, the line's conversion of its instant to epoch milliseconds.
 *
 * @since 0.1.0
 * @category encoding
 */
export const toJson: {
  (budget: OfUser, limiters: Limiters, asked?: Asked): Json
  <Instant>(
    budget: OfUser<Instant>,
    limiters: Limiters,
    asked: Asked<Instant> | undefined,
    epochMillis: (instant: Instant) => number
  ): Json
} = <Instant>(
  budget: OfUser<Instant>,
  limiters: Limiters,
  asked?: Asked<Instant>,
  // Epoch milliseconds already, by the first signature.
  epochMillis: (instant: Instant) => number = Number
): Json => {
  const { creations, requests } = mapInstants(budget, epochMillis)
  const isoOf = (instant: Instant) => iso(epochMillis(instant))
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
        by: isoOf(asked.by),
        in_time: asked.estimate._tag === "InTime",
        last_at: isoOf(asked.estimate._tag === "InTime" ? asked.estimate.lastAt : asked.estimate.earliest)
      }
    })
  }
}
