/**
 * The `stats` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Operation from "../Operation.js"

/**
 * `stats/*`: statistics; dates in their responses are strings.
 *
 * @since 0.1.0
 * @category constants
 */
export const stats = Operation.section("stats", {
  getMailingsStats: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Statistics of mailings."
  }),
  getMailingStats: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Statistics of one mailing."
  }),
  getLandingsStats: Operation.undocumented({
    roleGroup: "stat",
    safeToRepeat: true,
    summary: "Statistics of landings."
  }),
  getLandingStats: Operation.undocumented({
    roleGroup: "stat",
    safeToRepeat: true,
    summary: "Statistics of one landing."
  }),
  getAdsSubscribes: Operation.undocumented({
    roleGroup: "stat",
    safeToRepeat: true,
    summary: "Subscriptions from ads, over communities whose statistics section is open to the caller."
  })
})
