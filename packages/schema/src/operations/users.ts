/**
 * The `users` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { AccountCheck } from "../Account.js"
import * as Operation from "../Operation.js"

/**
 * `users/*`: the account check.
 *
 * @since 0.1.0
 * @category constants
 */
export const users = Operation.section("users", {
  me: Operation.make({
    payload: Schema.Struct({}),
    success: AccountCheck,
    errors: [],
    roleGroup: "none",
    safeToRepeat: true,
    rule: "E1",
    summary: "Checks the token and tells whose it is."
  })
})
