/**
 * A list operation's page on the Effect 4 line: `count` and `offset`, and `{items, total}`.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import { Schema } from "effect"
import * as Primitives from "./internal/primitives.js"

/**
 * The most records a page holds.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxCount = Wire.maxCount

/**
 * The records a page holds when `count` is not given.
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
export const Count = Primitives.Count

/**
 * `offset`: records to skip, at least 0.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Offset = Primitives.Offset

/**
 * The parameters every list operation takes: `count` and `offset`, both optional.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PageParams = {
  count: Schema.optional(Primitives.Count),
  offset: Schema.optional(Primitives.Offset)
}

/**
 * A page of `item`: the records and how many there are in all.
 *
 * @since 0.1.0
 * @category constructors
 */
export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({ items: Schema.Array(item), total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) })

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
