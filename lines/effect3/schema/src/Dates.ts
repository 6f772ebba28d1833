/**
 * Dates on the wire: requests carry `dd.mm.yyyy hh:ii` in Moscow time, responses carry unix
 * seconds, and `stats/*` responses carry strings.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import * as WireJsonSchema from "@community-api/core/WireJsonSchema"
import { DateTime, Either, ParseResult, Schema } from "effect"

/**
 * Moscow's offset from UTC. Moscow has kept UTC+3 all year since 2014, so a fixed offset is exact.
 *
 * @since 0.1.0
 * @category constants
 */
export const moscowOffsetMillis = Wire.moscowOffsetMillis

/**
 * Parses `dd.mm.yyyy hh:ii` (Moscow time) into a UTC instant, or tells what is wrong.
 *
 * @since 0.1.0
 * @category decoding
 */
export const parseRequestDate = (text: string): Either.Either<DateTime.Utc, string> => {
  const parsed = Wire.parseRequestDate(text)
  return parsed._tag === "Date" ? Either.right(DateTime.unsafeMake(parsed.millis)) : Either.left(parsed.message)
}

/**
 * Formats a UTC instant as `dd.mm.yyyy hh:ii` in Moscow time (seconds are dropped).
 *
 * @since 0.1.0
 * @category encoding
 */
export const formatRequestDate = (date: DateTime.DateTime): string =>
  Wire.formatRequestDate(DateTime.toEpochMillis(date))

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
  description: Wire.requestDateDescription,
  // The wire carries whole minutes of four-digit years, so only such instants survive a round trip.
  arbitrary: () => (fc) =>
    fc.integer({ min: Date.UTC(1970, 0, 1) / 60_000, max: Date.UTC(2100, 0, 1) / 60_000 }).map((minutes) =>
      DateTime.unsafeMake(minutes * 60_000)
    ),
  jsonSchema: WireJsonSchema.requestDate
})

/** The range of a JavaScript date, in milliseconds either side of the epoch. */

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
      const refused = Wire.unixSecondsRefusal(seconds)
      return refused === undefined
        ? ParseResult.succeed(DateTime.unsafeMake(seconds * 1000))
        : ParseResult.fail(new ParseResult.Type(ast, seconds, refused))
    },
    encode: (date) => ParseResult.succeed(Math.floor(DateTime.toEpochMillis(date) / 1000))
  }
).annotations({
  identifier: "UnixSeconds",
  description: Wire.unixSecondsDescription,
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
