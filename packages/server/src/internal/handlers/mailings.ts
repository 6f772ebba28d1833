/**
 * `mailings/*`: listing (E7) and one mailing (E17, payload and success assumed by the contract).
 *
 * @internal
 */
import { Effect } from "effect"
import { newestFirst, page } from "../context.js"
import type { SectionHandlers } from "../handler.js"
import { findMailing, inCommunity, named } from "./lookups.js"
import { toMailing } from "./mappers.js"

export const mailings: SectionHandlers<"mailings"> = {
  get: (params, ctx) =>
    Effect.map(named(ctx), (community) => {
      const mailings = inCommunity(ctx.store.mailings.values(), community).filter((m) =>
        params.status === undefined || m.status === params.status
      )
      return page(newestFirst(mailings, (m) => m.create_at).map(toMailing), params)
    }),

  getById: (params, ctx) => Effect.map(findMailing(ctx, params.mailing_id), toMailing)
}
