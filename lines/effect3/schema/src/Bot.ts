/**
 * Bots.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Channel } from "./Channel.js"
import { UnixSeconds } from "./Dates.js"
import { BotId, GroupId, StepId } from "./Ids.js"

/**
 * `0` or `1`, as bots carry `active` and `archived`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Flag = Schema.Literal(0, 1)

/**
 * A bot: an item of `bots/get`, the result of `bots/enable` and `bots/disable`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Bot = Schema.Struct({
  id: BotId,
  name: Schema.String,
  group_id: GroupId,
  channel: Channel,
  active: Flag,
  archived: Flag,
  activity_type: Schema.String,
  create_at: UnixSeconds
}).annotations({ identifier: "Bot" })

/**
 * The type {@link Bot} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Bot = typeof Bot.Type

/**
 * A bot as `bots/getById` returns it: every field of {@link Bot} and more. The types of
 * `public_id`, `activity_param` and the subscription ids are not shown, so they stay `unknown`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BotDetails = Schema.Struct({
  ...Bot.fields,
  public_id: Schema.Unknown,
  can_share: Schema.Boolean,
  is_favorite: Schema.Boolean,
  time_archived: Schema.Int,
  activity_param: Schema.Unknown,
  subscription_ids: Schema.Array(Schema.Unknown)
}).annotations({ identifier: "BotDetails" })

/**
 * The type {@link BotDetails} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type BotDetails = typeof BotDetails.Type

/**
 * A step where a subscriber currently stays.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriberStep = Schema.Struct({
  id: StepId,
  title: Schema.String,
  step_entered_at: UnixSeconds,
  bot_entered_at: UnixSeconds
}).annotations({ identifier: "SubscriberStep" })

/**
 * The type {@link SubscriberStep} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type SubscriberStep = typeof SubscriberStep.Type

/**
 * A bot that currently works with a subscriber: an item of `contacts/getBots`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriberBot = Schema.Struct({
  id: BotId,
  name: Schema.String,
  steps: Schema.Array(SubscriberStep)
}).annotations({ identifier: "SubscriberBot" })

/**
 * The type {@link SubscriberBot} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type SubscriberBot = typeof SubscriberBot.Type
