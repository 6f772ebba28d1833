/**
 * The `Community` resources.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Primitives from "../internal/primitives.js"

/**
 * `Community`, as `@community-api/schema/Community` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Community = Schema.Struct({
  group_id: Primitives.GroupId,
  channel: Primitives.Channel,
  name: Schema.String,
  photo: Schema.String,
  is_owner: Schema.Boolean,
  archived: Schema.Boolean,
  deactivated: Schema.Boolean
}).annotate({ identifier: "Community" })

/**
 * The decoded `Community`.
 *
 * @since 0.1.0
 * @category models
 */
export type Community = typeof Community.Type

/**
 * `RoleKey`, as `@community-api/schema/Community` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RoleKey = Schema.Literals(["admin", "mailer", "users", "integrations", "stat", "event", "dogs", "crm"]).annotate({ identifier: "RoleKey" })

/**
 * The decoded `RoleKey`.
 *
 * @since 0.1.0
 * @category models
 */
export type RoleKey = typeof RoleKey.Type

/**
 * `EmployeeRole`, as `@community-api/schema/Community` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EmployeeRole = Schema.Struct({
  key: RoleKey,
  title: Schema.String
}).annotate({ identifier: "EmployeeRole" })

/**
 * The decoded `EmployeeRole`.
 *
 * @since 0.1.0
 * @category models
 */
export type EmployeeRole = typeof EmployeeRole.Type

/**
 * `Employee`, as `@community-api/schema/Community` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Employee = Schema.StructWithRest(Schema.Struct({
  roles: Schema.Array(EmployeeRole)
}), [Schema.Record(Schema.String, Schema.Unknown)]).annotate({ identifier: "Employee" })

/**
 * The decoded `Employee`.
 *
 * @since 0.1.0
 * @category models
 */
export type Employee = typeof Employee.Type

/**
 * `roleKeys`, as `@community-api/schema/Community` exports it.
 *
 * @since 0.1.0
 * @category constants
 */
export const roleKeys = {"admin":"full access","mailer":"mailings and chat bots","users":"users","integrations":"integration management","stat":"statistics","event":"events","dogs":"deleting blocked members","crm":"dialogues"} as const
