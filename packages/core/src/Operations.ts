/**
 * Every operation of the API as plain declarations, grouped by section: the documented ones and the
 * ones listed as existing without details. The keys name the sections and the methods; the flags, the
 * error codes, who may call each and the rule that describes it are written here once, and each
 * Effect line gives these declarations its schemas of the parameters and the answer.
 *
 * @since 0.1.0
 */
import * as Operation from "./Operation.js"

/**
 * `users/*`: the account check.
 *
 * @since 0.1.0
 * @category constants
 */
export const users = Operation.section("users", {
  me: Operation.make({
    errors: [],
    roleGroup: "none",
    safeToRepeat: true,
    reads: true,
    rule: "E1",
    summary: "Checks the token and tells whose it is."
  })
})

/**
 * `groups/*`: communities and their employees.
 *
 * @since 0.1.0
 * @category constants
 */
export const groups = Operation.section("groups", {
  get: Operation.list({
    errors: [7],
    roleGroup: "none",
    rule: "E2",
    summary: "Lists the caller's own communities and those where the caller is an employee, newest connected first."
  }),
  getEmployees: Operation.list({
    errors: [7, 8],
    roleGroup: "admin",
    rule: "E3",
    summary: "Lists the employees of a community and their roles, newest added first; the owner is not listed."
  })
})

/**
 * `bots/*`: chat bots.
 *
 * @since 0.1.0
 * @category constants
 */
export const bots = Operation.section("bots", {
  get: Operation.list({
    errors: [7, 8],
    roleGroup: "mailer",
    rule: "E4",
    summary: "Lists the bots of one community, or of every community whose bots section is open to the caller."
  }),
  getById: Operation.make({
    errors: [7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: true,
    rule: "E5",
    summary: "Gets one bot with its details."
  }),
  enable: Operation.make({
    errors: [6, 7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: false,
    rule: "E6",
    summary: "Enables a bot (active 0 to 1) and returns it."
  }),
  disable: Operation.make({
    errors: [7, 8],
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: false,
    rule: "E6",
    summary: "Disables a bot (active 1 to 0) and returns it."
  }),
  getSteps: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: true,
    summary: "Steps of a bot (name assumed)."
  }),
  addUser: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: false,
    reads: false,
    summary: "Adds a subscriber to a bot."
  }),
  removeUser: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: false,
    summary: "Removes a subscriber from a bot (name assumed)."
  })
})

/**
 * `mailings/*`: broadcasts.
 *
 * @since 0.1.0
 * @category constants
 */
export const mailings = Operation.section("mailings", {
  get: Operation.list({
    errors: [7, 8],
    roleGroup: "mailer",
    rule: "E7",
    summary: "Lists the mailings of a community, optionally of one status."
  }),
  getById: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: true,
    summary: "One mailing by id (name assumed)."
  })
})

/**
 * `attachments/*`: mailing attachments.
 *
 * @since 0.1.0
 * @category constants
 */
export const attachments = Operation.section("attachments", {
  getById: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: true,
    summary: "Link to a mailing attachment file."
  })
})

/**
 * `lists/*`: ordinary subscriber lists (never the blacklist).
 *
 * @since 0.1.0
 * @category constants
 */
export const lists = Operation.section("lists", {
  addUser: Operation.make({
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    reads: false,
    rule: "E8",
    summary: "Adds a subscriber to an ordinary list."
  }),
  get: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: true,
    summary: "Lists the ordinary lists of a community."
  }),
  create: Operation.undocumented({
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    summary: "Creates a list; counts against the creation limit."
  }),
  rename: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: false,
    summary: "Renames a list; exempt from the creation limit."
  }),
  getUsers: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: true,
    summary: "Subscribers of a list (name assumed)."
  }),
  removeUser: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: false,
    summary: "Removes a subscriber from a list (name assumed)."
  })
})

/**
 * `contacts/*`: subscribers.
 *
 * @since 0.1.0
 * @category constants
 */
export const contacts = Operation.section("contacts", {
  getBots: Operation.list({
    errors: [7, 8],
    roleGroup: "users",
    rule: "E9",
    summary: "Lists the bots of the community that currently work with a subscriber."
  }),
  getById: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: true,
    summary: "Subscriber card (name assumed)."
  }),
  getVars: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: true,
    summary: "Variables of a subscriber (name assumed)."
  }),
  getLists: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: true,
    summary: "Lists of a subscriber (name assumed)."
  })
})

/**
 * `vars/*`: custom per-subscriber variables.
 *
 * @since 0.1.0
 * @category constants
 */
export const vars = Operation.section("vars", {
  list: Operation.list({
    errors: [7, 8],
    roleGroup: "users",
    rule: "E10",
    summary: "Lists the custom variable definitions of a community."
  }),
  create: Operation.make({
    errors: [5, 7, 8],
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    rule: "E11",
    summary: "Creates a custom variable; counts against the creation limit."
  }),
  get: Operation.make({
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    reads: true,
    rule: "E12",
    summary: "Gets the value of a custom variable for one subscriber."
  }),
  clear: Operation.make({
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    reads: false,
    rule: "E13",
    summary: "Erases the value of a custom variable for one subscriber."
  }),
  set: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: false,
    summary: "Sets the value of a custom variable for one subscriber."
  })
})

/**
 * `globalVars/*`: community variables, one value per community.
 *
 * @since 0.1.0
 * @category constants
 */
export const globalVars = Operation.section("globalVars", {
  list: Operation.list({
    errors: [7, 8],
    roleGroup: "users",
    rule: "E14",
    summary: "Lists the community variables of a community."
  }),
  clear: Operation.make({
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    reads: false,
    rule: "E15",
    summary: "Erases the value of a community variable."
  }),
  create: Operation.undocumented({
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    summary: "Creates a community variable; counts against the creation limit."
  }),
  get: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: true,
    summary: "Gets a community variable."
  }),
  set: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    reads: false,
    summary: "Sets the value of a community variable."
  })
})

/**
 * `landings/*`: mini-landings and multichannel landings.
 *
 * @since 0.1.0
 * @category constants
 */
export const landings = Operation.section("landings", {
  get: Operation.list({
    errors: [7, 8],
    roleGroup: "any",
    rule: "E16",
    summary: "Lists the landings of a community."
  })
})

/**
 * `funnels/*`: funnels and their step statistics.
 *
 * @since 0.1.0
 * @category constants
 */
export const funnels = Operation.section("funnels", {
  get: Operation.undocumented({
    roleGroup: "any",
    safeToRepeat: true,
    reads: true,
    summary: "Lists funnels (name assumed)."
  }),
  getById: Operation.undocumented({
    roleGroup: "any",
    safeToRepeat: true,
    reads: true,
    summary: "One funnel with step statistics (name assumed)."
  })
})

/**
 * `stats/*`: statistics; dates in their responses are strings.
 *
 * @since 0.1.0
 * @category constants
 */
export const stats = Operation.section("stats", {
  getMailingsStats: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: true,
    summary: "Statistics of mailings."
  }),
  getMailingStats: Operation.undocumented({
    roleGroup: "mailer",
    safeToRepeat: true,
    reads: true,
    summary: "Statistics of one mailing."
  }),
  getLandingsStats: Operation.undocumented({
    roleGroup: "stat",
    safeToRepeat: true,
    reads: true,
    summary: "Statistics of landings."
  }),
  getLandingStats: Operation.undocumented({
    roleGroup: "stat",
    safeToRepeat: true,
    reads: true,
    summary: "Statistics of one landing."
  }),
  getAdsSubscribes: Operation.undocumented({
    roleGroup: "stat",
    safeToRepeat: true,
    reads: true,
    summary: "Subscriptions from ads, over communities whose statistics section is open to the caller."
  })
})

/**
 * Every section and its operations, in the spec's order of sections. The compiler checks that each
 * key is the section its operations were declared in.
 *
 * @since 0.1.0
 * @category constants
 */
export const sections = Operation.sections({
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
})

/**
 * The type of {@link sections}: each section's name with its operations' declarations, which both
 * lines' schemas and clients map over to make their operations and method groups.
 *
 * @since 0.1.0
 * @category models
 */
export type Sections = typeof sections

/**
 * A section name.
 *
 * @since 0.1.0
 * @category models
 */
export type SectionName = keyof Sections

/**
 * Tells whether a section exists (for the difference between error 1 and error 3).
 *
 * @since 0.1.0
 * @category guards
 */
export const isSection = (name: string): name is SectionName => Object.hasOwn(sections, name)

/**
 * The section names, in the spec's order.
 *
 * @since 0.1.0
 * @category constants
 */
export const sectionNames: ReadonlyArray<SectionName> = Object.keys(sections).filter(isSection)

const operationsOf = (section: Operation.AnySection): ReadonlyArray<Operation.Any> => Object.values(section)

/**
 * Every operation, in the spec's order of sections and each section's order of declaration.
 *
 * @since 0.1.0
 * @category constants
 */
export const all: ReadonlyArray<Operation.Any> = sectionNames.flatMap((name) => operationsOf(sections[name]))

/**
 * Whether an operation only reads, as its declaration says: what sends only reads (`record`,
 * `verify`) and what marks a tool read-only ask this, never the method's name.
 *
 * @since 0.1.0
 * @category guards
 */
export const onlyReads = (op: Pick<Operation.AnyDeclaration, "reads">): boolean => op.reads

/**
 * The operations that only read, in the order of {@link all}.
 *
 * @since 0.1.0
 * @category constants
 */
export const reading: ReadonlyArray<Operation.Any> = all.filter(onlyReads)
