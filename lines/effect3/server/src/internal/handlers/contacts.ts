/**
 * `contacts/*`: the bots a subscriber is in (E9); the others are listed by E17 without details and not
 * modelled.
 *
 * @internal
 */
import { Effect } from "effect"
import { newestFirst, page } from "../context.js"
import type { SectionHandlers } from "../handler.js"
import { notModelled } from "../handler.js"
import { keyOf } from "../store.js"
import { named, subscriber } from "./lookups.js"
import { toSubscriberBot } from "./mappers.js"

export const contacts: SectionHandlers<"contacts"> = {
  getBots: (params, ctx) =>
    Effect.flatMap(named(ctx), (community) =>
      Effect.map(subscriber(ctx, community, params.uid), () => {
        const inside = ctx.store.botSubscribers.filter((s) => {
          const bot = ctx.store.bots.get(s.bot_id)
          return s.uid === params.uid && bot !== undefined && keyOf(bot) === keyOf(community)
        })
        return page(newestFirst(inside, (s) => s.bot_entered_at).map((s) => toSubscriberBot(ctx, s)), params)
      })),

  getById: notModelled,
  getVars: notModelled,
  getLists: notModelled
}
