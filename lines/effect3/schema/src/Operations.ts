/**
 * Every operation of the API, declared once and grouped by section: the documented ones and
 * the ones listed as existing without details. The sections, the methods and their flags are the
 * core's (`@community-api/core/Operations`); each section's file under `operations/` gives their
 * schemas, keyed by method; everything else derives from these values.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import * as Operation from "./Operation.js"
import { attachments } from "./operations/attachments.js"
import { bots } from "./operations/bots.js"
import { contacts } from "./operations/contacts.js"
import { funnels } from "./operations/funnels.js"
import { globalVars } from "./operations/globalVars.js"
import { groups } from "./operations/groups.js"
import { landings } from "./operations/landings.js"
import { lists } from "./operations/lists.js"
import { mailings } from "./operations/mailings.js"
import { stats } from "./operations/stats.js"
import { users } from "./operations/users.js"
import { vars } from "./operations/vars.js"

export {
  /**
   * `attachments/*`: mailing attachments.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  attachments,
  /**
   * `bots/*`: chat bots.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  bots,
  /**
   * `contacts/*`: subscribers.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  contacts,
  /**
   * `funnels/*`: funnels and their step statistics.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  funnels,
  /**
   * `globalVars/*`: community variables, one value per community.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  globalVars,
  /**
   * `groups/*`: communities and their employees.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  groups,
  /**
   * `landings/*`: mini-landings and multichannel landings.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  landings,
  /**
   * `lists/*`: ordinary subscriber lists (never the blacklist).
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  lists,
  /**
   * `mailings/*`: broadcasts.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  mailings,
  /**
   * `stats/*`: statistics; dates in their responses are strings.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  stats,
  /**
   * `users/*`: the account check.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  users,
  /**
   * `vars/*`: custom per-subscriber variables.
   * The section's declarations are the core's; these are their schemas.
   *
   * @since 0.1.0
   * @category constants
   */
  vars
}

export {
  /**
   * The pair that names a community, always sent together, and its type.
   *
   * @since 0.1.0
   * @category schemas
   */
  CommunityRef
} from "./operations/common.js"

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
 * The type of {@link sections}: each section's name with its operations, which the client's method
 * groups and the server's routes are made from.
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
 * The section names, in the spec's order: the core's, which the compiler checks are the names of
 * {@link sections}.
 *
 * @since 0.1.0
 * @category constants
 */
export const sectionNames: ReadonlyArray<SectionName> = Core.sectionNames

const operationsOf = (section: { readonly [method: string]: Operation.Any }): ReadonlyArray<Operation.Any> =>
  Object.values(section)

/**
 * The operations of a section, in the order they are declared: typed as {@link Operation.Any}, so that
 * a reader walking the sections needs no cast (every declared operation is one).
 *
 * @since 0.1.0
 * @category utils
 */
export const inSection = (name: SectionName): ReadonlyArray<Operation.Any> => operationsOf(sections[name])

/**
 * Every operation, in the spec's order of sections and each section's order of declaration: the typed
 * list that the client, the command line, the MCP server and the OpenAPI document walk.
 *
 * @since 0.1.0
 * @category constants
 */
export const all: ReadonlyArray<Operation.Any> = sectionNames.flatMap(inSection)

/**
 * The operations the spec documents in detail.
 *
 * @since 0.1.0
 * @category constants
 */
export const documented: ReadonlyArray<Operation.Any> = all.filter((op) => op.documented)

/**
 * The operations the spec lists as existing without details.
 *
 * @since 0.1.0
 * @category constants
 */
export const undocumented: ReadonlyArray<Operation.Any> = all.filter((op) => !op.documented)

/**
 * Operations by `section/method`.
 *
 * @since 0.1.0
 * @category constants
 */
export const byPath: ReadonlyMap<string, Operation.Any> = new Map(all.map((op) => [op.path, op]))

/**
 * Tells whether a section exists (for the difference between error 1 and error 3).
 *
 * @since 0.1.0
 * @category guards
 */
export const isSection: (name: string) => name is SectionName = Core.isSection
