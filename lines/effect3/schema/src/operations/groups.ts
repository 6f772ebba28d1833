/**
 * The `groups` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import { Channel } from "../Channel.js"
import { Community, Employee } from "../Community.js"
import * as Operation from "../Operation.js"
import { CommunityRef, Search } from "./common.js"

/**
 * `groups/*`: communities and their employees.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const groups = Operation.withSchemas(Core.groups, {
  get: { fields: { channel: Schema.optional(Channel), search: Schema.optional(Search) }, item: Community },
  getEmployees: { fields: CommunityRef, item: Employee }
})
