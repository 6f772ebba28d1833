/**
 * The `lists` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import { ListId, Uid } from "../Ids.js"
import { List, ListMember, ListName } from "../List.js"
import * as Operation from "../Operation.js"
import * as Page from "../Page.js"
import { CommunityRef } from "./common.js"

/**
 * `lists/*`: ordinary subscriber lists (never the blacklist).
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const lists = Operation.withSchemas(Core.lists, {
  addUser: { payload: Schema.Struct({ list_id: ListId, uid: Uid }) },
  get: {
    assumed: {
      payload: Schema.Struct({ ...CommunityRef, ...Page.PageParams }),
      success: Page.Page(List),
      reason: "A listing of a community's objects, paged and answered as the documented listings."
    }
  },
  create: {
    assumed: {
      payload: Schema.Struct({ ...CommunityRef, name: ListName }),
      success: List,
      reason: "Created in a named community with a name bounded as a variable's title; answers the new list."
    }
  },
  rename: {
    assumed: {
      payload: Schema.Struct({ list_id: ListId, name: ListName }),
      success: List,
      reason: "Names the list as lists/addUser does and takes the new name as lists/create; answers the list."
    }
  },
  getUsers: {
    assumed: {
      payload: Schema.Struct({ list_id: ListId, ...Page.PageParams }),
      success: Page.Page(ListMember),
      reason: "Names the list as lists/addUser does; its subscribers are paged as the documented listings."
    }
  },
  removeUser: {}
})
