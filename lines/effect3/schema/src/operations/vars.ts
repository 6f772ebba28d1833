/**
 * The `vars` section of the contract: its operations, keyed by method.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import { Schema } from "effect"
import { Uid, VariableId } from "../Ids.js"
import * as Operation from "../Operation.js"
import { VariableDefinition, VariableName, VariableTitle, VariableValue } from "../Variable.js"
import { CommunityRef } from "./common.js"

/**
 * `vars/*`: custom per-subscriber variables.
 * The section's declarations are the core's; these are their schemas.
 *
 * @since 0.1.0
 * @category constants
 */
export const vars = Operation.withSchemas(Core.vars, {
  list: { fields: CommunityRef, item: VariableDefinition },
  create: {
    payload: Schema.Struct({ ...CommunityRef, title: VariableTitle, name: VariableName }),
    success: VariableDefinition
  },
  get: { payload: Schema.Struct({ var_id: VariableId, uid: Uid }), success: VariableValue },
  clear: { payload: Schema.Struct({ var_id: VariableId, uid: Uid }) },
  set: {
    success: Schema.Void,
    assumed: {
      payload: Schema.Struct({ var_id: VariableId, uid: Uid, value: Schema.String }),
      reason: "The parameters of vars/get and vars/clear plus the value, a string as vars/get answers it."
    }
  }
})
