/**
 * The integers of the wire on the Effect 4 line: a JSON number or a string of digits.
 *
 * @since 0.1.0
 */
import * as CoreWire from "@community-api/core/Wire"
import { Schema } from "effect"
import * as Primitives from "./internal/primitives.js"

/**
 * An integer, given as a JSON number or as a string of digits (from a form body or the query).
 * Encodes to a JSON number.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WireInt = Primitives.WireInt

/**
 * An integer parameter restricted to some literal values (for example `active`: 0 or 1).
 *
 * @since 0.1.0
 * @category constructors
 */
export const WireIntLiteral = Primitives.WireIntLiteral

/**
 * A text of 1 to `max` characters.
 *
 * @since 0.1.0
 * @category constructors
 */
export const BoundedText = (max: number) =>
  Schema.String.check(
    Schema.isMinLength(1, { message: CoreWire.boundedTextMessages.empty }),
    Schema.isMaxLength(max, { message: CoreWire.boundedTextMessages.tooLong(max) })
  )
