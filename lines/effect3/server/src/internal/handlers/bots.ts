/**
 * `bots/*`: listing (E4), one bot (E5), enabling and disabling (E6, S1), and entering a subscriber
 * into a bot (E17, payload assumed by the contract).
 *
 * @internal
 */
import type { ApiError, Bot } from "@community-api/schema"
import { Effect } from "effect"
import type { RequestContext } from "../context.js"
import { newestFirstOf, pageWhere } from "../context.js"
import type { SectionHandlers } from "../handler.js"
import { notModelled } from "../handler.js"
import type * as Store from "../store.js"
import * as Texts from "../texts.js"
import { communityOf, findBot, subscriber } from "./lookups.js"
import { toBot, toBotDetails } from "./mappers.js"

/** `bots/get` without a channel: the `group_id` must name one community across channels (E4). */
const botCommunities = (
  ctx: RequestContext,
  params: { readonly group_id?: number | undefined; readonly channel?: string | undefined }
): Effect.Effect<ReadonlyArray<Store.Community>, ApiError.ErrorOf<7 | 8>> => {
  if (ctx.community !== undefined) return Effect.succeed([ctx.community])
  const all = [...ctx.store.communities.values()]
  if (params.group_id !== undefined) {
    const matches = all.filter((c) => c.group_id === params.group_id)
    if (matches.length === 0) return ctx.fail(7, Texts.communityNotFound)
    if (matches.length > 1) return ctx.fail(7, Texts.ambiguousGroup)
    return Effect.map(ctx.communityAt(matches[0]!.channel, matches[0]!.group_id), (c) => [c])
  }
  return Effect.succeed(
    all.filter((c) => (params.channel === undefined || c.channel === params.channel) && ctx.opens(c))
  )
}

export const bots: SectionHandlers<"bots"> = {
  get: (params, ctx) =>
    Effect.map(botCommunities(ctx, params), (communities) => {
      const search = params.search?.toLowerCase()
      // Every bot of the store is tested at each page (a community may hold 100,000), by its fields and
      // with no list of them all: a key string made per bot, and the filtered list, took the server
      // tens of milliseconds a page.
      const inCommunity = (b: Store.Bot) =>
        communities.some((c) => c.group_id === b.group_id && c.channel === b.channel)
      const { items, total } = pageWhere(
        newestFirstOf(ctx.store.bots, (b) => b.create_at),
        (b) =>
          inCommunity(b) && (params.active === undefined || b.active === params.active) &&
          (params.archived === undefined || b.archived === params.archived) &&
          (search === undefined || b.name.toLowerCase().includes(search)),
        params
      )
      // Only the page is converted.
      return { items: items.map(toBot), total }
    }),

  getById: (params, ctx) => Effect.map(findBot(ctx, params.bot_id), toBotDetails),

  enable: (params, ctx) =>
    Effect.flatMap(findBot(ctx, params.bot_id), (bot): Effect.Effect<Bot.Bot, ApiError.ErrorOf<6 | 8>> => {
      // The archive is checked before the bot's own flag (S1).
      if (communityOf(ctx, bot).archived) return ctx.fail(8, Texts.archivedCommunity)
      if (!bot.can_enable) return ctx.fail(6, Texts.botCannotBeEnabled)
      bot.active = 1
      return Effect.succeed(toBot(bot))
    }),

  disable: (params, ctx) =>
    Effect.map(findBot(ctx, params.bot_id), (bot) => {
      bot.active = 0
      return toBot(bot)
    }),

  getSteps: notModelled,

  addUser: (params, ctx) =>
    findBot(ctx, params.bot_id).pipe(
      Effect.tap((bot) => subscriber(ctx, communityOf(ctx, bot), params.uid)),
      Effect.map((bot) => {
        const inside = ctx.store.botSubscribers.some((s) => s.bot_id === bot.id && s.uid === params.uid)
        if (!inside) {
          ctx.store.botSubscribers.push({ bot_id: bot.id, uid: params.uid, bot_entered_at: ctx.seconds, steps: [] })
        }
      })
    ),

  removeUser: notModelled
}
