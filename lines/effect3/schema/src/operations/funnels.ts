/**
 * The `funnels` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import * as Operation from "../Operation.js"

/**
 * `funnels/*`: funnels and their step statistics.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const funnels = Operation.withSchemas(Core.funnels, {
  get: {},
  getById: {}
})
