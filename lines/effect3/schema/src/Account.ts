/**
 * The account check.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * The result of `users/me`. The allowed values of `auth` and `client_id` are not shown.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountCheck = Schema.Struct({
  user_id: Schema.Int,
  auth: Schema.String,
  client_id: Schema.String
}).annotations({ identifier: "AccountCheck" })

/**
 * The type {@link AccountCheck} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountCheck = typeof AccountCheck.Type
