/**
 * Every section of the contract: its operations, keyed by method.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import * as Account from "./Account.js"
import * as Bot from "./Bot.js"
import * as Community from "./Community.js"
import * as Landing from "./Landing.js"
import * as List from "./List.js"
import * as Mailing from "./Mailing.js"
import * as Primitives from "../internal/primitives.js"
import * as Variable from "./Variable.js"
import * as Operation from "../Operation.js"

/**
 * `users/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const users = Operation.withSchemas(Core.users, {
  me: {
    payload: Schema.Struct({}),
    success: Account.AccountCheck
  }
})

/**
 * `groups/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const groups = Operation.withSchemas(Core.groups, {
  get: {
    payload: Schema.Struct({
      channel: Schema.optional(Primitives.Channel),
      search: Schema.optional(Schema.String.annotate({ description: "part of the name, case-insensitive" })),
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Community.Community),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Community.Community
  },
  getEmployees: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Community.Employee),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Community.Employee
  }
})

/**
 * `bots/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const bots = Operation.withSchemas(Core.bots, {
  get: {
    payload: Schema.Struct({
      group_id: Schema.optional(Primitives.GroupId),
      channel: Schema.optional(Primitives.Channel),
      active: Schema.optional(Primitives.WireIntLiteral(0, 1)),
      archived: Schema.optional(Primitives.WireIntLiteral(0, 1)),
      search: Schema.optional(Schema.String.annotate({ description: "part of the name, case-insensitive" })),
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Bot.Bot),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Bot.Bot
  },
  getById: {
    payload: Schema.Struct({
      bot_id: Primitives.BotId
    }),
    success: Bot.BotDetails
  },
  enable: {
    payload: Schema.Struct({
      bot_id: Primitives.BotId
    }),
    success: Bot.Bot
  },
  disable: {
    payload: Schema.Struct({
      bot_id: Primitives.BotId
    }),
    success: Bot.Bot
  },
  getSteps: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  addUser: {
    payload: Schema.Struct({
      bot_id: Primitives.BotId,
      uid: Primitives.Uid
    }),
    success: Schema.Void,
    assumption: "A bot and a subscriber are named as bots/getById and lists/addUser name them."
  },
  removeUser: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  }
})

/**
 * `mailings/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const mailings = Operation.withSchemas(Core.mailings, {
  get: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      status: Schema.optional(Mailing.MailingStatusParam),
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Mailing.Mailing),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Mailing.Mailing
  },
  getById: {
    payload: Schema.Struct({
      mailing_id: Primitives.MailingId
    }),
    success: Mailing.Mailing,
    assumption: "Named by its id as bots/getById names a bot; answers the mailing as mailings/get lists it."
  }
})

/**
 * `attachments/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const attachments = Operation.withSchemas(Core.attachments, {
  getById: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  }
})

/**
 * `lists/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const lists = Operation.withSchemas(Core.lists, {
  addUser: {
    payload: Schema.Struct({
      list_id: Primitives.ListId,
      uid: Primitives.Uid
    }),
    success: Schema.Void
  },
  get: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(List.List),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    assumption: "A listing of a community's objects, paged and answered as the documented listings."
  },
  create: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      name: Primitives.ListName
    }),
    success: List.List,
    assumption: "Created in a named community with a name bounded as a variable's title; answers the new list."
  },
  rename: {
    payload: Schema.Struct({
      list_id: Primitives.ListId,
      name: Primitives.ListName
    }),
    success: List.List,
    assumption: "Names the list as lists/addUser does and takes the new name as lists/create; answers the list."
  },
  getUsers: {
    payload: Schema.Struct({
      list_id: Primitives.ListId,
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(List.ListMember),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    assumption: "Names the list as lists/addUser does; its subscribers are paged as the documented listings."
  },
  removeUser: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  }
})

/**
 * `contacts/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const contacts = Operation.withSchemas(Core.contacts, {
  getBots: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      uid: Primitives.Uid,
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Bot.SubscriberBot),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Bot.SubscriberBot
  },
  getById: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  getVars: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  getLists: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  }
})

/**
 * `vars/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const vars = Operation.withSchemas(Core.vars, {
  list: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Variable.VariableDefinition),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Variable.VariableDefinition
  },
  create: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      title: Primitives.VariableTitle,
      name: Primitives.VariableName
    }),
    success: Variable.VariableDefinition
  },
  get: {
    payload: Schema.Struct({
      var_id: Primitives.VariableId,
      uid: Primitives.Uid
    }),
    success: Variable.VariableValue
  },
  clear: {
    payload: Schema.Struct({
      var_id: Primitives.VariableId,
      uid: Primitives.Uid
    }),
    success: Schema.Void
  },
  set: {
    payload: Schema.Struct({
      var_id: Primitives.VariableId,
      uid: Primitives.Uid,
      value: Schema.String
    }),
    success: Schema.Void,
    assumption: "The parameters of vars/get and vars/clear plus the value, a string as vars/get answers it."
  }
})

/**
 * `globalVars/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const globalVars = Operation.withSchemas(Core.globalVars, {
  list: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Variable.CommunityVariable),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Variable.CommunityVariable
  },
  clear: {
    payload: Schema.Struct({
      var_id: Primitives.CommunityVariableId
    }),
    success: Schema.Void
  },
  create: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      title: Primitives.VariableTitle,
      name: Primitives.VariableName,
      value: Schema.optional(Schema.String)
    }),
    success: Variable.CommunityVariable,
    assumption: "The parameters of vars/create (its rules for title and name included) plus an optional first value; answers the variable."
  },
  get: {
    payload: Schema.Struct({
      var_id: Primitives.CommunityVariableId
    }),
    success: Variable.CommunityVariable,
    assumption: "Names the variable as globalVars/clear does; answers it as globalVars/list lists it."
  },
  set: {
    payload: Schema.Struct({
      var_id: Primitives.CommunityVariableId,
      value: Schema.String
    }),
    success: Variable.CommunityVariable,
    assumption: "Names the variable as globalVars/clear does, with the new value; answers the variable."
  }
})

/**
 * `landings/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const landings = Operation.withSchemas(Core.landings, {
  get: {
    payload: Schema.Struct({
      group_id: Primitives.GroupId,
      channel: Primitives.Channel,
      count: Schema.optional(Primitives.Count),
      offset: Schema.optional(Primitives.Offset)
    }),
    success: Schema.Struct({
      items: Schema.Array(Landing.Landing),
      total: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "nonNegative", description: "a non-negative number" }))
    }),
    item: Landing.Landing
  }
})

/**
 * `funnels/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const funnels = Operation.withSchemas(Core.funnels, {
  get: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  getById: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  }
})

/**
 * `stats/*`: the section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const stats = Operation.withSchemas(Core.stats, {
  getMailingsStats: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  getMailingStats: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  getLandingsStats: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  getLandingStats: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  },
  getAdsSubscribes: {
    payload: Primitives.UnknownPayload,
    success: Schema.Unknown
  }
})

/**
 * Every section, in the contract's order.
 *
 * @since 0.1.0
 * @category constants
 */
export const sections = {
  users,
  groups,
  bots,
  mailings,
  attachments,
  lists,
  contacts,
  vars,
  globalVars,
  landings,
  funnels,
  stats
}
