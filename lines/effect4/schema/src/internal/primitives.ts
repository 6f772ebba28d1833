/**
 * The wire's primitives on the Effect 4 line: what the contract's resources and operations are made
 * of, each the twin of the Effect 3 line's schema of the same name, over the same rules of the core
 * (`@community-api/core/Wire`). The declarations themselves (resources, operations, errors) are
 * generated from the Effect 3 line; these few are code in both lines, and the shared wire vectors
 * prove each pair decodes and encodes the same.
 */
import * as Wire from "@community-api/core/Wire"
import * as WireJsonSchema from "@community-api/core/WireJsonSchema"
import { DateTime, Schema, SchemaGetter } from "effect"
import * as JsonSchema from "./jsonSchema.js"

// -- integers of the wire ----------------------------------------------------------------------

const IntFromString = Schema.String.check(Schema.isPattern(Wire.intDigits)).pipe(
  Schema.decodeTo(Schema.Int, {
    decode: SchemaGetter.transform((text: string) => Number(text)),
    encode: SchemaGetter.transform((n: number) => String(n))
  })
)

/** An integer, as a JSON number or a string of digits (a form body or the query carries strings). */
export const WireInt: Schema.Codec<number, number | string> = Schema.Union([Schema.Int, IntFromString]).annotate({
  identifier: "Int",
  [JsonSchema.override]: WireJsonSchema.int
})

/** An integer of the wire that must be one of `values`. */
export const WireIntLiteral = <const Values extends ReadonlyArray<number>>(...values: Values) =>
  WireInt.pipe(
    Schema.decodeTo(Schema.Literals(values), {
      decode: SchemaGetter.passthroughSupertype<Values[number], number>(),
      encode: SchemaGetter.passthroughSubtype<number, Values[number]>()
    })
  ).annotate({
    // The wire's integer, of these values (the decoded literals alone would not say a string of digits).
    [JsonSchema.override]: WireJsonSchema.intLiteral(values)
  }) as unknown as Schema.Codec<Values[number], number | string>

// -- ids -----------------------------------------------------------------------------------------

/** A community's number in its network. */
export const GroupId = WireInt.pipe(Schema.brand("GroupId")).annotate({ identifier: "GroupId" })

/** A subscriber's number in the community's network. */
export const Uid = WireInt.pipe(Schema.brand("Uid")).annotate({ identifier: "Uid" })

/** The service's own id of a record: 24 characters of 0-9 and a-f. */
export const ObjectId = Schema.String.check(
  Schema.isPattern(Wire.objectIdPattern, { message: Wire.objectIdMessage })
).annotate({ identifier: "ObjectId" })

const objectId = <const Brand extends string>(brand: Brand) =>
  ObjectId.pipe(Schema.brand<Brand>(brand as never)).annotate({ identifier: brand })

/** A bot's id. */
export const BotId = objectId("BotId")
/** A list's id. */
export const ListId = objectId("ListId")
/** A custom variable's id. */
export const VariableId = objectId("VariableId")
/** A community variable's id. */
export const CommunityVariableId = objectId("CommunityVariableId")
/** A mailing's id. */
export const MailingId = objectId("MailingId")
/** A landing's id. */
export const LandingId = objectId("LandingId")
/** A step's id. */
export const StepId = objectId("StepId")

// -- channels ------------------------------------------------------------------------------------

/** A channel as the API answers it: upper case. */
export const ChannelLiteral = Schema.Literals(Wire.channels).annotate({
  identifier: "ChannelLiteral",
  description: Wire.channelDescription
})

/** A channel on the wire, in any letter case; upper case once decoded. */
export const Channel: Schema.Codec<Wire.Channel, string> = Schema.String.pipe(
  Schema.decodeTo(ChannelLiteral, {
    decode: SchemaGetter.transform((wire: string) => wire.toUpperCase() as Wire.Channel),
    encode: SchemaGetter.transform((channel: Wire.Channel): string => channel)
  })
).annotate({
  identifier: "Channel",
  // The wire form: any letter case of a channel value (the encoded side alone would only say "a string").
  [JsonSchema.override]: WireJsonSchema.channel
}) as unknown as Schema.Codec<Wire.Channel, string>

// -- dates ---------------------------------------------------------------------------------------

/** A request's date, `dd.mm.yyyy hh:ii` in Moscow time. */
export const RequestDate: Schema.Codec<DateTime.Utc, string> = Schema.String.check(
  Schema.makeFilter((text: string) => {
    const parsed = Wire.parseRequestDate(text)
    return parsed._tag === "Refused" ? parsed.message : undefined
  })
).pipe(
  Schema.decodeTo(Schema.DateTimeUtc, {
    decode: SchemaGetter.transform((text: string) => {
      const parsed = Wire.parseRequestDate(text)
      return DateTime.makeUnsafe(parsed._tag === "Date" ? parsed.millis : Number.NaN)
    }),
    encode: SchemaGetter.transform((date: DateTime.Utc) => Wire.formatRequestDate(DateTime.toEpochMillis(date)))
  })
).annotate({
  identifier: "RequestDate",
  description: Wire.requestDateDescription,
  [JsonSchema.override]: WireJsonSchema.requestDate
})

/** A date the API answers: unix time in seconds. */
export const UnixSeconds: Schema.Codec<DateTime.Utc, number> = Schema.Int.check(
  Schema.makeFilter((seconds: number) => Wire.unixSecondsRefusal(seconds))
).pipe(
  Schema.decodeTo(Schema.DateTimeUtc, {
    decode: SchemaGetter.transform((seconds: number) => DateTime.makeUnsafe(seconds * 1000)),
    encode: SchemaGetter.transform((date: DateTime.Utc) => Math.floor(DateTime.toEpochMillis(date) / 1000))
  })
).annotate({ identifier: "UnixSeconds", description: Wire.unixSecondsDescription })

/** A day of the statistics, as the API writes it. */
export const StatsDate = Schema.String.annotate({ identifier: "StatsDate" })

// -- pages ---------------------------------------------------------------------------------------

/** How many records a page holds: 1 or more; above the most, the most, as the server answers. */
export const Count: Schema.Codec<number, number | string> = WireInt.check(
  Schema.isGreaterThanOrEqualTo(1, { message: Wire.pageMessages.count })
).pipe(
  Schema.decodeTo(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Wire.maxCount })), {
    decode: SchemaGetter.transform((n: number) => Math.min(n, Wire.maxCount)),
    encode: SchemaGetter.transform((n: number) => n)
  })
).annotate({ identifier: "Count", [JsonSchema.override]: WireJsonSchema.count })

/** Where a page starts: 0 or more. */
export const Offset: Schema.Codec<number, number | string> = WireInt.check(
  Schema.isGreaterThanOrEqualTo(0, { message: Wire.pageMessages.offset })
).annotate({ identifier: "Offset", [JsonSchema.override]: WireJsonSchema.offset })

// -- names ---------------------------------------------------------------------------------------

/** A variable's display title: 1 to 120 characters. */
export const VariableTitle = Schema.String.check(
  Schema.isMinLength(1, { message: Wire.textMessages.empty("title") }),
  Schema.isMaxLength(Wire.maxTextLength, { message: Wire.textMessages.tooLong("title", Wire.maxTextLength) })
).annotate({ identifier: "VariableTitle" })

/** A variable's short name: 1 to 120 characters, none of the forbidden characters and no `_NAME`. */
export const VariableName = Schema.String.check(
  Schema.isMinLength(1, { message: Wire.textMessages.empty("name") }),
  Schema.isMaxLength(Wire.maxTextLength, { message: Wire.textMessages.tooLong("name", Wire.maxTextLength) }),
  Schema.makeFilter((name: string) => {
    const found = Wire.forbiddenInName(name)
    return found === undefined ? undefined : Wire.textMessages.forbidden("name", found)
  }, { [JsonSchema.override]: Wire.nameJsonSchema })
).annotate({ identifier: "VariableName" })

/** A list's name: a title's rules. */
export const ListName = VariableTitle.annotate({ identifier: "ListName" })

// -- undocumented operations ---------------------------------------------------------------------

/** The parameters of an operation the API lists without showing them: any names, any values. */
export const UnknownPayload = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: "UnknownPayload",
  description: Wire.unknownPayloadDescription
})
