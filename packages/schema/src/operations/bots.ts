/**
 * The `bots` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Bot, BotDetails } from "../Bot.js"
import { Channel } from "../Channel.js"
import { BotId, GroupId, Uid } from "../Ids.js"
import * as Operation from "../Operation.js"
import { Flag, Search } from "./common.js"

/**
 * `bots/*`: chat bots.
 *
 * @since 0.1.0
 * @category constants
 */
export const bots = Operation.section("bots", {
  get: Operation.list({
    fields: {
      group_id: Schema.optional(GroupId),
      channel: Schema.optional(Channel),
      active: Schema.optional(Flag),
      archived: Schema.optional(Flag),
      search: Schema.optional(Search)
    },
    item: Bot,
    errors: [7, 8],
    roleGroup: "mailer",
    rule: "E4",
    summary: "Lists the bots of one community, or of every community whose bots section is open to the caller."
  }),
  getById: Operation.make({
    payload: Schema.Struct({ bot_id: BotId }),
    success: BotDetails,
    errors: [7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    rule: "E5",
    summary: "Gets one bot with its details."
  }),
  enable: Operation.make({
    payload: Schema.Struct({ bot_id: BotId }),
    success: Bot,
    errors: [6, 7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    rule: "E6",
    summary: "Enables a bot (active 0 to 1) and returns it."
  }),
  disable: Operation.make({
    payload: Schema.Struct({ bot_id: BotId }),
    success: Bot,
    errors: [7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    rule: "E6",
    summary: "Disables a bot (active 1 to 0) and returns it."
  }),
  getSteps: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Steps of a bot (name assumed)."
  }),
  addUser: Operation.undocumented({
    roleGroup: "mailer",
    success: Schema.Void,
    safeToRepeat: false,
    summary: "Adds a subscriber to a bot.",
    assumed: {
      payload: Schema.Struct({ bot_id: BotId, uid: Uid }),
      reason: "A bot and a subscriber are named as bots/getById and lists/addUser name them."
    }
  }),
  removeUser: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Removes a subscriber from a bot (name assumed)."
  })
})
