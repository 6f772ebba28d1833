/**
 * The `Account` resources.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * `AccountCheck`, as `@community-api/schema/Account` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountCheck = Schema.Struct({
  user_id: Schema.Int,
  auth: Schema.String,
  client_id: Schema.String
}).annotate({ identifier: "AccountCheck" })

/**
 * The decoded `AccountCheck`.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountCheck = typeof AccountCheck.Type
