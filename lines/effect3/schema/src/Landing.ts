/**
 * Landings.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { UnixSeconds } from "./Dates.js"
import { LandingId } from "./Ids.js"

/**
 * A mini-landing or multichannel landing: an item of `landings/get`. The set of `kind` values
 * is not shown.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Landing = Schema.Struct({
  id: LandingId,
  title: Schema.String,
  kind: Schema.String,
  url: Schema.String,
  create_at: UnixSeconds
}).annotations({ identifier: "Landing" })

/**
 * The type {@link Landing} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Landing = typeof Landing.Type
