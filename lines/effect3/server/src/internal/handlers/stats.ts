/**
 * `stats/*`: listed by E17 without details, not modelled (so no string dates are ever sent, C11).
 *
 * @internal
 */
import type { SectionHandlers } from "../handler.js"
import { notModelled } from "../handler.js"

export const stats: SectionHandlers<"stats"> = {
  getMailingsStats: notModelled,
  getMailingStats: notModelled,
  getLandingsStats: notModelled,
  getLandingStats: notModelled,
  getAdsSubscribes: notModelled
}
