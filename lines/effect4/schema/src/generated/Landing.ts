/**
 * The `Landing` resources.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Primitives from "../internal/primitives.js"

/**
 * `Landing`, as `@community-api/schema/Landing` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Landing = Schema.Struct({
  id: Primitives.LandingId,
  title: Schema.String,
  kind: Schema.String,
  url: Schema.String,
  create_at: Primitives.UnixSeconds
}).annotate({ identifier: "Landing" })

/**
 * The decoded `Landing`.
 *
 * @since 0.1.0
 * @category models
 */
export type Landing = typeof Landing.Type
