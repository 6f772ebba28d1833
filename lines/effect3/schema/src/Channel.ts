/**
 * The channels a community can live in.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import * as WireJsonSchema from "@community-api/core/WireJsonSchema"
import { Schema } from "effect"

/**
 * Every channel value, in the spec's order.
 *
 * @since 0.1.0
 * @category constants
 */
export const values = Wire.channels

/**
 * A channel as the API returns it: upper case.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChannelLiteral = Schema.Literal(...values).annotations({
  identifier: "ChannelLiteral",
  description: Wire.channelDescription
})

/**
 * A channel on the wire. Decoding accepts lower-case letters and yields upper case;
 * encoding writes upper case.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Channel: Schema.Schema<Channel, string> = Schema.transform(Schema.String, ChannelLiteral, {
  // One step from the wire string to the literal: composing with `Schema.Uppercase` cost a second
  // transformation and a refinement per value. The literal check after it still refuses anything
  // that is not a channel, with the same message.
  strict: false,
  decode: (wire) => wire.toUpperCase(),
  encode: (channel) => channel
}).annotations({
  identifier: "Channel",
  // The wire form: any letter case of a channel value (derived JSON Schema would only say "a string").
  jsonSchema: WireJsonSchema.channel
})

/**
 * A channel in upper case, as the API returns it and {@link Channel} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Channel = Wire.Channel

/**
 * Tells whether a string names a channel, in any letter case.
 *
 * @since 0.1.0
 * @category guards
 */
export const isChannel = Wire.isChannel
