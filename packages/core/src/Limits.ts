/**
 * The API's limits and the calendar arithmetic of the creation windows, written once and
 * read by the client's limiters and the server's counters alike, in either Effect line.
 *
 * The day of the creation limit starts at 03:00 Moscow time. Moscow keeps UTC+3 all year, so that is
 * 00:00 UTC and both calendar windows are plain divisions of epoch milliseconds.
 *
 * @since 0.1.0
 */

/**
 * Requests per user in any window of {@link rateWindowMillis}, all of the user's tokens together.
 *
 * @since 0.1.0
 * @category constants
 */
export const requestsPerWindow = 30

/**
 * The window of the request rate, in milliseconds.
 *
 * @since 0.1.0
 * @category constants
 */
export const rateWindowMillis = 1_000

/**
 * Creations per user in one calendar minute, `lists/create`, `vars/create` and `globalVars/create`
 * together.
 *
 * @since 0.1.0
 * @category constants
 */
export const creationsPerMinute = 20

/**
 * Creations per user in one day starting at 03:00 Moscow time.
 *
 * @since 0.1.0
 * @category constants
 */
export const creationsPerDay = 200

/**
 * The length of a calendar minute, in milliseconds.
 *
 * @since 0.1.0
 * @category constants
 */
export const minuteMillis = 60_000

/**
 * The length of a creation day, in milliseconds.
 *
 * @since 0.1.0
 * @category constants
 */
export const dayMillis = 86_400_000

/**
 * The offset of the creation day's start from 00:00 UTC: 03:00 Moscow time is 00:00 UTC.
 *
 * @since 0.1.0
 * @category constants
 */
export const dayStartOffsetMillis = 0

/**
 * A calendar window of the creation limit.
 *
 * @since 0.1.0
 * @category models
 */
export type CreationWindow = "minute" | "day"

/**
 * The index of the calendar minute that holds `epochMillis`.
 *
 * @since 0.1.0
 * @category utils
 */
export const minuteOf = (epochMillis: number): number => Math.floor(epochMillis / minuteMillis)

/**
 * The index of the creation day (from 03:00 Moscow time) that holds `epochMillis`.
 *
 * @since 0.1.0
 * @category utils
 */
export const dayOf = (epochMillis: number): number => Math.floor((epochMillis - dayStartOffsetMillis) / dayMillis)

/**
 * When the calendar minute holding `epochMillis` ends: the start of the next one.
 *
 * @since 0.1.0
 * @category utils
 */
export const nextMinute = (epochMillis: number): number => (minuteOf(epochMillis) + 1) * minuteMillis

/**
 * When the creation day holding `epochMillis` ends: the next 03:00 Moscow time.
 *
 * @since 0.1.0
 * @category utils
 */
export const nextDay = (epochMillis: number): number => (dayOf(epochMillis) + 1) * dayMillis + dayStartOffsetMillis

/**
 * When a window holding `epochMillis` ends.
 *
 * @since 0.1.0
 * @category utils
 */
export const windowEnd = (window: CreationWindow, epochMillis: number): number =>
  window === "minute" ? nextMinute(epochMillis) : nextDay(epochMillis)

/**
 * The settings of a creation counter.
 *
 * @since 0.1.0
 * @category models
 */
export interface CreationSettings {
  readonly perMinute: number
  readonly perDay: number
}

/**
 * The API's own creation settings.
 *
 * @since 0.1.0
 * @category constants
 */
export const creationDefaults: CreationSettings = { perMinute: creationsPerMinute, perDay: creationsPerDay }

/**
 * What one creation counter holds: the counts of the current minute and day.
 *
 * @since 0.1.0
 * @category models
 */
export interface CreationCount {
  readonly minute: number
  readonly inMinute: number
  readonly day: number
  readonly inDay: number
}

/**
 * A counter with nothing counted.
 *
 * @since 0.1.0
 * @category constants
 */
export const emptyCount: CreationCount = { minute: -1, inMinute: 0, day: -1, inDay: 0 }

/**
 * The count as it stands at `now`: a count of a past minute or day starts again from zero.
 *
 * @since 0.1.0
 * @category utils
 */
export const rollCount = (count: CreationCount, now: number): CreationCount => {
  const minute = minuteOf(now)
  const day = dayOf(now)
  return {
    minute,
    inMinute: count.minute === minute ? count.inMinute : 0,
    day,
    inDay: count.day === day ? count.inDay : 0
  }
}

/**
 * The window a creation at `now` would exceed, or `undefined` when it fits. The day is checked first:
 * a day used up cannot be waited out within the minute.
 *
 * @since 0.1.0
 * @category utils
 */
export const exhaustedWindow = (
  count: CreationCount,
  now: number,
  settings: CreationSettings = creationDefaults
): CreationWindow | undefined => {
  const current = rollCount(count, now)
  if (current.inDay >= settings.perDay) return "day"
  if (current.inMinute >= settings.perMinute) return "minute"
  return undefined
}

/**
 * Takes one creation at `now`: the new count, or the window that is used up (nothing taken then).
 *
 * @example
 * ```ts
 * import * as Limits from "@community-api/core/Limits"
 * import { deepStrictEqual, strictEqual } from "node:assert"
 *
 * const now = Date.UTC(2026, 0, 5, 9, 30)
 * const taken = Limits.takeCreation(Limits.emptyCount, now)
 * strictEqual(taken._tag, "Taken")
 *
 * // The 21st creation of a minute is refused until the next minute.
 * const full = { minute: Limits.minuteOf(now), inMinute: 20, day: Limits.dayOf(now), inDay: 20 }
 * deepStrictEqual(Limits.takeCreation(full, now), {
 *   _tag: "Exhausted",
 *   window: "minute",
 *   resetsAt: Date.UTC(2026, 0, 5, 9, 31)
 * })
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const takeCreation = (
  count: CreationCount,
  now: number,
  settings: CreationSettings = creationDefaults
):
  | { readonly _tag: "Taken"; readonly count: CreationCount }
  | { readonly _tag: "Exhausted"; readonly window: CreationWindow; readonly resetsAt: number } =>
{
  const current = rollCount(count, now)
  const window = exhaustedWindow(current, now, settings)
  if (window !== undefined) return { _tag: "Exhausted", window, resetsAt: windowEnd(window, now) }
  return { _tag: "Taken", count: { ...current, inMinute: current.inMinute + 1, inDay: current.inDay + 1 } }
}

/**
 * Gives back a creation taken at `taken` that the server did not count, where its windows are still
 * the current ones at `now`.
 *
 * @since 0.1.0
 * @category utils
 */
export const refundCreation = (count: CreationCount, taken: number, now: number): CreationCount => {
  const current = rollCount(count, now)
  return {
    ...current,
    inMinute: minuteOf(taken) === current.minute ? Math.max(0, current.inMinute - 1) : current.inMinute,
    inDay: dayOf(taken) === current.day ? Math.max(0, current.inDay - 1) : current.inDay
  }
}
