/**
 * The `mailings` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import { MailingId } from "../Ids.js"
import { Mailing, MailingStatusParam } from "../Mailing.js"
import * as Operation from "../Operation.js"
import { CommunityRef } from "./common.js"

/**
 * `mailings/*`: broadcasts.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const mailings = Operation.withSchemas(Core.mailings, {
  get: { fields: { ...CommunityRef, status: Schema.optional(MailingStatusParam) }, item: Mailing },
  getById: {
    assumed: {
      payload: Schema.Struct({ mailing_id: MailingId }),
      success: Mailing,
      reason: "Named by its id as bots/getById names a bot; answers the mailing as mailings/get lists it."
    }
  }
})
