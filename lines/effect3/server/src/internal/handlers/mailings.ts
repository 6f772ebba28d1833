/**
 * `mailings/*`: listing (E7) and one mailing (E17, payload and success assumed by the contract).
 *
 * @internal
 */
import { Effect } from "effect"
import type { SectionHandlers } from "../handler.js"
import { findMailing, listNewest } from "./lookups.js"
import { toMailing } from "./mappers.js"

export const mailings: SectionHandlers<"mailings"> = {
  get: (params, ctx) =>
    listNewest(
      ctx,
      ctx.store.mailings.values(),
      toMailing,
      params,
      (m) => params.status === undefined || m.status === params.status
    ),

  getById: (params, ctx) => Effect.map(findMailing(ctx, params.mailing_id), toMailing)
}
