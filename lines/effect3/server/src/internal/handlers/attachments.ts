/**
 * `attachments/*`: listed by E17 without details, not modelled.
 *
 * @internal
 */
import type { SectionHandlers } from "../handler.js"
import { notModelled } from "../handler.js"

export const attachments: SectionHandlers<"attachments"> = {
  getById: notModelled
}
