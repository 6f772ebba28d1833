/**
 * The `contacts` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { SubscriberBot } from "../Bot.js"
import { Uid } from "../Ids.js"
import * as Operation from "../Operation.js"
import { CommunityRef } from "./common.js"

/**
 * `contacts/*`: subscribers.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const contacts = Operation.withSchemas(Core.contacts, {
  getBots: { fields: { ...CommunityRef, uid: Uid }, item: SubscriberBot },
  getById: {},
  getVars: {},
  getLists: {}
})
