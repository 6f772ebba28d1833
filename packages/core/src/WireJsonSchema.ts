/**
 * The JSON Schema of the wire's primitives whose schema cannot say what the wire carries by its own
 * shape: an integer that may come as digits, a channel in any letter case, a request's date, a page's
 * `count` and `offset`. Each Effect line puts these on its twin of the primitive, so that the JSON
 * Schema both derive (the OpenAPI document, the MCP tools' inputs) is the same.
 *
 * @since 0.1.0
 */
import * as Wire from "./Wire.js"

/**
 * An integer of the wire: a JSON number, or a string of digits in a form body or the query.
 *
 * @since 0.1.0
 * @category constants
 */
export const int = { type: "integer" } as const

/**
 * An integer of the wire that must be one of `values`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const intLiteral = <const Values extends ReadonlyArray<number>>(values: Values) =>
  ({ type: "integer", enum: values }) as const

/**
 * A channel on the wire: any letter case of a channel value (its decoded schema would only say "a
 * string").
 *
 * @since 0.1.0
 * @category constants
 */
export const channel = {
  type: "string",
  pattern: Wire.channelPattern,
  description: `one of ${Wire.channels.join(", ")}; lower-case letters are accepted`,
  examples: [...Wire.channels]
} as const

/**
 * A request's date on the wire, `dd.mm.yyyy hh:ii`.
 *
 * @since 0.1.0
 * @category constants
 */
export const requestDate = { type: "string", pattern: Wire.requestDatePattern.source } as const

/**
 * A page's `count`: the decoded range, with its default.
 *
 * @since 0.1.0
 * @category constants
 */
export const count = { type: "integer", minimum: 1, maximum: Wire.maxCount, default: Wire.defaultCount } as const

/**
 * A page's `offset`, with its default.
 *
 * @since 0.1.0
 * @category constants
 */
export const offset = { type: "integer", minimum: 0, default: 0 } as const
