/**
 * Parameter schemas several sections share.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Channel } from "../Channel.js"
import { GroupId } from "../Ids.js"
import { WireIntLiteral } from "../Wire.js"

/**
 * The pair that names a community, always sent together.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommunityRef = {
  group_id: GroupId,
  channel: Channel
}

/**
 * A community reference as code passes it.
 *
 * @since 0.1.0
 * @category models
 */
export type CommunityRef = Schema.Struct.Type<typeof CommunityRef>

/**
 * A 0/1 filter parameter.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Flag = WireIntLiteral(0, 1)

/**
 * A search parameter.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Search = Schema.String.annotations({ description: "part of the name, case-insensitive" })
