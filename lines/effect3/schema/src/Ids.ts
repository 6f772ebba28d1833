/**
 * Identifiers: numbers of communities and subscribers, and 24-character object ids branded per kind
 * so that one kind cannot be passed where another is wanted.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import { Schema } from "effect"
import { WireInt } from "./Wire.js"

/**
 * A community's number in its channel. Sent together with `channel`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const GroupId = WireInt.pipe(Schema.brand("GroupId")).annotations({ identifier: "GroupId" })

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
export const Uid = WireInt.pipe(Schema.brand("Uid")).annotations({ identifier: "Uid" })

/**
 * The type {@link Uid} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Uid = typeof Uid.Type

/**
 * The shape every object id has: exactly 24 characters of `0-9a-f`.
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
export const ObjectId = Schema.String.pipe(
  Schema.pattern(ObjectIdPattern, { message: () => Wire.objectIdMessage })
).annotations({ identifier: "ObjectId" })

const objectId = <const Brand extends string>(brand: Brand) =>
  ObjectId.pipe(Schema.brand(brand)).annotations({ identifier: brand })

/**
 * A bot's id.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BotId = objectId("BotId")
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
export const ListId = objectId("ListId")
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
export const VariableId = objectId("VariableId")
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
export const CommunityVariableId = objectId("CommunityVariableId")
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
export const MailingId = objectId("MailingId")
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
export const LandingId = objectId("LandingId")
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
export const StepId = objectId("StepId")
/**
 * The type {@link StepId} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type StepId = typeof StepId.Type
