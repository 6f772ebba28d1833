/**
 * The handlers of each section, one module per section: the namespace of this module, keyed by
 * section name, is the table of every handler (`index.ts`). The sections' order is the contract's
 * (`Operations.sections`), not repeated here.
 *
 * @internal
 */
import { attachments } from "./attachments.js"
import { bots } from "./bots.js"
import { contacts } from "./contacts.js"
import { funnels } from "./funnels.js"
import { globalVars } from "./globalVars.js"
import { groups } from "./groups.js"
import { landings } from "./landings.js"
import { lists } from "./lists.js"
import { mailings } from "./mailings.js"
import { stats } from "./stats.js"
import { users } from "./users.js"
import { vars } from "./vars.js"

export { attachments, bots, contacts, funnels, globalVars, groups, landings, lists, mailings, stats, users, vars }
