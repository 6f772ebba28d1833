/**
 * From the store's records to the contract's resources. Handlers answer these values and the
 * envelope encodes them with the operation's success schema, so what goes on the wire is exactly what
 * the contract says (dates as unix seconds, ids as strings).
 *
 * @internal
 */
import type { Bot, Community, Ids, Landing, List, Mailing, Variable } from "@community-api/schema"
import { DateTime } from "effect"
import type { RequestContext } from "../context.js"
import type * as Store from "../store.js"
import * as Texts from "../texts.js"

/** A store time (unix seconds) as the contract's date. */
export const at = (seconds: number): DateTime.Utc => DateTime.unsafeMake(seconds * 1000)

export const toCommunity = (ctx: RequestContext, c: Store.Community): Community.Community => ({
  group_id: c.group_id as Ids.GroupId,
  channel: c.channel,
  name: c.name,
  photo: c.photo,
  is_owner: c.owner_id === ctx.caller.user_id,
  archived: c.archived,
  deactivated: c.deactivated
})

export const toEmployee = (ctx: RequestContext, e: Store.Employee): Community.Employee => ({
  user_id: e.user_id,
  name: ctx.store.users.get(e.user_id)?.name ?? "",
  roles: e.roles.map((key) => ({ key, title: Texts.roleTitles[key] ?? key }))
})

export const toBot = (b: Store.Bot): Bot.Bot => ({
  id: b.id as Ids.BotId,
  name: b.name,
  group_id: b.group_id as Ids.GroupId,
  channel: b.channel,
  active: b.active,
  archived: b.archived,
  activity_type: b.activity_type,
  create_at: at(b.create_at)
})

export const toBotDetails = (b: Store.Bot): Bot.BotDetails => ({
  ...toBot(b),
  public_id: b.public_id,
  can_share: b.can_share,
  is_favorite: b.is_favorite,
  time_archived: b.time_archived,
  activity_param: b.activity_param,
  subscription_ids: b.subscription_ids
})

/** A bot a subscriber is in, with the steps where the subscriber stays (R5). */
export const toSubscriberBot = (ctx: RequestContext, s: Store.BotSubscriber): Bot.SubscriberBot => ({
  id: s.bot_id as Ids.BotId,
  name: ctx.store.bots.get(s.bot_id)!.name,
  steps: s.steps.map((step) => ({
    id: step.id as Ids.StepId,
    title: step.title,
    step_entered_at: at(step.step_entered_at),
    bot_entered_at: at(s.bot_entered_at)
  }))
})

export const toMailing = (m: Store.Mailing): Mailing.Mailing => ({
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

export const toList = (l: Store.List): List.List => ({
  id: l.id as Ids.ListId,
  name: l.name,
  create_at: at(l.create_at)
})

export const toListMember = (uid: number): List.ListMember => ({ uid: uid as Ids.Uid })

export const toDefinition = (v: Store.Variable): Variable.VariableDefinition => ({
  id: v.id as Ids.VariableId,
  title: v.title,
  name: v.name,
  create_at: at(v.create_at)
})

export const toCommunityVariable = (v: Store.CommunityVariable): Variable.CommunityVariable => ({
  id: v.id as Ids.CommunityVariableId,
  title: v.title,
  name: v.name,
  value: v.value,
  create_at: at(v.create_at)
})

export const toLanding = (l: Store.Landing): Landing.Landing => ({
  id: l.id as Ids.LandingId,
  title: l.title,
  kind: l.kind,
  url: l.url,
  create_at: at(l.create_at)
})
