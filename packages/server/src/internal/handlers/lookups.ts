/**
 * Finding what a request names: its community, an object by id (answered like a missing one when the
 * caller has nothing to do with its community, A11), a subscriber, a free short name. Each refuses with
 * the typed error the spec gives for it.
 *
 * @internal
 */
import type { ApiError } from "@community-api/schema"
import { Effect } from "effect"
import type { RequestContext } from "../context.js"
import type * as Store from "../store.js"
import { keyOf } from "../store.js"
import * as Texts from "../texts.js"

type NotFound = ApiError.ErrorOf<7>
type NotFoundOrDenied = ApiError.ErrorOf<7 | 8>

/** The community the request named; the pipeline resolved it before the handler (C8). */
export const named = (ctx: RequestContext): Effect.Effect<Store.Community> =>
  ctx.community === undefined ? Effect.dieMessage("community expected") : Effect.succeed(ctx.community)

/** The items of one community. */
export const inCommunity = <A extends { readonly channel: string; readonly group_id: number }>(
  items: Iterable<A>,
  community: Store.Community
): Array<A> => [...items].filter((item) => item.channel === community.channel && item.group_id === community.group_id)

/** The community of a bot, which the store keeps for every bot. */
export const communityOf = (ctx: RequestContext, place: { readonly channel: string; readonly group_id: number }) =>
  ctx.store.communities.get(keyOf(place))!

export const findBot = (ctx: RequestContext, id: string): Effect.Effect<Store.Bot, NotFoundOrDenied> => {
  const bot = ctx.store.bots.get(id)
  return bot === undefined
    ? ctx.fail(7, Texts.botNotFound)
    : Effect.as(ctx.objectCommunity(bot, Texts.botNotFound), bot)
}

export const findMailing = (ctx: RequestContext, id: string): Effect.Effect<Store.Mailing, NotFoundOrDenied> => {
  const mailing = ctx.store.mailings.get(id)
  return mailing === undefined
    ? ctx.fail(7, Texts.mailingNotFound)
    : Effect.as(ctx.objectCommunity(mailing, Texts.mailingNotFound), mailing)
}

export const findList = (
  ctx: RequestContext,
  id: string
): Effect.Effect<{ readonly list: Store.List; readonly community: Store.Community }, NotFoundOrDenied> => {
  const list = ctx.store.lists.get(id)
  // The blacklist is never addressable by list operations (R11): it answers as a missing list.
  return list === undefined || list.blacklist
    ? ctx.fail(7, Texts.listNotFound)
    : Effect.map(ctx.objectCommunity(list, Texts.listNotFound), (community) => ({ list, community }))
}

export const findVariable = (
  ctx: RequestContext,
  id: string
): Effect.Effect<{ readonly variable: Store.Variable; readonly community: Store.Community }, NotFoundOrDenied> => {
  const variable = ctx.store.variables.get(id)
  return variable === undefined
    ? ctx.fail(7, Texts.variableNotFound)
    : Effect.map(ctx.objectCommunity(variable, Texts.variableNotFound), (community) => ({ variable, community }))
}

export const findCommunityVariable = (
  ctx: RequestContext,
  id: string
): Effect.Effect<Store.CommunityVariable, NotFoundOrDenied> => {
  const variable = ctx.store.communityVariables.get(id)
  return variable === undefined
    ? ctx.fail(7, Texts.variableNotFound)
    : Effect.as(ctx.objectCommunity(variable, Texts.variableNotFound), variable)
}

/** Succeeds when `uid` is a subscriber of the community, else 7. */
export const subscriber = (
  ctx: RequestContext,
  community: Store.Community,
  uid: number
): Effect.Effect<void, NotFound> =>
  ctx.isSubscriber(community, uid) ? Effect.void : ctx.fail(7, Texts.subscriberNotFound)

/** Fails with 7 when a community already has a variable of that short name (E11). */
export const uniqueName = (
  ctx: RequestContext,
  items: Iterable<{ readonly name: string }>,
  name: string
): Effect.Effect<void, NotFound> =>
  [...items].some((item) => item.name === name) ? ctx.fail(7, Texts.variableExists) : Effect.void
