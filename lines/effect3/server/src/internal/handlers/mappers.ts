/**
 * From the store's records to the contract's resources. Handlers answer these values and the
 * envelope encodes them with the operation's success schema, so what goes on the wire is exactly what
 * the contract says (dates as unix seconds, ids as strings).
 *
 * @internal
 */
import type { Bot, Community, Ids, Landing, List, Mailing, Variable } from "@community-api/schema"
import { DateTime, Struct } from "effect"
import type { RequestContext } from "../context.js"
import type * as Store from "../store.js"
import * as Texts from "../texts.js"

/** A store time (unix seconds) as the contract's date. */
export const at = (seconds: number): DateTime.Utc => DateTime.unsafeMake(seconds * 1000)

/**
 * What every stored object carries, as the contract has it: its id (a string in the store, the
 * resource's own id type in the contract) and its creation time. The other fields a resource shares
 * with its record are picked as they are.
 */
const created = <Id extends string>(record: { readonly id: string; readonly create_at: number }) => ({
  id: record.id as Id,
  create_at: at(record.create_at)
})

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
  ...created<Ids.BotId>(b),
  ...Struct.pick(b, "name", "channel", "active", "archived", "activity_type"),
  group_id: b.group_id as Ids.GroupId
})

export const toBotDetails = (b: Store.Bot): Bot.BotDetails => ({
  ...toBot(b),
  ...Struct.pick(b, "public_id", "can_share", "is_favorite", "time_archived", "activity_param", "subscription_ids")
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
  ...created<Ids.MailingId>(m),
  ...Struct.pick(m, "title", "type", "status", "count", "delivered", "no_delivered"),
  status_name: Texts.statusNames[m.status] ?? "",
  archived: m.status === 6,
  date_send: at(m.date_send)
})

export const toList = (l: Store.List): List.List => ({ ...created<Ids.ListId>(l), name: l.name })

export const toListMember = (uid: number): List.ListMember => ({ uid: uid as Ids.Uid })

export const toDefinition = (v: Store.Variable): Variable.VariableDefinition => ({
  ...created<Ids.VariableId>(v),
  ...Struct.pick(v, "title", "name")
})

export const toCommunityVariable = (v: Store.CommunityVariable): Variable.CommunityVariable => ({
  ...created<Ids.CommunityVariableId>(v),
  ...Struct.pick(v, "title", "name", "value")
})

export const toLanding = (l: Store.Landing): Landing.Landing => ({
  ...created<Ids.LandingId>(l),
  ...Struct.pick(l, "title", "kind", "url")
})
