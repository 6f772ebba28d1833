/**
 * The `landings` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Landing } from "../Landing.js"
import * as Operation from "../Operation.js"
import { CommunityRef } from "./common.js"

/**
 * `landings/*`: mini-landings and multichannel landings.
 *
 * @since 0.1.0
 * @category constants
 */
export const landings = Operation.section("landings", {
  get: Operation.list({
    fields: CommunityRef,
    item: Landing,
    errors: [7, 8],
    roleGroup: "any",
    rule: "E16",
    summary: "Lists the landings of a community."
  })
})
