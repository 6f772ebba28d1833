/**
 * Mailings and their status.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { UnixSeconds } from "./Dates.js"
import { MailingId } from "./Ids.js"
import { WireIntLiteral } from "./Wire.js"

/**
 * Every mailing status and its meaning. No meaning is given for 5, so 5 is not a status.
 *
 * @since 0.1.0
 * @category constants
 */
export const statusMeanings = {
  0: "waiting to be sent",
  1: "being sent",
  2: "paused",
  3: "finished (except mailings in the archive)",
  4: "draft",
  6: "in the archive",
  7: "waiting to be stopped"
} as const

/**
 * The status values, in order.
 *
 * @since 0.1.0
 * @category constants
 */
export const statusValues = [0, 1, 2, 3, 4, 6, 7] as const

/**
 * A mailing status as a response carries it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MailingStatus = Schema.Literal(...statusValues).annotations({ identifier: "MailingStatus" })

/**
 * The type {@link MailingStatus} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type MailingStatus = typeof MailingStatus.Type

/**
 * A mailing status as a `mailings/get` filter: a number, or digits from a form body.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MailingStatusParam = WireIntLiteral(...statusValues).annotations({ identifier: "MailingStatusParam" })

/**
 * A mailing: an item of `mailings/get`. The meaning of `type` is not shown.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Mailing = Schema.Struct({
  id: MailingId,
  title: Schema.String,
  type: Schema.Int,
  status: MailingStatus,
  status_name: Schema.String,
  archived: Schema.Boolean,
  date_send: UnixSeconds,
  count: Schema.Int,
  delivered: Schema.Int,
  no_delivered: Schema.Int,
  create_at: UnixSeconds
}).annotations({ identifier: "Mailing" })

/**
 * The type {@link Mailing} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Mailing = typeof Mailing.Type
