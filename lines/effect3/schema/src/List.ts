/**
 * Ordinary subscriber lists, as the contract assumes them for the list operations the API names
 * without showing their responses (`lists/get`, `lists/create`, `lists/rename`, `lists/getUsers`).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { UnixSeconds } from "./Dates.js"
import { ListId, Uid } from "./Ids.js"
import { VariableTitle } from "./Variable.js"

/**
 * A list's name as a parameter: 1 to 120 characters, the bound of a variable's title (assumed: the
 * spec shows no rule for list names).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListName = VariableTitle.annotations({ identifier: "ListName" })

/**
 * An ordinary list (assumed shape: id, name and creation date, as the other resources).
 *
 * @since 0.1.0
 * @category schemas
 */
export const List = Schema.Struct({
  id: ListId,
  name: Schema.String,
  create_at: UnixSeconds
}).annotations({ identifier: "List" })

/**
 * The type {@link List} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type List = typeof List.Type

/**
 * A subscriber of a list (assumed shape: the subscriber's id only).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListMember = Schema.Struct({ uid: Uid }).annotations({ identifier: "ListMember" })

/**
 * The type {@link ListMember} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type ListMember = typeof ListMember.Type
