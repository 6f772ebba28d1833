/**
 * The ids of the wire on the Effect 4 line: a community's and a subscriber's numbers, and the
 * service's own 24-character ids, each branded.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import * as Primitives from "./internal/primitives.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const GroupId = Primitives.GroupId

/**
 * @since 0.1.0
 * @category models
 */
export type GroupId = typeof GroupId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const Uid = Primitives.Uid

/**
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
 * @since 0.1.0
 * @category schemas
 */
export const ObjectId = Primitives.ObjectId

/**
 * @since 0.1.0
 * @category schemas
 */
export const BotId = Primitives.BotId

/**
 * @since 0.1.0
 * @category models
 */
export type BotId = typeof BotId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const ListId = Primitives.ListId

/**
 * @since 0.1.0
 * @category models
 */
export type ListId = typeof ListId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const VariableId = Primitives.VariableId

/**
 * @since 0.1.0
 * @category models
 */
export type VariableId = typeof VariableId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const CommunityVariableId = Primitives.CommunityVariableId

/**
 * @since 0.1.0
 * @category models
 */
export type CommunityVariableId = typeof CommunityVariableId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const MailingId = Primitives.MailingId

/**
 * @since 0.1.0
 * @category models
 */
export type MailingId = typeof MailingId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const LandingId = Primitives.LandingId

/**
 * @since 0.1.0
 * @category models
 */
export type LandingId = typeof LandingId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const StepId = Primitives.StepId

/**
 * @since 0.1.0
 * @category models
 */
export type StepId = typeof StepId.Type
