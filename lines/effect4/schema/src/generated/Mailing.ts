/**
 * The `Mailing` resources.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Primitives from "../internal/primitives.js"

/**
 * `MailingStatus`, as `@community-api/schema/Mailing` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MailingStatus = Schema.Literals([0, 1, 2, 3, 4, 6, 7]).annotate({ identifier: "MailingStatus" })

/**
 * The decoded `MailingStatus`.
 *
 * @since 0.1.0
 * @category models
 */
export type MailingStatus = typeof MailingStatus.Type

/**
 * `Mailing`, as `@community-api/schema/Mailing` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Mailing = Schema.Struct({
  id: Primitives.MailingId,
  title: Schema.String,
  type: Schema.Int,
  status: MailingStatus,
  status_name: Schema.String,
  archived: Schema.Boolean,
  date_send: Primitives.UnixSeconds,
  count: Schema.Int,
  delivered: Schema.Int,
  no_delivered: Schema.Int,
  create_at: Primitives.UnixSeconds
}).annotate({ identifier: "Mailing" })

/**
 * The decoded `Mailing`.
 *
 * @since 0.1.0
 * @category models
 */
export type Mailing = typeof Mailing.Type

/**
 * `MailingStatusParam`, as `@community-api/schema/Mailing` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MailingStatusParam = Primitives.WireIntLiteral(0, 1, 2, 3, 4, 6, 7).annotate({ identifier: "MailingStatusParam" })

/**
 * The decoded `MailingStatusParam`.
 *
 * @since 0.1.0
 * @category models
 */
export type MailingStatusParam = typeof MailingStatusParam.Type

/**
 * `statusMeanings`, as `@community-api/schema/Mailing` exports it.
 *
 * @since 0.1.0
 * @category constants
 */
export const statusMeanings = {"0":"waiting to be sent","1":"being sent","2":"paused","3":"finished (except mailings in the archive)","4":"draft","6":"in the archive","7":"waiting to be stopped"} as const

/**
 * `statusValues`, as `@community-api/schema/Mailing` exports it.
 *
 * @since 0.1.0
 * @category constants
 */
export const statusValues = [0,1,2,3,4,6,7] as const
