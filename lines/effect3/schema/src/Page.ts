/**
 * Pages of list operations.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import * as WireJsonSchema from "@community-api/core/WireJsonSchema"
import { Schema } from "effect"
import { WireInt } from "./Wire.js"

/**
 * The largest page the API returns; a larger `count` is replaced by it.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxCount = Wire.maxCount

/**
 * `count` when none is sent.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultCount = Wire.defaultCount

/**
 * `count`: at least 1 on the wire; decoding replaces a value above 500 by 500, as the server does.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Count: Schema.Schema<number, number | string> = Schema.transform(
  WireInt.pipe(Schema.greaterThanOrEqualTo(1, { message: () => Wire.pageMessages.count })),
  Schema.Int.pipe(Schema.between(1, maxCount)),
  { strict: true, decode: (n) => Math.min(n, maxCount), encode: (n) => n }
).annotations({
  identifier: "Count",
  jsonSchema: WireJsonSchema.count
})

/**
 * `offset`: records to skip, at least 0.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Offset: Schema.Schema<number, number | string> = WireInt.pipe(
  Schema.greaterThanOrEqualTo(0, { message: () => Wire.pageMessages.offset })
).annotations({ identifier: "Offset", jsonSchema: WireJsonSchema.offset })

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
 * A decoded page of a list operation: its items, and `total`, the count of every matching record on
 * all pages.
 *
 * @since 0.1.0
 * @category models
 */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
}
