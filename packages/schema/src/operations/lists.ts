/**
 * The `lists` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { ListId, Uid } from "../Ids.js"
import { List, ListMember, ListName } from "../List.js"
import * as Operation from "../Operation.js"
import * as Page from "../Page.js"
import { CommunityRef } from "./common.js"

/**
 * `lists/*`: ordinary subscriber lists (never the blacklist).
 *
 * @since 0.1.0
 * @category constants
 */
export const lists = Operation.section("lists", {
  addUser: Operation.make({
    payload: Schema.Struct({ list_id: ListId, uid: Uid }),
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E8",
    summary: "Adds a subscriber to an ordinary list."
  }),
  get: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Lists the ordinary lists of a community.",
    assumed: {
      payload: Schema.Struct({ ...CommunityRef, ...Page.PageParams }),
      success: Page.Page(List),
      reason: "A listing of a community's objects, paged and answered as the documented listings."
    }
  }),
  create: Operation.undocumented({
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    summary: "Creates a list; counts against the creation limit.",
    assumed: {
      payload: Schema.Struct({ ...CommunityRef, name: ListName }),
      success: List,
      reason: "Created in a named community with a name bounded as a variable's title; answers the new list."
    }
  }),
  rename: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Renames a list; exempt from the creation limit.",
    assumed: {
      payload: Schema.Struct({ list_id: ListId, name: ListName }),
      success: List,
      reason: "Names the list as lists/addUser does and takes the new name as lists/create; answers the list."
    }
  }),
  getUsers: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Subscribers of a list (name assumed).",
    assumed: {
      payload: Schema.Struct({ list_id: ListId, ...Page.PageParams }),
      success: Page.Page(ListMember),
      reason: "Names the list as lists/addUser does; its subscribers are paged as the documented listings."
    }
  }),
  removeUser: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Removes a subscriber from a list (name assumed)."
  })
})
