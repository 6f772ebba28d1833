/**
 * Instants as the command line takes and shows them: an ISO 8601 date and time, with its offset or
 * in this machine's zone (a person at a terminal says "18:00" in their own), and in tables the local
 * time beside the ISO one (UTC), since the day of the creation limit turns at 00:00 UTC.
 */

/** `2026-01-01T18:00`, seconds and milliseconds optional, a space for the `T`, then `Z`, `+03:00` or nothing. */
const isoDateTime = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?$/i

/** What {@link parse} takes, as a refusal says it. */
export const expected =
  "an ISO date and time: 2026-01-01T18:00 in this machine's zone, or with an offset (2026-01-01T18:00+03:00, " +
  "2026-01-01T15:00Z)"

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * The epoch milliseconds of `text` (see {@link expected}), or `undefined` when it is not one or names
 * a day, an hour or an offset the calendar does not have (`Date` would read `02-30` as March 2nd).
 */
export const parse = (text: string): number | undefined => {
  const match = isoDateTime.exec(text.trim())
  if (match === null) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? "0"))
  const millis = Number((match[7] ?? "0").padEnd(3, "0"))
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const zone = match[8]
  if (zone === undefined) return new Date(year, month - 1, day, hour, minute, second, millis).getTime()
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis)
  if (zone.toUpperCase() === "Z") return utc
  const [hours, minutes] = zone.slice(1).split(":").map(Number)
  if (hours > 23 || minutes > 59) return undefined
  return utc - (zone.startsWith("-") ? -1 : 1) * (hours * 60 + minutes) * 60_000
}

const two = (value: number) => String(value).padStart(2, "0")

/** An instant in this machine's zone, to the second: `2026-01-01 18:00:00`. */
export const local = (epochMillis: number): string => {
  const date = new Date(epochMillis)
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
}

/** An instant in ISO 8601, UTC, to the millisecond: `2026-01-01T15:00:00.000Z`. */
export const iso = (epochMillis: number): string => new Date(epochMillis).toISOString()
