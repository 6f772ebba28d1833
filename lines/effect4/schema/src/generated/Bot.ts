/**
 * The `Bot` resources.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Primitives from "../internal/primitives.js"

/**
 * `Flag`, as `@community-api/schema/Bot` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Flag = Schema.Literals([0, 1])

/**
 * The decoded `Flag`.
 *
 * @since 0.1.0
 * @category models
 */
export type Flag = typeof Flag.Type

/**
 * `Bot`, as `@community-api/schema/Bot` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Bot = Schema.Struct({
  id: Primitives.BotId,
  name: Schema.String,
  group_id: Primitives.GroupId,
  channel: Primitives.Channel,
  active: Flag,
  archived: Flag,
  activity_type: Schema.String,
  create_at: Primitives.UnixSeconds
}).annotate({ identifier: "Bot" })

/**
 * The decoded `Bot`.
 *
 * @since 0.1.0
 * @category models
 */
export type Bot = typeof Bot.Type

/**
 * `BotDetails`, as `@community-api/schema/Bot` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BotDetails = Schema.Struct({
  id: Primitives.BotId,
  name: Schema.String,
  group_id: Primitives.GroupId,
  channel: Primitives.Channel,
  active: Flag,
  archived: Flag,
  activity_type: Schema.String,
  create_at: Primitives.UnixSeconds,
  public_id: Schema.Unknown,
  can_share: Schema.Boolean,
  is_favorite: Schema.Boolean,
  time_archived: Schema.Int,
  activity_param: Schema.Unknown,
  subscription_ids: Schema.Array(Schema.Unknown)
}).annotate({ identifier: "BotDetails" })

/**
 * The decoded `BotDetails`.
 *
 * @since 0.1.0
 * @category models
 */
export type BotDetails = typeof BotDetails.Type

/**
 * `SubscriberStep`, as `@community-api/schema/Bot` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriberStep = Schema.Struct({
  id: Primitives.StepId,
  title: Schema.String,
  step_entered_at: Primitives.UnixSeconds,
  bot_entered_at: Primitives.UnixSeconds
}).annotate({ identifier: "SubscriberStep" })

/**
 * The decoded `SubscriberStep`.
 *
 * @since 0.1.0
 * @category models
 */
export type SubscriberStep = typeof SubscriberStep.Type

/**
 * `SubscriberBot`, as `@community-api/schema/Bot` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriberBot = Schema.Struct({
  id: Primitives.BotId,
  name: Schema.String,
  steps: Schema.Array(SubscriberStep)
}).annotate({ identifier: "SubscriberBot" })

/**
 * The decoded `SubscriberBot`.
 *
 * @since 0.1.0
 * @category models
 */
export type SubscriberBot = typeof SubscriberBot.Type
