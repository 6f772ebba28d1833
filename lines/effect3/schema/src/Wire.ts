/**
 * Building blocks for parameters as they arrive on the wire. A JSON body carries numbers, but a
 * form body or the query string carries only strings, so integer parameters accept both.
 *
 * @since 0.1.0
 */
import * as CoreWire from "@community-api/core/Wire"
import * as WireJsonSchema from "@community-api/core/WireJsonSchema"
import { Schema } from "effect"

const IntFromString = Schema.NumberFromString.pipe(Schema.int()).annotations({ identifier: "IntFromString" })

/**
 * An integer, given as a JSON number or as a string of digits (from a form body or the query).
 * Encodes to a JSON number.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WireInt: Schema.Schema<number, number | string> = Schema.Union(
  Schema.Int,
  Schema.compose(Schema.String.pipe(Schema.pattern(CoreWire.intDigits)), IntFromString)
).annotations({ identifier: "Int", jsonSchema: WireJsonSchema.int })

/**
 * An integer parameter restricted to some literal values (for example `active`: 0 or 1).
 *
 * @since 0.1.0
 * @category schemas
 */
export const WireIntLiteral = <const Values extends ReadonlyArray<number>>(...values: Values) =>
  Schema.compose(WireInt, Schema.Literal(...values), { strict: false }).annotations({
    jsonSchema: WireJsonSchema.intLiteral(values)
  }) as unknown as Schema.Schema<Values[number], number | string>

/**
 * A non-empty string parameter of at most `max` characters.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BoundedText = (max: number) =>
  Schema.String.pipe(
    Schema.minLength(1, { message: () => CoreWire.boundedTextMessages.empty }),
    Schema.maxLength(max, { message: () => CoreWire.boundedTextMessages.tooLong(max) })
  )
