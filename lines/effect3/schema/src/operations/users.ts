/**
 * The `users` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import { AccountCheck } from "../Account.js"
import * as Operation from "../Operation.js"

/**
 * `users/*`: the account check.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const users = Operation.withSchemas(Core.users, {
  me: { payload: Schema.Struct({}), success: AccountCheck }
})
