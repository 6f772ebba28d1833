/**
 * The wire's primitives as plain rules, read by both Effect lines' schemas: the channels, the forms
 * of an integer and an id, the dates, a page's count and offset, the rules of a name, and the words
 * each one refuses a value with. Each line's schema of a primitive is a few lines over these.
 *
 * @since 0.1.0
 */

/**
 * The channels (networks and messengers) a community belongs to.
 *
 * @since 0.1.0
 * @category constants
 */
export const channels = ["VK", "TG", "OK", "MAX", "CHAT", "AVITO"] as const

/**
 * A channel.
 *
 * @since 0.1.0
 * @category models
 */
export type Channel = typeof channels[number]

/**
 * What each channel is, in the contract's words.
 *
 * @since 0.1.0
 * @category constants
 */
export const channelDescription =
  "VK (social network), TG (messenger), OK (social network), MAX (messenger), CHAT (online chat), AVITO"

/**
 * The wire form of a channel for JSON Schema readers: any letter case of a channel's value.
 *
 * @since 0.1.0
 * @category constants
 */
export const channelPattern = `^(?:${
  channels.map((value) => [...value].map((c) => `[${c}${c.toLowerCase()}]`).join("")).join("|")
})$`

/**
 * Whether `value` is a channel in any letter case.
 *
 * @since 0.1.0
 * @category guards
 */
export const isChannel = (value: string): boolean => (channels as ReadonlyArray<string>).includes(value.toUpperCase())

/**
 * An integer as a string (a form body or the query carries strings): 1 to 16 digits with an optional
 * minus sign; negative numbers because some networks number communities below zero (assumed).
 *
 * @since 0.1.0
 * @category constants
 */
export const intDigits = /^-?\d{1,16}$/

/**
 * The service's own ids: 24 characters of 0-9 and a-f.
 *
 * @since 0.1.0
 * @category constants
 */
export const objectIdPattern = /^[0-9a-f]{24}$/

/**
 * Why a value is not an id.
 *
 * @since 0.1.0
 * @category constants
 */
export const objectIdMessage = "an object id is 24 characters of 0-9 and a-f"

/**
 * Moscow's offset from UTC (no summer time), in which request dates are written.
 *
 * @since 0.1.0
 * @category constants
 */
export const moscowOffsetMillis = 3 * 60 * 60 * 1000

/**
 * A request's date: `dd.mm.yyyy hh:ii`.
 *
 * @since 0.1.0
 * @category constants
 */
export const requestDatePattern = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})$/

/**
 * What a request's date is, in words.
 *
 * @since 0.1.0
 * @category constants
 */
export const requestDateDescription = "dd.mm.yyyy hh:ii, Moscow time"

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/**
 * A request's date (`dd.mm.yyyy hh:ii`, Moscow time) as epoch milliseconds, or why it is not one.
 *
 * @example
 * ```ts
 * import * as Wire from "@community-api/core/Wire"
 * import { deepStrictEqual } from "node:assert"
 *
 * // Moscow time, three hours ahead of UTC.
 * deepStrictEqual(Wire.parseRequestDate("05.01.2026 12:30"), { _tag: "Date", millis: Date.UTC(2026, 0, 5, 9, 30) })
 * deepStrictEqual(Wire.parseRequestDate("31.02.2026 10:00"), {
 *   _tag: "Refused",
 *   message: "no such date: \"31.02.2026 10:00\""
 * })
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const parseRequestDate = (
  text: string
): { readonly _tag: "Date"; readonly millis: number } | { readonly _tag: "Refused"; readonly message: string } => {
  const match = requestDatePattern.exec(text)
  if (match === null) return { _tag: "Refused", message: `a date is written dd.mm.yyyy hh:ii, got "${text}"` }
  const [day, month, year, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  const millis = Date.UTC(year, month - 1, day, hour, minute) - moscowOffsetMillis
  const check = new Date(millis + moscowOffsetMillis)
  if (
    check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day ||
    hour > 23 || minute > 59
  ) {
    return { _tag: "Refused", message: `no such date: "${text}"` }
  }
  return { _tag: "Date", millis }
}

/**
 * Epoch milliseconds as a request's date, in whole minutes of Moscow time.
 *
 * @example
 * ```ts
 * import * as Wire from "@community-api/core/Wire"
 * import { strictEqual } from "node:assert"
 *
 * strictEqual(Wire.formatRequestDate(Date.UTC(2026, 0, 5, 9, 30, 45)), "05.01.2026 12:30")
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const formatRequestDate = (epochMillis: number): string => {
  const d = new Date(epochMillis + moscowOffsetMillis)
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCFullYear(), 4)} ${pad(d.getUTCHours())}:${
    pad(d.getUTCMinutes())
  }`
}

/**
 * The largest distance of a date from the epoch, in milliseconds, on either side.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxDateMillis = 8.64e15

/**
 * Why a number is not a unix time, or `undefined` when it is one.
 *
 * @since 0.1.0
 * @category decoding
 */
export const unixSecondsRefusal = (seconds: number): string | undefined =>
  Math.abs(seconds * 1000) <= maxDateMillis ? undefined : `${seconds} is not a unix time`

/**
 * What a unix time is, in words.
 *
 * @since 0.1.0
 * @category constants
 */
export const unixSecondsDescription = "unix time in seconds"

/**
 * The most records a page holds; a larger `count` is replaced by it.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxCount = 500

/**
 * The records a page holds when `count` is not given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultCount = 100

/**
 * Why a `count` or an `offset` is refused.
 *
 * @since 0.1.0
 * @category constants
 */
export const pageMessages = { count: "count is at least 1", offset: "offset is at least 0" } as const

/**
 * The most characters of a title or a name.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxTextLength = 120

/**
 * The most characters of a variable's value.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxValueLength = 4_096

/**
 * The characters a variable's name may not hold.
 *
 * @since 0.1.0
 * @category constants
 */
export const forbiddenNameCharacters = [".", "{", "}", "[", "]", "%", "|", "'", "\"", ":", ";", "`"] as const

/**
 * The sequence a variable's name may not hold.
 *
 * @since 0.1.0
 * @category constants
 */
export const forbiddenNameSequence = "_NAME"

/**
 * The first forbidden character or sequence in `name`, or `undefined`.
 *
 * @since 0.1.0
 * @category utils
 */
export const forbiddenInName = (name: string): string | undefined => {
  for (const char of name) {
    if ((forbiddenNameCharacters as ReadonlyArray<string>).includes(char)) return char
  }
  return name.includes(forbiddenNameSequence) ? forbiddenNameSequence : undefined
}

/**
 * The rule of a variable's name for JSON Schema readers: none of the characters (a pattern with no
 * lookahead, which generators of examples cannot use), and not the sequence.
 *
 * @since 0.1.0
 * @category constants
 */
export const nameJsonSchema = {
  pattern: `^[^${forbiddenNameCharacters.map((c) => "\\[]^-".includes(c) ? `\\${c}` : c).join("")}]*$`,
  not: { pattern: forbiddenNameSequence }
} as const

/**
 * The words of a text's refusal: empty, too long, or holding what a name may not.
 *
 * @since 0.1.0
 * @category constants
 */
export const textMessages = {
  empty: (what: string) => `${what} must not be empty`,
  tooLong: (what: string, max: number) => `${what} is at most ${max} characters`,
  forbidden: (what: string, found: string) => `${what} must not contain "${found}"`
} as const

/**
 * The words of the refusal of a text of 1 to `max` characters that is empty or longer.
 *
 * @since 0.1.0
 * @category constants
 */
export const boundedTextMessages = {
  empty: "must not be empty",
  tooLong: (max: number) => `at most ${max} characters`
} as const

/**
 * What the parameters of an operation the API lists without showing them are, in words.
 *
 * @since 0.1.0
 * @category constants
 */
export const unknownPayloadDescription = "parameters not shown in the spec"
