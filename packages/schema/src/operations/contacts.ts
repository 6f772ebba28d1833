/**
 * The `contacts` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { SubscriberBot } from "../Bot.js"
import { Uid } from "../Ids.js"
import * as Operation from "../Operation.js"
import { CommunityRef } from "./common.js"

/**
 * `contacts/*`: subscribers.
 *
 * @since 0.1.0
 * @category constants
 */
export const contacts = Operation.section("contacts", {
  getBots: Operation.list({
    fields: { ...CommunityRef, uid: Uid },
    item: SubscriberBot,
    errors: [7, 8],
    roleGroup: "users",
    rule: "E9",
    summary: "Lists the bots of the community that currently work with a subscriber."
  }),
  getById: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Subscriber card (name assumed)."
  }),
  getVars: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Variables of a subscriber (name assumed)."
  }),
  getLists: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Lists of a subscriber (name assumed)."
  })
})
