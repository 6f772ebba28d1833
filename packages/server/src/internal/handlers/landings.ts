/**
 * `landings/*`: listing (E16).
 *
 * @internal
 */
import { Effect } from "effect"
import { newestFirst, page } from "../context.js"
import type { SectionHandlers } from "../handler.js"
import { inCommunity, named } from "./lookups.js"
import { toLanding } from "./mappers.js"

export const landings: SectionHandlers<"landings"> = {
  get: (params, ctx) =>
    Effect.map(
      named(ctx),
      (community) =>
        page(
          newestFirst(inCommunity(ctx.store.landings.values(), community), (l) => l.create_at).map(toLanding),
          params
        )
    )
}
