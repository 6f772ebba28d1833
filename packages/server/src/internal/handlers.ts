/**
 * The body of every operation: the only part of the server written per operation. Routing, decoding,
 * authentication, access, limits and envelopes are derived from the contract elsewhere.
 *
 * @internal
 */
import type { ApiError, Bot, Community, Ids, Landing, Mailing, Variable } from "@community-api/schema"
import { Ids as IdSchemas, Operations, Page, Variable as VariableSchema } from "@community-api/schema"
import { DateTime, Effect, Schema } from "effect"
import type { RequestContext } from "./context.js"
import { newestFirst, newestFirstOf, page } from "./context.js"
import type { Handlers } from "./handler.js"
import { assumed, notModelled } from "./handler.js"
import type * as Store from "./store.js"
import { keyOf, newId } from "./store.js"
import * as Texts from "./texts.js"

const at = (seconds: number): DateTime.Utc => DateTime.unsafeMake(seconds * 1000)
const gid = (n: number) => n as Ids.GroupId

const toCommunity = (ctx: RequestContext, c: Store.Community): Community.Community => ({
  group_id: gid(c.group_id),
  channel: c.channel,
  name: c.name,
  photo: c.photo,
  is_owner: c.owner_id === ctx.caller.user_id,
  archived: c.archived,
  deactivated: c.deactivated
})

const toBot = (b: Store.Bot): Bot.Bot => ({
  id: b.id as Ids.BotId,
  name: b.name,
  group_id: gid(b.group_id),
  channel: b.channel,
  active: b.active,
  archived: b.archived,
  activity_type: b.activity_type,
  create_at: at(b.create_at)
})

const toBotDetails = (b: Store.Bot): Bot.BotDetails => ({
  ...toBot(b),
  public_id: b.public_id,
  can_share: b.can_share,
  is_favorite: b.is_favorite,
  time_archived: b.time_archived,
  activity_param: b.activity_param,
  subscription_ids: b.subscription_ids
})

const toMailing = (m: Store.Mailing): Mailing.Mailing => ({
  id: m.id as Ids.MailingId,
  title: m.title,
  type: m.type,
  status: m.status,
  status_name: Texts.statusNames[m.status] ?? "",
  archived: m.status === 6,
  date_send: at(m.date_send),
  count: m.count,
  delivered: m.delivered,
  no_delivered: m.no_delivered,
  create_at: at(m.create_at)
})

const toDefinition = (v: Store.Variable): Variable.VariableDefinition => ({
  id: v.id as Ids.VariableId,
  title: v.title,
  name: v.name,
  create_at: at(v.create_at)
})

const toCommunityVariable = (v: Store.CommunityVariable): Variable.CommunityVariable => ({
  id: v.id as Ids.CommunityVariableId,
  title: v.title,
  name: v.name,
  value: v.value,
  create_at: at(v.create_at)
})

const toLanding = (l: Store.Landing): Landing.Landing => ({
  id: l.id as Ids.LandingId,
  title: l.title,
  kind: l.kind,
  url: l.url,
  create_at: at(l.create_at)
})

/** The community the request named; the pipeline resolved it (C8). */
const named = (ctx: RequestContext): Effect.Effect<Store.Community, never> =>
  ctx.community === undefined ? Effect.dieMessage("community expected") : Effect.succeed(ctx.community)

const inCommunity = <A extends { readonly channel: string; readonly group_id: number }>(
  items: Iterable<A>,
  community: Store.Community
): Array<A> => [...items].filter((item) => item.channel === community.channel && item.group_id === community.group_id)

const findBot = (ctx: RequestContext, id: string) => {
  const bot = ctx.store.bots.get(id)
  return bot === undefined
    ? ctx.fail(7, Texts.botNotFound)
    : Effect.as(ctx.objectCommunity(bot, Texts.botNotFound), bot)
}

const findList = (ctx: RequestContext, id: string) => {
  const list = ctx.store.lists.get(id)
  // The blacklist is never addressable by list operations (R11): it answers as a missing list.
  return list === undefined || list.blacklist
    ? ctx.fail(7, Texts.listNotFound)
    : Effect.map(ctx.objectCommunity(list, Texts.listNotFound), (community) => ({ list, community }))
}

const findVariable = (ctx: RequestContext, id: string) => {
  const variable = ctx.store.variables.get(id)
  return variable === undefined
    ? ctx.fail(7, Texts.variableNotFound)
    : Effect.map(ctx.objectCommunity(variable, Texts.variableNotFound), (community) => ({ variable, community }))
}

const findCommunityVariable = (ctx: RequestContext, id: string) => {
  const variable = ctx.store.communityVariables.get(id)
  return variable === undefined
    ? ctx.fail(7, Texts.variableNotFound)
    : Effect.as(ctx.objectCommunity(variable, Texts.variableNotFound), variable)
}

const subscriber = (ctx: RequestContext, community: Store.Community, uid: number) =>
  ctx.isSubscriber(community, uid) ? Effect.void : ctx.fail(7, Texts.subscriberNotFound)

/** `bots/get` without a channel: the `group_id` must name one community across channels (E4). */
const botCommunities = (
  ctx: RequestContext,
  params: { readonly group_id?: number | undefined; readonly channel?: string | undefined }
): Effect.Effect<ReadonlyArray<Store.Community>, ApiError.ApiError> => {
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

const listWire = (l: Store.List) => ({ id: l.id, name: l.name, create_at: l.create_at })

const communityVariableWire = (v: Store.CommunityVariable) =>
  Schema.encodeSync(VariableSchema.CommunityVariable)(
    toCommunityVariable(v)
  )

const ListName = VariableSchema.VariableTitle
const Value = Schema.String

/** Fails with 7 when a community already has a variable of that short name (E11). */
const uniqueName = (ctx: RequestContext, items: Iterable<{ readonly name: string }>, name: string) =>
  [...items].some((item) => item.name === name) ? ctx.fail(7, Texts.variableExists) : Effect.void

/** Every operation's body. */
export const handlers: Handlers = {
  "users/me": (_, ctx) =>
    Effect.succeed({
      user_id: ctx.caller.user_id,
      auth: ctx.caller.kind === "accountKey"
        ? "account_key"
        : ctx.caller.kind === "application"
        ? "application_token"
        : "personal_token",
      client_id: ctx.caller.client_id
    }),

  "groups/get": (params, ctx) =>
    Effect.sync(() => {
      const search = params.search?.toLowerCase()
      const mine = [...ctx.store.communities.values()].filter((c) =>
        ctx.opens(c) && (params.channel === undefined || c.channel === params.channel) &&
        (search === undefined || c.name.toLowerCase().includes(search))
      )
      return page(newestFirst(mine, (c) => c.connected_at).map((c) => toCommunity(ctx, c)), params)
    }),

  "groups/getEmployees": (params, ctx) =>
    Effect.map(named(ctx), (community) => {
      const employees = newestFirst(
        ctx.store.employees.filter((e) => keyOf(e) === keyOf(community)),
        (e) => e.added_at
      )
      return page(
        employees.map((e) => ({
          user_id: e.user_id,
          name: ctx.store.users.get(e.user_id)?.name ?? "",
          roles: e.roles.map((key) => ({ key, title: Texts.roleTitles[key] ?? key }))
        })),
        params
      )
    }),

  "bots/get": (params, ctx) =>
    Effect.map(botCommunities(ctx, params), (communities) => {
      const keys = new Set(communities.map(keyOf))
      const search = params.search?.toLowerCase()
      const bots = newestFirstOf(ctx.store.bots, (b) => b.create_at).filter((b) =>
        keys.has(keyOf(b)) && (params.active === undefined || b.active === params.active) &&
        (params.archived === undefined || b.archived === params.archived) &&
        (search === undefined || b.name.toLowerCase().includes(search))
      )
      const { items, total } = page(bots, params)
      return { items: items.map(toBot), total }
    }),

  "bots/getById": (params, ctx) => Effect.map(findBot(ctx, params.bot_id), toBotDetails),

  "bots/enable": (params, ctx) =>
    Effect.flatMap(findBot(ctx, params.bot_id), (bot) => {
      const community = ctx.store.communities.get(keyOf(bot))!
      if (community.archived) return ctx.fail(8, Texts.archivedCommunity)
      if (!bot.can_enable) return ctx.fail(6, Texts.botCannotBeEnabled)
      bot.active = 1
      return Effect.succeed(toBot(bot))
    }),

  "bots/disable": (params, ctx) =>
    Effect.map(findBot(ctx, params.bot_id), (bot) => {
      bot.active = 0
      return toBot(bot)
    }),

  "bots/getSteps": notModelled,

  "bots/addUser": assumed(
    Schema.Struct({ bot_id: IdSchemas.BotId, uid: IdSchemas.Uid }),
    (params, ctx) =>
      findBot(ctx, params.bot_id).pipe(
        Effect.tap((bot) => subscriber(ctx, ctx.store.communities.get(keyOf(bot))!, params.uid)),
        Effect.map((bot) => {
          const inside = ctx.store.botSubscribers.some((s) => s.bot_id === bot.id && s.uid === params.uid)
          if (!inside) {
            ctx.store.botSubscribers.push({ bot_id: bot.id, uid: params.uid, bot_entered_at: ctx.seconds, steps: [] })
          }
        })
      )
  ),

  "bots/removeUser": notModelled,

  "mailings/get": (params, ctx) =>
    Effect.map(named(ctx), (community) => {
      const mailings = inCommunity(ctx.store.mailings.values(), community).filter((m) =>
        params.status === undefined || m.status === params.status
      )
      return page(newestFirst(mailings, (m) => m.create_at).map(toMailing), params)
    }),

  "mailings/getById": assumed(
    Schema.Struct({ mailing_id: IdSchemas.MailingId }),
    (params, ctx) => {
      const mailing = ctx.store.mailings.get(params.mailing_id)
      if (mailing === undefined) return ctx.fail(7, Texts.mailingNotFound)
      return Effect.as(
        ctx.objectCommunity(mailing, Texts.mailingNotFound),
        Schema.encodeSync(Operations.mailings.get.item)(toMailing(mailing))
      )
    }
  ),

  "attachments/getById": notModelled,

  "lists/addUser": (params, ctx) =>
    Effect.flatMap(
      findList(ctx, params.list_id),
      ({ community, list }) =>
        Effect.map(subscriber(ctx, community, params.uid), () => {
          if (!list.uids.includes(params.uid)) list.uids.push(params.uid)
        })
    ),

  "lists/get": assumed(
    Schema.Struct({ ...Operations.CommunityRef, ...Page.PageParams }),
    (params, ctx) =>
      Effect.map(named(ctx), (community) => {
        const lists = inCommunity(ctx.store.lists.values(), community).filter((l) => !l.blacklist)
        return page(newestFirst(lists, (l) => l.create_at).map(listWire), params)
      })
  ),

  "lists/create": assumed(
    Schema.Struct({ ...Operations.CommunityRef, name: ListName }),
    (params, ctx) =>
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
        return listWire(list)
      })
  ),

  "lists/rename": assumed(
    Schema.Struct({ list_id: IdSchemas.ListId, name: ListName }),
    (params, ctx) =>
      Effect.map(findList(ctx, params.list_id), ({ list }) => {
        list.name = params.name
        return listWire(list)
      })
  ),

  "lists/getUsers": assumed(
    Schema.Struct({ list_id: IdSchemas.ListId, ...Page.PageParams }),
    (params, ctx) =>
      Effect.map(findList(ctx, params.list_id), ({ list }) =>
        page(
          [...list.uids].reverse().map((uid) => ({ uid })),
          params
        ))
  ),

  "lists/removeUser": notModelled,

  "contacts/getBots": (params, ctx) =>
    Effect.flatMap(named(ctx), (community) =>
      Effect.map(subscriber(ctx, community, params.uid), () => {
        const inside = ctx.store.botSubscribers.filter((s) => {
          const bot = ctx.store.bots.get(s.bot_id)
          return s.uid === params.uid && bot !== undefined && keyOf(bot) === keyOf(community)
        })
        return page(
          newestFirst(inside, (s) => s.bot_entered_at).map((s) => ({
            id: s.bot_id as Ids.BotId,
            name: ctx.store.bots.get(s.bot_id)!.name,
            steps: s.steps.map((step) => ({
              id: step.id as Ids.StepId,
              title: step.title,
              step_entered_at: at(step.step_entered_at),
              bot_entered_at: at(s.bot_entered_at)
            }))
          })),
          params
        )
      })),

  "contacts/getById": notModelled,
  "contacts/getVars": notModelled,
  "contacts/getLists": notModelled,

  "vars/list": (params, ctx) =>
    Effect.map(
      named(ctx),
      (community) =>
        page(
          newestFirst(inCommunity(ctx.store.variables.values(), community), (v) => v.create_at).map(toDefinition),
          params
        )
    ),

  "vars/create": (params, ctx) =>
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

  "vars/get": (params, ctx) =>
    Effect.flatMap(
      findVariable(ctx, params.var_id),
      ({ community, variable }) =>
        Effect.as(subscriber(ctx, community, params.uid), {
          title: variable.title,
          name: variable.name,
          value: variable.values.get(String(params.uid)) ?? ""
        })
    ),

  "vars/clear": (params, ctx) =>
    Effect.flatMap(
      findVariable(ctx, params.var_id),
      ({ community, variable }) =>
        Effect.map(subscriber(ctx, community, params.uid), () => {
          variable.values.delete(String(params.uid))
        })
    ),

  "vars/set": assumed(
    Schema.Struct({ var_id: IdSchemas.VariableId, uid: IdSchemas.Uid, value: Value }),
    (params, ctx) =>
      Effect.flatMap(
        findVariable(ctx, params.var_id),
        ({ community, variable }) =>
          Effect.map(subscriber(ctx, community, params.uid), () => {
            variable.values.set(String(params.uid), params.value)
          })
      )
  ),

  "globalVars/list": (params, ctx) =>
    Effect.map(named(ctx), (community) =>
      page(
        newestFirst(inCommunity(ctx.store.communityVariables.values(), community), (v) => v.create_at).map(
          toCommunityVariable
        ),
        params
      )),

  "globalVars/clear": (params, ctx) =>
    Effect.map(findCommunityVariable(ctx, params.var_id), (variable) => {
      variable.value = ""
    }),

  "globalVars/create": assumed(
    Schema.Struct({
      ...Operations.CommunityRef,
      title: VariableSchema.VariableTitle,
      name: VariableSchema.VariableName,
      value: Schema.optional(Value)
    }),
    (params, ctx) =>
      Effect.flatMap(
        named(ctx),
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
              return communityVariableWire(variable)
            }
          )
      )
  ),

  "globalVars/get": assumed(
    Schema.Struct({ var_id: IdSchemas.CommunityVariableId }),
    (params, ctx) => Effect.map(findCommunityVariable(ctx, params.var_id), communityVariableWire)
  ),

  "globalVars/set": assumed(
    Schema.Struct({ var_id: IdSchemas.CommunityVariableId, value: Value }),
    (params, ctx) =>
      Effect.map(findCommunityVariable(ctx, params.var_id), (variable) => {
        variable.value = params.value
        return communityVariableWire(variable)
      })
  ),

  "landings/get": (params, ctx) =>
    Effect.map(
      named(ctx),
      (community) =>
        page(
          newestFirst(inCommunity(ctx.store.landings.values(), community), (l) => l.create_at).map(toLanding),
          params
        )
    ),

  "funnels/get": notModelled,
  "funnels/getById": notModelled,
  "stats/getMailingsStats": notModelled,
  "stats/getMailingStats": notModelled,
  "stats/getLandingsStats": notModelled,
  "stats/getLandingStats": notModelled,
  "stats/getAdsSubscribes": notModelled
}
