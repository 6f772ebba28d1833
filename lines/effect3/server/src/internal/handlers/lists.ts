/**
 * `lists/*`: adding a subscriber (E8); listing, creating, renaming and reading lists (E17, payloads
 * and successes assumed by the contract). The blacklist is never one of them (R11).
 *
 * @internal
 */
import { Effect } from "effect"
import { page } from "../context.js"
import type { SectionHandlers } from "../handler.js"
import { notModelled } from "../handler.js"
import type * as Store from "../store.js"
import { newId } from "../store.js"
import { findList, listNewest, named, subscriber } from "./lookups.js"
import { toList, toListMember } from "./mappers.js"

export const lists: SectionHandlers<"lists"> = {
  addUser: (params, ctx) =>
    Effect.flatMap(
      findList(ctx, params.list_id),
      ({ community, list }) =>
        Effect.map(subscriber(ctx, community, params.uid), () => {
          if (!list.uids.includes(params.uid)) list.uids.push(params.uid)
        })
    ),

  get: (params, ctx) => listNewest(ctx, ctx.store.lists.values(), toList, params, (l) => !l.blacklist),

  create: (params, ctx) =>
    Effect.map(named(ctx), (community) => {
      const list: Store.List = {
        id: newId(ctx.store),
        group_id: community.group_id,
        channel: community.channel,
        name: params.name,
        blacklist: false,
        create_at: ctx.seconds,
        uids: []
      }
      ctx.store.lists.set(list.id, list)
      return toList(list)
    }),

  rename: (params, ctx) =>
    Effect.map(findList(ctx, params.list_id), ({ list }) => {
      list.name = params.name
      return toList(list)
    }),

  // Last added first.
  getUsers: (params, ctx) =>
    Effect.map(findList(ctx, params.list_id), ({ list }) => page([...list.uids].reverse().map(toListMember), params)),

  removeUser: notModelled
}
