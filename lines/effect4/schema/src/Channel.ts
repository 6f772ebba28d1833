/**
 * The channels a community lives in, on the Effect 4 line.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import * as Primitives from "./internal/primitives.js"

/**
 * Every channel, in the contract's order.
 *
 * @since 0.1.0
 * @category constants
 */
export const values = Wire.channels

/**
 * A channel as the API answers it: upper case.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ChannelLiteral = Primitives.ChannelLiteral

/**
 * A channel on the wire, in any letter case; upper case once decoded.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Channel = Primitives.Channel

/**
 * A channel in upper case, as the API returns it and {@link Channel} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Channel = Wire.Channel

/**
 * Whether `value` is a channel in any letter case.
 *
 * @since 0.1.0
 * @category guards
 */
export const isChannel = Wire.isChannel
