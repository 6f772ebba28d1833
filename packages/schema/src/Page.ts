/**
 * Pages of list operations.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { WireInt } from "./Wire.js"

/**
 * The largest page the API returns; a larger `count` is replaced by it.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxCount = 500

/**
 * `count` when none is sent.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultCount = 100

/**
 * `count`: at least 1 on the wire; decoding replaces a value above 500 by 500, as the server does.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Count: Schema.Schema<number, number | string> = Schema.transform(
  WireInt.pipe(Schema.greaterThanOrEqualTo(1, { message: () => "count is at least 1" })),
  Schema.Int.pipe(Schema.between(1, maxCount)),
  { strict: true, decode: (n) => Math.min(n, maxCount), encode: (n) => n }
).annotations({ identifier: "Count", jsonSchema: { type: "integer", minimum: 1, maximum: maxCount, default: 100 } })

/**
 * `offset`: records to skip, at least 0.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Offset: Schema.Schema<number, number | string> = WireInt.pipe(
  Schema.greaterThanOrEqualTo(0, { message: () => "offset is at least 0" })
).annotations({ identifier: "Offset", jsonSchema: { type: "integer", minimum: 0, default: 0 } })

/**
 * The optional page parameters every list operation takes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PageParams = {
  count: Schema.optional(Count),
  offset: Schema.optional(Offset)
}

/**
 * A page of a list operation: `total` counts every matching record on all pages.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Page = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({
    items: Schema.Array(item),
    total: Schema.Int.pipe(Schema.nonNegative())
  })

/**
 * @since 0.1.0
 * @category models
 */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
}
