/**
 * What a handler sees of one request: the caller, the clock, the store, and the access checks derived
 * from the operation's role group (A8–A12).
 *
 * @internal
 */
import type { ApiError, Operation } from "@community-api/schema"
import { Effect } from "effect"
import * as Refusal from "./refusal.js"
import type { Community, Store } from "./store.js"
import { keyOf } from "./store.js"
import * as Texts from "./texts.js"

/** The caller, as token validation found it. */
export interface Caller {
  readonly user_id: number
  readonly kind: "personal" | "application" | "accountKey"
  readonly client_id: string
}

/** How a caller relates to a community: the owner, an employee with roles, or nobody (`undefined`). */
export type Relation = "owner" | ReadonlyArray<string> | undefined

export const relation = (store: Store, userId: number, community: Community): Relation =>
  community.owner_id === userId ? "owner" : store.roles.get(userId)?.get(keyOf(community))

/** Whether a relation opens an operation of `group` (A8, A9); a role counts only in its community (A10). */
export const allows = (group: Operation.RoleGroup, rel: Relation): boolean => {
  if (rel === undefined) return false
  if (rel === "owner" || rel.includes("admin")) return true
  switch (group) {
    case "admin":
      return false
    case "any":
      return rel.length > 0
    case "none":
      return true
    default:
      return rel.includes(group)
  }
}

/** The context of one request. */
export class RequestContext {
  constructor(
    readonly op: Operation.Any,
    readonly store: Store,
    readonly caller: Caller,
    /** Now, in milliseconds, on the server's clock. */
    readonly now: number,
    /** The community the request names by (`group_id`, `channel`), when it names one and may use it. */
    readonly community: Community | undefined
  ) {}

  /** Now in unix seconds. */
  get seconds(): number {
    return Math.floor(this.now / 1000)
  }

  /** Fails with the tagged error of `code` for this operation. */
  fail<C extends ApiError.ErrorCode>(code: C, text: string): Effect.Effect<never, ApiError.ErrorOf<C>> {
    return Refusal.fail(code, text, this.op.path)
  }

  /** Whether the operation's section is open to the caller in a community. */
  opens(community: Community): boolean {
    return allows(this.op.roleGroup, relation(this.store, this.caller.user_id, community))
  }

  /** The community of a pair: 7 when there is none, 8 when it is not open to the caller (A12). */
  communityAt(channel: string, groupId: number): Effect.Effect<Community, ApiError.ErrorOf<7 | 8>> {
    const community = this.store.communities.get(`${channel}:${groupId}`)
    if (community === undefined) return this.fail(7, Texts.communityNotFound)
    const rel = relation(this.store, this.caller.user_id, community)
    if (rel === undefined) return this.fail(8, Texts.noCommunityAccess)
    return allows(this.op.roleGroup, rel) ? Effect.succeed(community) : this.fail(8, Texts.noRole)
  }

  /**
   * The community of an object: an object of a community the caller has nothing to do with is
   * answered exactly like a missing one (7, A11); lacking the role there gives 8.
   */
  objectCommunity(
    place: { readonly channel: string; readonly group_id: number },
    notFound: string
  ): Effect.Effect<Community, ApiError.ErrorOf<7 | 8>> {
    const community = this.store.communities.get(keyOf(place))
    if (community === undefined) return this.fail(7, notFound)
    const rel = relation(this.store, this.caller.user_id, community)
    if (rel === undefined) return this.fail(7, notFound)
    return allows(this.op.roleGroup, rel) ? Effect.succeed(community) : this.fail(8, Texts.noRole)
  }

  /** Whether `uid` is a subscriber of the community. */
  isSubscriber(community: Community, uid: number): boolean {
    return this.store.subscribers.get(keyOf(community))?.has(uid) ?? false
  }
}

/** One page of `items` (C12, C13): `count` defaults to 100 and is already at most 500. */
export const page = <A>(
  items: ReadonlyArray<A>,
  params: { readonly count?: number | undefined; readonly offset?: number | undefined }
) => {
  const offset = params.offset ?? 0
  const count = params.count ?? 100
  return { items: items.slice(offset, offset + count), total: items.length }
}

/**
 * One page (C12, C13) of the items that pass `keep`, in one pass and without the list of all of them:
 * a list operation over 100,000 records then keeps the page only.
 */
export const pageWhere = <A>(
  items: ReadonlyArray<A>,
  keep: (item: A) => boolean,
  params: { readonly count?: number | undefined; readonly offset?: number | undefined }
): { readonly items: ReadonlyArray<A>; readonly total: number } => {
  const offset = params.offset ?? 0
  const end = offset + (params.count ?? 100)
  const kept: Array<A> = []
  let total = 0
  for (const item of items) {
    if (!keep(item)) continue
    if (total >= offset && total < end) kept.push(item)
    total++
  }
  return { items: kept, total }
}

/**
 * Every value of `map` newest first, sorted once per map and size: a list operation over many
 * records (100,000 bots) then only filters and slices. Valid for records whose time never changes
 * and that are never removed one by one (the store is replaced as a whole on load and reset).
 */
export const newestFirstOf = <A>(map: ReadonlyMap<string, A>, time: (a: A) => number): ReadonlyArray<A> => {
  const cached = sortedCache.get(map)
  if (cached !== undefined && cached.length === map.size) return cached as ReadonlyArray<A>
  const sorted = newestFirst([...map.values()], time)
  sortedCache.set(map, sorted)
  return sorted
}

const sortedCache = new WeakMap<object, ReadonlyArray<unknown>>()

/** Newest first (C14): by a time, then later-added first. */
export const newestFirst = <A>(items: ReadonlyArray<A>, time: (a: A) => number): Array<A> =>
  items.map((item, index) => ({ item, index }))
    .sort((a, b) => time(b.item) - time(a.item) || b.index - a.index)
    .map(({ item }) => item)
