/**
 * `landings/*`: listing (E16).
 *
 * @internal
 */
import type { SectionHandlers } from "../handler.js"
import { listNewest } from "./lookups.js"
import { toLanding } from "./mappers.js"

export const landings: SectionHandlers<"landings"> = {
  get: (params, ctx) => listNewest(ctx, ctx.store.landings.values(), toLanding, params)
}
