/**
 * Communities and their employees.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { Channel } from "./Channel.js"
import { GroupId } from "./Ids.js"

/**
 * A community: an item of `groups/get`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Community = Schema.Struct({
  group_id: GroupId,
  channel: Channel,
  name: Schema.String,
  photo: Schema.String,
  is_owner: Schema.Boolean,
  archived: Schema.Boolean,
  deactivated: Schema.Boolean
}).annotations({ identifier: "Community" })

/**
 * The type {@link Community} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Community = typeof Community.Type

/**
 * Every role key, and what each gives access to.
 *
 * @since 0.1.0
 * @category constants
 */
export const roleKeys = {
  admin: "full access",
  mailer: "mailings and chat bots",
  users: "users",
  integrations: "integration management",
  stat: "statistics",
  event: "events",
  dogs: "deleting blocked members",
  crm: "dialogues"
} as const

/**
 * A permanent role key; use it for checks.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RoleKey = Schema.Literal(...(Object.keys(roleKeys) as Array<keyof typeof roleKeys>)).annotations({
  identifier: "RoleKey"
})

/**
 * The type {@link RoleKey} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type RoleKey = typeof RoleKey.Type

/**
 * A role of an employee: its key and a Russian display name that may change.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EmployeeRole = Schema.Struct({
  key: RoleKey,
  title: Schema.String
}).annotations({ identifier: "EmployeeRole" })

/**
 * The type {@link EmployeeRole} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type EmployeeRole = typeof EmployeeRole.Type

/**
 * An item of `groups/getEmployees`. Only `roles` is documented; the other fields are not shown, so
 * they are kept as they come.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Employee = Schema.Struct(
  { roles: Schema.Array(EmployeeRole) },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({ identifier: "Employee" })

/**
 * The type {@link Employee} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Employee = typeof Employee.Type
