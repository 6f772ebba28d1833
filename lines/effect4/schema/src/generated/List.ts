/**
 * The `List` resources.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Primitives from "../internal/primitives.js"

/**
 * `List`, as `@community-api/schema/List` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const List = Schema.Struct({
  id: Primitives.ListId,
  name: Schema.String,
  create_at: Primitives.UnixSeconds
}).annotate({ identifier: "List" })

/**
 * The decoded `List`.
 *
 * @since 0.1.0
 * @category models
 */
export type List = typeof List.Type

/**
 * `ListMember`, as `@community-api/schema/List` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListMember = Schema.Struct({
  uid: Primitives.Uid
}).annotate({ identifier: "ListMember" })

/**
 * The decoded `ListMember`.
 *
 * @since 0.1.0
 * @category models
 */
export type ListMember = typeof ListMember.Type

/**
 * `ListName`, as `@community-api/schema/List` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListName = Primitives.ListName

/**
 * The decoded `ListName`.
 *
 * @since 0.1.0
 * @category models
 */
export type ListName = typeof ListName.Type
