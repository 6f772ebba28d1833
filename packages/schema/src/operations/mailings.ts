/**
 * The `mailings` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { MailingId } from "../Ids.js"
import { Mailing, MailingStatusParam } from "../Mailing.js"
import * as Operation from "../Operation.js"
import { CommunityRef } from "./common.js"

/**
 * `mailings/*`: broadcasts.
 *
 * @since 0.1.0
 * @category constants
 */
export const mailings = Operation.section("mailings", {
  get: Operation.list({
    fields: { ...CommunityRef, status: Schema.optional(MailingStatusParam) },
    item: Mailing,
    errors: [7, 8],
    roleGroup: "mailer",
    rule: "E7",
    summary: "Lists the mailings of a community, optionally of one status."
  }),
  getById: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "One mailing by id (name assumed).",
    assumed: {
      payload: Schema.Struct({ mailing_id: MailingId }),
      success: Mailing,
      reason: "Named by its id as bots/getById names a bot; answers the mailing as mailings/get lists it."
    }
  })
})
