/**
 * The `funnels` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Operation from "../Operation.js"

/**
 * `funnels/*`: funnels and their step statistics.
 *
 * @since 0.1.0
 * @category constants
 */
export const funnels = Operation.section("funnels", {
  get: Operation.undocumented({
    roleGroup: "any",
    safeToRepeat: true,
    summary: "Lists funnels (name assumed)."
  }),
  getById: Operation.undocumented({
    roleGroup: "any",
    safeToRepeat: true,
    summary: "One funnel with step statistics (name assumed)."
  })
})
