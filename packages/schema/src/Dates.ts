/**
 * Dates on the wire: requests carry `dd.mm.yyyy hh:ii` in Moscow time, responses carry unix
 * seconds, and `stats/*` responses carry strings.
 *
 * @since 0.1.0
 */
import { DateTime, Either, ParseResult, Schema } from "effect"

/**
 * Moscow's offset from UTC. Moscow has kept UTC+3 all year since 2014, so a fixed offset is exact.
 *
 * @since 0.1.0
 * @category constants
 */
export const moscowOffsetMillis = 3 * 60 * 60 * 1000

const requestDatePattern = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})$/
const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/**
 * Parses `dd.mm.yyyy hh:ii` (Moscow time) into a UTC instant, or tells what is wrong.
 *
 * @since 0.1.0
 * @category decoding
 */
export const parseRequestDate = (text: string): Either.Either<DateTime.Utc, string> => {
  const match = requestDatePattern.exec(text)
  if (match === null) return Either.left(`a date is written dd.mm.yyyy hh:ii, got "${text}"`)
  const [day, month, year, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  const millis = Date.UTC(year, month - 1, day, hour, minute) - moscowOffsetMillis
  const check = new Date(millis + moscowOffsetMillis)
  if (
    check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day ||
    hour > 23 || minute > 59
  ) {
    return Either.left(`no such date: "${text}"`)
  }
  return Either.right(DateTime.unsafeMake(millis))
}

/**
 * Formats a UTC instant as `dd.mm.yyyy hh:ii` in Moscow time (seconds are dropped).
 *
 * @since 0.1.0
 * @category encoding
 */
export const formatRequestDate = (date: DateTime.DateTime): string => {
  const d = new Date(DateTime.toEpochMillis(date) + moscowOffsetMillis)
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCFullYear(), 4)} ${pad(d.getUTCHours())}:${
    pad(d.getUTCMinutes())
  }`
}

/**
 * A request date: `dd.mm.yyyy hh:ii` Moscow time on the wire, a `DateTime.Utc` in code. Instants are
 * whole minutes; encoding drops seconds.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestDate: Schema.Schema<DateTime.Utc, string> = Schema.transformOrFail(
  Schema.String,
  Schema.DateTimeUtcFromSelf,
  {
    strict: true,
    decode: (text, _, ast) =>
      Either.match(parseRequestDate(text), {
        onLeft: (message) => ParseResult.fail(new ParseResult.Type(ast, text, message)),
        onRight: ParseResult.succeed
      }),
    encode: (date) => ParseResult.succeed(formatRequestDate(date))
  }
).annotations({
  identifier: "RequestDate",
  description: "dd.mm.yyyy hh:ii, Moscow time",
  // The wire carries whole minutes of four-digit years, so only such instants survive a round trip.
  arbitrary: () => (fc) =>
    fc.integer({ min: Date.UTC(1970, 0, 1) / 60_000, max: Date.UTC(2100, 0, 1) / 60_000 }).map((minutes) =>
      DateTime.unsafeMake(minutes * 60_000)
    ),
  jsonSchema: { type: "string", pattern: requestDatePattern.source }
})

/** The range of a JavaScript date, in milliseconds either side of the epoch. */
const maxDateMillis = 8.64e15

/**
 * A response date: unix time in whole seconds on the wire, a `DateTime.Utc` in code.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UnixSeconds: Schema.Schema<DateTime.Utc, number> = Schema.transformOrFail(
  Schema.Int,
  Schema.DateTimeUtcFromSelf,
  {
    strict: true,
    // An integer past the range of dates (±8.64e12 s) is refused, not thrown. Checked here rather than
    // by `DateTime.make`, whose `Option` and handlers cost more than the rest of a page's decoding.
    decode: (seconds, _, ast) => {
      const millis = seconds * 1000
      return Math.abs(millis) <= maxDateMillis
        ? ParseResult.succeed(DateTime.unsafeMake(millis))
        : ParseResult.fail(new ParseResult.Type(ast, seconds, `${seconds} is not a unix time`))
    },
    encode: (date) => ParseResult.succeed(Math.floor(DateTime.toEpochMillis(date) / 1000))
  }
).annotations({
  identifier: "UnixSeconds",
  description: "unix time in seconds",
  // The wire carries whole seconds, so only such instants survive a round trip.
  arbitrary: () => (fc) =>
    fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) / 1000 }).map((seconds) => DateTime.unsafeMake(seconds * 1000))
})

/**
 * A date in a `stats/*` response: a string whose format the spec does not show, kept as it comes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const StatsDate = Schema.String.annotations({ identifier: "StatsDate" })
