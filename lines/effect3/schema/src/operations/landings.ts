/**
 * The `landings` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Landing } from "../Landing.js"
import * as Operation from "../Operation.js"
import { CommunityRef } from "./common.js"

/**
 * `landings/*`: mini-landings and multichannel landings.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const landings = Operation.withSchemas(Core.landings, {
  get: { fields: CommunityRef, item: Landing }
})
