/**
 * The `bots` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import { Bot, BotDetails } from "../Bot.js"
import { Channel } from "../Channel.js"
import { BotId, GroupId, Uid } from "../Ids.js"
import * as Operation from "../Operation.js"
import { Flag, Search } from "./common.js"

/**
 * `bots/*`: chat bots.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const bots = Operation.withSchemas(Core.bots, {
  get: {
    fields: {
      group_id: Schema.optional(GroupId),
      channel: Schema.optional(Channel),
      active: Schema.optional(Flag),
      archived: Schema.optional(Flag),
      search: Schema.optional(Search)
    },
    item: Bot
  },
  getById: { payload: Schema.Struct({ bot_id: BotId }), success: BotDetails },
  enable: { payload: Schema.Struct({ bot_id: BotId }), success: Bot },
  disable: { payload: Schema.Struct({ bot_id: BotId }), success: Bot },
  getSteps: {},
  addUser: {
    success: Schema.Void,
    assumed: {
      payload: Schema.Struct({ bot_id: BotId, uid: Uid }),
      reason: "A bot and a subscriber are named as bots/getById and lists/addUser name them."
    }
  },
  removeUser: {}
})
