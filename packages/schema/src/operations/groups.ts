/**
 * The `groups` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Channel } from "../Channel.js"
import { Community, Employee } from "../Community.js"
import * as Operation from "../Operation.js"
import { CommunityRef, Search } from "./common.js"

/**
 * `groups/*`: communities and their employees.
 *
 * @since 0.1.0
 * @category constants
 */
export const groups = Operation.section("groups", {
  get: Operation.list({
    fields: { channel: Schema.optional(Channel), search: Schema.optional(Search) },
    item: Community,
    errors: [7],
    roleGroup: "none",
    rule: "E2",
    summary: "Lists the caller's own communities and those where the caller is an employee, newest connected first."
  }),
  getEmployees: Operation.list({
    fields: CommunityRef,
    item: Employee,
    errors: [7, 8],
    roleGroup: "admin",
    rule: "E3",
    summary: "Lists the employees of a community and their roles, newest added first; the owner is not listed."
  })
})
