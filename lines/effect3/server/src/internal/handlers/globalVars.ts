/**
 * `globalVars/*`: community variables: listing (E14), erasing (E15); creating, reading and setting
 * (E17, payloads and successes assumed by the contract; values bounded, `values.ts`).
 *
 * @internal
 */
import { Effect } from "effect"
import type { SectionHandlers } from "../handler.js"
import type * as Store from "../store.js"
import { newId } from "../store.js"
import { findCommunityVariable, inCommunity, listNewest, named, uniqueName } from "./lookups.js"
import { toCommunityVariable } from "./mappers.js"
import { boundedValue } from "./values.js"

export const globalVars: SectionHandlers<"globalVars"> = {
  list: (params, ctx) => listNewest(ctx, ctx.store.communityVariables.values(), toCommunityVariable, params),

  // Erasing is setting the empty string (E15).
  clear: (params, ctx) =>
    Effect.map(findCommunityVariable(ctx, params.var_id), (variable) => {
      variable.value = ""
    }),

  // Community variables have their own short names, unique in the community (E11).
  create: (params, ctx) =>
    Effect.flatMap(
      Effect.zipRight(boundedValue(ctx, params.value), named(ctx)),
      (community) =>
        Effect.map(
          uniqueName(ctx, inCommunity(ctx.store.communityVariables.values(), community), params.name),
          () => {
            const variable: Store.CommunityVariable = {
              id: newId(ctx.store),
              group_id: community.group_id,
              channel: community.channel,
              title: params.title,
              name: params.name,
              value: params.value ?? "",
              create_at: ctx.seconds
            }
            ctx.store.communityVariables.set(variable.id, variable)
            return toCommunityVariable(variable)
          }
        )
    ),

  get: (params, ctx) => Effect.map(findCommunityVariable(ctx, params.var_id), toCommunityVariable),

  set: (params, ctx) =>
    Effect.zipRight(
      boundedValue(ctx, params.value),
      Effect.map(findCommunityVariable(ctx, params.var_id), (variable) => {
        variable.value = params.value
        return toCommunityVariable(variable)
      })
    )
}
