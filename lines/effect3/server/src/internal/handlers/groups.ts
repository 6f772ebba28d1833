/**
 * `groups/*`: the caller's communities (E2) and a community's employees (E3).
 *
 * @internal
 */
import { Effect } from "effect"
import { newestFirst, page } from "../context.js"
import type { SectionHandlers } from "../handler.js"
import { keyOf } from "../store.js"
import { named } from "./lookups.js"
import { toCommunity, toEmployee } from "./mappers.js"

export const groups: SectionHandlers<"groups"> = {
  get: (params, ctx) =>
    Effect.sync(() => {
      const search = params.search?.toLowerCase()
      const mine = [...ctx.store.communities.values()].filter((c) =>
        ctx.opens(c) && (params.channel === undefined || c.channel === params.channel) &&
        (search === undefined || c.name.toLowerCase().includes(search))
      )
      return page(newestFirst(mine, (c) => c.connected_at).map((c) => toCommunity(ctx, c)), params)
    }),

  getEmployees: (params, ctx) =>
    Effect.map(named(ctx), (community) => {
      const employees = ctx.store.employees.filter((e) => keyOf(e) === keyOf(community))
      return page(newestFirst(employees, (e) => e.added_at).map((e) => toEmployee(ctx, e)), params)
    })
}
