/**
 * The dates of the wire on the Effect 4 line: a request's `dd.mm.yyyy hh:ii` in Moscow time, and unix
 * seconds in answers.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import { DateTime, Result } from "effect"
import * as Primitives from "./internal/primitives.js"

/**
 * Moscow's offset from UTC, in which request dates are written.
 *
 * @since 0.1.0
 * @category constants
 */
export const moscowOffsetMillis = Wire.moscowOffsetMillis

/**
 * A request's date (`dd.mm.yyyy hh:ii`, Moscow time), or why it is not one.
 *
 * @since 0.1.0
 * @category decoding
 */
export const parseRequestDate = (text: string): Result.Result<DateTime.Utc, string> => {
  const parsed = Wire.parseRequestDate(text)
  return parsed._tag === "Date" ? Result.succeed(DateTime.makeUnsafe(parsed.millis)) : Result.fail(parsed.message)
}

/**
 * A date as a request writes it, in whole minutes of Moscow time.
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
export const RequestDate = Primitives.RequestDate

/**
 * A response date: unix time in whole seconds on the wire, a `DateTime.Utc` in code.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UnixSeconds = Primitives.UnixSeconds

/**
 * A date in a `stats/*` response: a string whose format the spec does not show, kept as it comes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const StatsDate = Primitives.StatsDate
