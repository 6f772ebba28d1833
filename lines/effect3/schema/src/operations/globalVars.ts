/**
 * The `globalVars` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import { CommunityVariableId } from "../Ids.js"
import * as Operation from "../Operation.js"
import { CommunityVariable, VariableName, VariableTitle } from "../Variable.js"
import { CommunityRef } from "./common.js"

/**
 * `globalVars/*`: community variables, one value per community.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const globalVars = Operation.withSchemas(Core.globalVars, {
  list: { fields: CommunityRef, item: CommunityVariable },
  clear: { payload: Schema.Struct({ var_id: CommunityVariableId }) },
  create: {
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
  },
  get: {
    assumed: {
      payload: Schema.Struct({ var_id: CommunityVariableId }),
      success: CommunityVariable,
      reason: "Names the variable as globalVars/clear does; answers it as globalVars/list lists it."
    }
  },
  set: {
    assumed: {
      payload: Schema.Struct({ var_id: CommunityVariableId, value: Schema.String }),
      success: CommunityVariable,
      reason: "Names the variable as globalVars/clear does, with the new value; answers the variable."
    }
  }
})
