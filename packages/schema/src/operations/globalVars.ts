/**
 * The `globalVars` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { CommunityVariableId } from "../Ids.js"
import * as Operation from "../Operation.js"
import { CommunityVariable, VariableName, VariableTitle } from "../Variable.js"
import { CommunityRef } from "./common.js"

/**
 * `globalVars/*`: community variables, one value per community.
 *
 * @since 0.1.0
 * @category constants
 */
export const globalVars = Operation.section("globalVars", {
  list: Operation.list({
    fields: CommunityRef,
    item: CommunityVariable,
    errors: [7, 8],
    roleGroup: "users",
    rule: "E14",
    summary: "Lists the community variables of a community."
  }),
  clear: Operation.make({
    payload: Schema.Struct({ var_id: CommunityVariableId }),
    errors: [7, 8],
    roleGroup: "users",
    safeToRepeat: true,
    rule: "E15",
    summary: "Erases the value of a community variable."
  }),
  create: Operation.undocumented({
    roleGroup: "users",
    creation: true,
    safeToRepeat: false,
    summary: "Creates a community variable; counts against the creation limit.",
    assumed: {
      payload: Schema.Struct({
        ...CommunityRef,
        title: VariableTitle,
        name: VariableName,
        value: Schema.optional(Schema.String)
      }),
      success: CommunityVariable,
      reason: "The parameters of vars/create (its rules for title and name included) plus an optional first value; " +
        "answers the variable."
    }
  }),
  get: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Gets a community variable.",
    assumed: {
      payload: Schema.Struct({ var_id: CommunityVariableId }),
      success: CommunityVariable,
      reason: "Names the variable as globalVars/clear does; answers it as globalVars/list lists it."
    }
  }),
  set: Operation.undocumented({
    roleGroup: "users",
    safeToRepeat: true,
    summary: "Sets the value of a community variable.",
    assumed: {
      payload: Schema.Struct({ var_id: CommunityVariableId, value: Schema.String }),
      success: CommunityVariable,
      reason: "Names the variable as globalVars/clear does, with the new value; answers the variable."
    }
  })
})
