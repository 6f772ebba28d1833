/**
 * Every operation of the API, declared once and grouped by section: the documented ones (E1–E16) and
 * the ones listed as existing without details (E17). Everything else derives from these values.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { AccountCheck } from "./Account.js"
import { Bot, BotDetails, SubscriberBot } from "./Bot.js"
import { Channel } from "./Channel.js"
import { Community, Employee } from "./Community.js"
import { BotId, CommunityVariableId, GroupId, ListId, Uid, VariableId } from "./Ids.js"
import { Landing } from "./Landing.js"
import { Mailing, MailingStatusParam } from "./Mailing.js"
import * as Operation from "./Operation.js"
import { CommunityVariable, VariableDefinition, VariableName, VariableTitle, VariableValue } from "./Variable.js"
import { WireIntLiteral } from "./Wire.js"

/**
 * The pair that names a community, always sent together (C8).
 *
 * @since 0.1.0
 */
export const CommunityRef = {
  group_id: GroupId,
  channel: Channel
}

/**
 * A community reference as code passes it.
 *
 * @since 0.1.0
 */
export type CommunityRef = Schema.Struct.Type<typeof CommunityRef>

const Flag = WireIntLiteral(0, 1)
const Search = Schema.String.annotations({ description: "part of the name, case-insensitive" })

/**
 * `users/*`: the account check.
 *
 * @since 0.1.0
 */
export const users = {
  me: Operation.make({
    section: "users",
    method: "me",
    payload: Schema.Struct({}),
    success: AccountCheck,
    errors: [],
    roleGroup: "none",
    safeToRepeat: true,
    rule: "E1",
    summary: "Checks the token and tells whose it is."
  })
}

/**
 * `groups/*`: communities and their employees.
 *
 * @since 0.1.0
 */
export const groups = {
  get: Operation.list({
    section: "groups",
    method: "get",
    fields: { channel: Schema.optional(Channel), search: Schema.optional(Search) },
    item: Community,
    errors: [7],
    roleGroup: "none",
    rule: "E2",
    summary: "Lists the caller's own communities and those where the caller is an employee, newest connected first."
  }),
  getEmployees: Operation.list({
    section: "groups",
    method: "getEmployees",
    fields: CommunityRef,
    item: Employee,
    errors: [7, 8],
    roleGroup: "admin",
    rule: "E3",
    summary: "Lists the employees of a community and their roles, newest added first; the owner is not listed."
  })
}

/**
 * `bots/*`: chat bots.
 *
 * @since 0.1.0
 */
export const bots = {
  get: Operation.list({
    section: "bots",
    method: "get",
    fields: {
      group_id: Schema.optional(GroupId),
      channel: Schema.optional(Channel),
      active: Schema.optional(Flag),
      archived: Schema.optional(Flag),
      search: Schema.optional(Search)
    },
    item: Bot,
    errors: [7, 8],
    roleGroup: "mailer",
    rule: "E4",
    summary: "Lists the bots of one community, or of every community whose bots section is open to the caller."
  }),
  getById: Operation.make({
    section: "bots",
    method: "getById",
    payload: Schema.Struct({ bot_id: BotId }),
    success: BotDetails,
    errors: [7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    rule: "E5",
    summary: "Gets one bot with its details."
  }),
  enable: Operation.make({
    section: "bots",
    method: "enable",
    payload: Schema.Struct({ bot_id: BotId }),
    success: Bot,
    errors: [6, 7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    rule: "E6",
    summary: "Enables a bot (active 0 to 1) and returns it."
  }),
  disable: Operation.make({
    section: "bots",
    method: "disable",
    payload: Schema.Struct({ bot_id: BotId }),
    success: Bot,
    errors: [7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    rule: "E6",
    summary: "Disables a bot (active 1 to 0) and returns it."
  }),
  getSteps: Operation.undocumented({
    section: "bots",
    method: "getSteps",
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Steps of a bot (name assumed)."
  }),
  addUser: Operation.undocumented({
    section: "bots",
    method: "addUser",
    roleGroup: "mailer",
    success: Schema.Void,
    safeToRepeat: false,
    summary: "Adds a subscriber to a bot."
  }),
  removeUser: Operation.undocumented({
    section: "bots",
    method: "removeUser",
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Removes a subscriber from a bot (name assumed)."
  })
}

/**
 * `mailings/*`: broadcasts.
 *
 * @since 0.1.0
 */
export const mailings = {
  get: Operation.list({
    section: "mailings",
    method: "get",
    fields: { ...CommunityRef, status: Schema.optional(MailingStatusParam) },
    item: Mailing,
    errors: [7, 8],
    roleGroup: "mailer",
    rule: "E7",
    summary: "Lists the mailings of a community, optionally of one status."
  }),
  getById: Operation.undocumented({
    section: "mailings",
    method: "getById",
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "One mailing by id (name assumed)."
  })
}

/**
 * `attachments/*`: mailing attachments.
 *
 * @since 0.1.0
 */
export const attachments = {
  getById: Operation.undocumented({
    section: "attachments",
    method: "getById",
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Link to a mailing attachment file."
  })
}

/**
 * `lists/*`: ordinary subscriber lists (never the blacklist, R11).
 *
 * @since 0.1.0
 */
export const lists = {
  addUser: Operation.make({
    section: "lists",
    method: "addUser",
    payload: Schema.Struct({ list_id: ListId, uid: Uid }),
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E8",
    summary: "Adds a subscriber to an ordinary list."
  }),
  get: Operation.undocumented({
    section: "lists",
    method: "get",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Lists the ordinary lists of a community."
  }),
  create: Operation.undocumented({
    section: "lists",
    method: "create",
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    summary: "Creates a list; counts against the creation limit."
  }),
  rename: Operation.undocumented({
    section: "lists",
    method: "rename",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Renames a list; exempt from the creation limit."
  }),
  getUsers: Operation.undocumented({
    section: "lists",
    method: "getUsers",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Subscribers of a list (name assumed)."
  }),
  removeUser: Operation.undocumented({
    section: "lists",
    method: "removeUser",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Removes a subscriber from a list (name assumed)."
  })
}

/**
 * `contacts/*`: subscribers.
 *
 * @since 0.1.0
 */
export const contacts = {
  getBots: Operation.list({
    section: "contacts",
    method: "getBots",
    fields: { ...CommunityRef, uid: Uid },
    item: SubscriberBot,
    errors: [7, 8],
    roleGroup: "users",
    rule: "E9",
    summary: "Lists the bots of the community that currently work with a subscriber."
  }),
  getById: Operation.undocumented({
    section: "contacts",
    method: "getById",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Subscriber card (name assumed)."
  }),
  getVars: Operation.undocumented({
    section: "contacts",
    method: "getVars",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Variables of a subscriber (name assumed)."
  }),
  getLists: Operation.undocumented({
    section: "contacts",
    method: "getLists",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Lists of a subscriber (name assumed)."
  })
}

/**
 * `vars/*`: custom per-subscriber variables.
 *
 * @since 0.1.0
 */
export const vars = {
  list: Operation.list({
    section: "vars",
    method: "list",
    fields: CommunityRef,
    item: VariableDefinition,
    errors: [7, 8],
    roleGroup: "users",
    rule: "E10",
    summary: "Lists the custom variable definitions of a community."
  }),
  create: Operation.make({
    section: "vars",
    method: "create",
    payload: Schema.Struct({ ...CommunityRef, title: VariableTitle, name: VariableName }),
    success: VariableDefinition,
    errors: [5, 7, 8],
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    rule: "E11",
    summary: "Creates a custom variable; counts against the creation limit."
  }),
  get: Operation.make({
    section: "vars",
    method: "get",
    payload: Schema.Struct({ var_id: VariableId, uid: Uid }),
    success: VariableValue,
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E12",
    summary: "Gets the value of a custom variable for one subscriber."
  }),
  clear: Operation.make({
    section: "vars",
    method: "clear",
    payload: Schema.Struct({ var_id: VariableId, uid: Uid }),
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E13",
    summary: "Erases the value of a custom variable for one subscriber."
  }),
  set: Operation.undocumented({
    section: "vars",
    method: "set",
    roleGroup: "users",
    success: Schema.Void,
    safeToRepeat: true,
    summary: "Sets the value of a custom variable for one subscriber."
  })
}

/**
 * `globalVars/*`: community variables, one value per community.
 *
 * @since 0.1.0
 */
export const globalVars = {
  list: Operation.list({
    section: "globalVars",
    method: "list",
    fields: CommunityRef,
    item: CommunityVariable,
    errors: [7, 8],
    roleGroup: "users",
    rule: "E14",
    summary: "Lists the community variables of a community."
  }),
  clear: Operation.make({
    section: "globalVars",
    method: "clear",
    payload: Schema.Struct({ var_id: CommunityVariableId }),
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E15",
    summary: "Erases the value of a community variable."
  }),
  create: Operation.undocumented({
    section: "globalVars",
    method: "create",
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    summary: "Creates a community variable; counts against the creation limit."
  }),
  get: Operation.undocumented({
    section: "globalVars",
    method: "get",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Gets a community variable."
  }),
  set: Operation.undocumented({
    section: "globalVars",
    method: "set",
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Sets the value of a community variable."
  })
}

/**
 * `landings/*`: mini-landings and multichannel landings.
 *
 * @since 0.1.0
 */
export const landings = {
  get: Operation.list({
    section: "landings",
    method: "get",
    fields: CommunityRef,
    item: Landing,
    errors: [7, 8],
    roleGroup: "any",
    rule: "E16",
    summary: "Lists the landings of a community."
  })
}

/**
 * `funnels/*`: funnels and their step statistics.
 *
 * @since 0.1.0
 */
export const funnels = {
  get: Operation.undocumented({
    section: "funnels",
    method: "get",
    roleGroup: "any",
    safeToRepeat: true,
    summary: "Lists funnels (name assumed)."
  }),
  getById: Operation.undocumented({
    section: "funnels",
    method: "getById",
    roleGroup: "any",
    safeToRepeat: true,
    summary: "One funnel with step statistics (name assumed)."
  })
}

/**
 * `stats/*`: statistics; dates in their responses are strings (C11).
 *
 * @since 0.1.0
 */
export const stats = {
  getMailingsStats: Operation.undocumented({
    section: "stats",
    method: "getMailingsStats",
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Statistics of mailings."
  }),
  getMailingStats: Operation.undocumented({
    section: "stats",
    method: "getMailingStats",
    roleGroup: "mailer",
    safeToRepeat: true,
    summary: "Statistics of one mailing."
  }),
  getLandingsStats: Operation.undocumented({
    section: "stats",
    method: "getLandingsStats",
    roleGroup: "stat",
    safeToRepeat: true,
    summary: "Statistics of landings."
  }),
  getLandingStats: Operation.undocumented({
    section: "stats",
    method: "getLandingStats",
    roleGroup: "stat",
    safeToRepeat: true,
    summary: "Statistics of one landing."
  }),
  getAdsSubscribes: Operation.undocumented({
    section: "stats",
    method: "getAdsSubscribes",
    roleGroup: "stat",
    safeToRepeat: true,
    summary: "Subscriptions from ads, over communities whose statistics section is open to the caller."
  })
}

/**
 * Every section and its operations.
 *
 * @since 0.1.0
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
} as const

/**
 * @since 0.1.0
 */
export type Sections = typeof sections

/**
 * A section name.
 *
 * @since 0.1.0
 */
export type SectionName = keyof Sections

/**
 * Every operation, documented ones first in the spec's order of sections.
 *
 * @since 0.1.0
 */
export const all: ReadonlyArray<Operation.Any> = Object.values(sections).flatMap((section) =>
  Object.values(section) as Array<Operation.Any>
)

/**
 * The operations E1–E16 detail.
 *
 * @since 0.1.0
 */
export const documented: ReadonlyArray<Operation.Any> = all.filter((op) => op.documented)

/**
 * The operations E17 lists without details.
 *
 * @since 0.1.0
 */
export const undocumented: ReadonlyArray<Operation.Any> = all.filter((op) => !op.documented)

/**
 * Operations by `section/method`.
 *
 * @since 0.1.0
 */
export const byPath: ReadonlyMap<string, Operation.Any> = new Map(all.map((op) => [op.path, op]))

/**
 * Tells whether a section exists (for the difference between error 1 and error 3, V3).
 *
 * @since 0.1.0
 */
export const isSection = (name: string): name is SectionName => Object.hasOwn(sections, name)
