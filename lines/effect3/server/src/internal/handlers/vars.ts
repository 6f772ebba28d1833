/**
 * `vars/*`: custom per-subscriber variables: listing (E10), creating (E11), reading (E12), erasing
 * (E13) and setting a value (E17, payload assumed by the contract; its length bounded, `values.ts`).
 *
 * @internal
 */
import { Effect } from "effect"
import type { SectionHandlers } from "../handler.js"
import type * as Store from "../store.js"
import { newId } from "../store.js"
import { findVariable, inCommunity, listNewest, named, subscriber, uniqueName } from "./lookups.js"
import { toDefinition } from "./mappers.js"
import { boundedValue } from "./values.js"

export const vars: SectionHandlers<"vars"> = {
  list: (params, ctx) => listNewest(ctx, ctx.store.variables.values(), toDefinition, params),

  create: (params, ctx) =>
    Effect.flatMap(
      named(ctx),
      (community) =>
        Effect.map(uniqueName(ctx, inCommunity(ctx.store.variables.values(), community), params.name), () => {
          const variable: Store.Variable = {
            id: newId(ctx.store),
            group_id: community.group_id,
            channel: community.channel,
            title: params.title,
            name: params.name,
            create_at: ctx.seconds,
            values: new Map()
          }
          ctx.store.variables.set(variable.id, variable)
          return toDefinition(variable)
        })
    ),

  // An unset value reads as the empty string (E12).
  get: (params, ctx) =>
    Effect.flatMap(
      findVariable(ctx, params.var_id),
      ({ community, variable }) =>
        Effect.as(subscriber(ctx, community, params.uid), {
          title: variable.title,
          name: variable.name,
          value: variable.values.get(String(params.uid)) ?? ""
        })
    ),

  clear: (params, ctx) =>
    Effect.flatMap(
      findVariable(ctx, params.var_id),
      ({ community, variable }) =>
        Effect.map(subscriber(ctx, community, params.uid), () => {
          variable.values.delete(String(params.uid))
        })
    ),

  set: (params, ctx) =>
    Effect.zipRight(
      boundedValue(ctx, params.value),
      Effect.flatMap(
        findVariable(ctx, params.var_id),
        ({ community, variable }) =>
          Effect.map(subscriber(ctx, community, params.uid), () => {
            variable.values.set(String(params.uid), params.value)
          })
      )
    )
}
