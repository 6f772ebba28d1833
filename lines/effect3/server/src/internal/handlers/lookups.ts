/**
 * Finding what a request names: its community and the objects listed in it, an object by id (answered
 * like a missing one when the caller has nothing to do with its community, A11), a subscriber, a free
 * short name. Each refuses with the typed error the spec gives for it.
 *
 * @internal
 */
import type { ApiError } from "@community-api/schema"
import { Effect } from "effect"
import type { RequestContext } from "../context.js"
import { newestFirst, page } from "../context.js"
import type * as Store from "../store.js"
import { keyOf } from "../store.js"
import * as Texts from "../texts.js"

type NotFound = ApiError.ErrorOf<7>
type NotFoundOrDenied = ApiError.ErrorOf<7 | 8>

/** Where an object of a community is: the pair that names its community. */
type Placed = { readonly channel: string; readonly group_id: number }

/** The community the request named; the pipeline resolved it before the handler (C8). */
export const named = (ctx: RequestContext): Effect.Effect<Store.Community> =>
  ctx.community === undefined ? Effect.dieMessage("community expected") : Effect.succeed(ctx.community)

/** The items of one community. */
export const inCommunity = <A extends Placed>(
  items: Iterable<A>,
  community: Store.Community
): Array<A> => [...items].filter((item) => item.channel === community.channel && item.group_id === community.group_id)

/** The community of a bot, which the store keeps for every bot. */
export const communityOf = (ctx: RequestContext, place: Placed) => ctx.store.communities.get(keyOf(place))!

/**
 * A list operation over the objects of the community the request named: those `keep` lets through
 * (the operation's own filters), newest created first (C14), paged (C13), as the contract's resources.
 */
export const listNewest = <A extends Placed & { readonly create_at: number }, R>(
  ctx: RequestContext,
  items: Iterable<A>,
  toResource: (item: A) => R,
  params: Parameters<typeof page>[1],
  keep: (item: A) => boolean = () => true
) =>
  Effect.map(
    named(ctx),
    (community) =>
      page(newestFirst(inCommunity(items, community).filter(keep), (item) => item.create_at).map(toResource), params)
  )

/**
 * An object found by id, with its community: 7 with `notFound` when there is none (`undefined`), and
 * answered like a missing one when the caller has nothing to do with its community (A11).
 */
const found = <A extends Placed>(
  ctx: RequestContext,
  item: A | undefined,
  notFound: string
): Effect.Effect<{ readonly item: A; readonly community: Store.Community }, NotFoundOrDenied> =>
  item === undefined
    ? ctx.fail(7, notFound)
    : Effect.map(ctx.objectCommunity(item, notFound), (community) => ({ item, community }))

export const findBot = (ctx: RequestContext, id: string): Effect.Effect<Store.Bot, NotFoundOrDenied> =>
  Effect.map(found(ctx, ctx.store.bots.get(id), Texts.botNotFound), ({ item }) => item)

export const findMailing = (ctx: RequestContext, id: string): Effect.Effect<Store.Mailing, NotFoundOrDenied> =>
  Effect.map(found(ctx, ctx.store.mailings.get(id), Texts.mailingNotFound), ({ item }) => item)

export const findList = (
  ctx: RequestContext,
  id: string
): Effect.Effect<{ readonly list: Store.List; readonly community: Store.Community }, NotFoundOrDenied> => {
  const list = ctx.store.lists.get(id)
  // The blacklist is never addressable by list operations (R11): it answers as a missing list.
  return Effect.map(
    found(ctx, list?.blacklist ? undefined : list, Texts.listNotFound),
    ({ community, item }) => ({ list: item, community })
  )
}

export const findVariable = (
  ctx: RequestContext,
  id: string
): Effect.Effect<{ readonly variable: Store.Variable; readonly community: Store.Community }, NotFoundOrDenied> =>
  Effect.map(
    found(ctx, ctx.store.variables.get(id), Texts.variableNotFound),
    ({ community, item }) => ({ variable: item, community })
  )

export const findCommunityVariable = (
  ctx: RequestContext,
  id: string
): Effect.Effect<Store.CommunityVariable, NotFoundOrDenied> =>
  Effect.map(found(ctx, ctx.store.communityVariables.get(id), Texts.variableNotFound), ({ item }) => item)

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
