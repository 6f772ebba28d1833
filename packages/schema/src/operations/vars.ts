/**
 * The `vars` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Uid, VariableId } from "../Ids.js"
import * as Operation from "../Operation.js"
import { VariableDefinition, VariableName, VariableTitle, VariableValue } from "../Variable.js"
import { CommunityRef } from "./common.js"

/**
 * `vars/*`: custom per-subscriber variables.
 *
 * @since 0.1.0
 * @category constants
 */
export const vars = Operation.section("vars", {
  list: Operation.list({
    fields: CommunityRef,
    item: VariableDefinition,
    errors: [7, 8],
    roleGroup: "users",
    rule: "E10",
    summary: "Lists the custom variable definitions of a community."
  }),
  create: Operation.make({
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
    payload: Schema.Struct({ var_id: VariableId, uid: Uid }),
    success: VariableValue,
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E12",
    summary: "Gets the value of a custom variable for one subscriber."
  }),
  clear: Operation.make({
    payload: Schema.Struct({ var_id: VariableId, uid: Uid }),
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E13",
    summary: "Erases the value of a custom variable for one subscriber."
  }),
  set: Operation.undocumented({
    roleGroup: "users",
    success: Schema.Void,
    safeToRepeat: true,
    summary: "Sets the value of a custom variable for one subscriber.",
    assumed: {
      payload: Schema.Struct({ var_id: VariableId, uid: Uid, value: Schema.String }),
      reason: "The parameters of vars/get and vars/clear plus the value, a string as vars/get answers it."
    }
  })
})
