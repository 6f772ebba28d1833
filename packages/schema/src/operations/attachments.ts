/**
 * The `attachments` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Operation from "../Operation.js"

/**
 * `attachments/*`: mailing attachments.
 *
 * @since 0.1.0
 * @category constants
 */
export const attachments = Operation.section("attachments", {
  getById: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Link to a mailing attachment file."
  })
})
