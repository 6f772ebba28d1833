/**
 * The ids of the wire on the Effect 4 line: a community's and a subscriber's numbers, and the
 * service's own 24-character ids, each branded.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import * as Primitives from "./internal/primitives.js"

/**
 * A community's number in its channel. Sent together with `channel`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const GroupId = Primitives.GroupId

/**
 * The type {@link GroupId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type GroupId = typeof GroupId.Type

/**
 * A subscriber's number in the network or messenger.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Uid = Primitives.Uid

/**
 * The type {@link Uid} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Uid = typeof Uid.Type

/**
 * 24 characters of 0-9 and a-f.
 *
 * @since 0.1.0
 * @category constants
 */
export const ObjectIdPattern = Wire.objectIdPattern

/**
 * An object id of no particular kind.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ObjectId = Primitives.ObjectId

/**
 * A bot's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BotId = Primitives.BotId

/**
 * The type {@link BotId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type BotId = typeof BotId.Type

/**
 * A list's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListId = Primitives.ListId

/**
 * The type {@link ListId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type ListId = typeof ListId.Type

/**
 * A custom variable's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableId = Primitives.VariableId

/**
 * The type {@link VariableId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type VariableId = typeof VariableId.Type

/**
 * A community variable's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommunityVariableId = Primitives.CommunityVariableId

/**
 * The type {@link CommunityVariableId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type CommunityVariableId = typeof CommunityVariableId.Type

/**
 * A mailing's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MailingId = Primitives.MailingId

/**
 * The type {@link MailingId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type MailingId = typeof MailingId.Type

/**
 * A landing's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LandingId = Primitives.LandingId

/**
 * The type {@link LandingId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type LandingId = typeof LandingId.Type

/**
 * The id of a bot's step.
 *
 * @since 0.1.0
 * @category schemas
 */
export const StepId = Primitives.StepId

/**
 * The type {@link StepId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type StepId = typeof StepId.Type
