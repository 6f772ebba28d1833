/**
 * What an operation does to the data behind the API, read from the contract: whether it only reads is
 * the declaration's `reads` (the core's operation data says it once); what a write does, from its
 * creation flag and its method's verb (the API names every addition `create` or `add…`). The tool
 * annotations an assistant sees (read-only, destructive, idempotent) follow from it.
 *
 * @since 0.1.0
 */
import type { Operation } from "@community-api/schema"

/**
 * - `read`: changes nothing.
 * - `add`: adds an object or a membership, and changes or removes nothing (a creation, `lists/addUser`).
 * - `change`: changes an object in place (`bots/enable`, `vars/set`, `lists/rename`).
 * - `remove`: erases or removes something (`vars/clear`, `lists/removeUser`).
 *
 * @since 0.1.0
 */
export type Action = "read" | "add" | "change" | "remove"

/**
 * The verbs of the API's method names, by what they do. They tell the writes apart only: whether an
 * operation reads is its declaration's `reads`, whatever its name. A write whose name starts with no
 * verb of a write is taken as a `change`, which promises the least (neither read-only nor only
 * additive).
 *
 * @since 0.1.0
 */
export const verbs: { readonly [A in Action]: ReadonlyArray<string> } = {
  read: ["get", "list", "me"],
  add: ["create", "add"],
  change: ["enable", "disable", "set", "rename"],
  remove: ["clear", "remove"]
}

/** The verb a method starts with: `getById` → `get`, `addUser` → `add`. */
const verbOf = (method: string): string => /^[a-z]+/.exec(method)?.[0] ?? method

/**
 * The action of a verb, when it is one of {@link verbs}.
 *
 * @since 0.1.0
 */
export const ofVerb = (verb: string): Action | undefined =>
  (Object.keys(verbs) as Array<Action>).find((action) => verbs[action].includes(verb))

/**
 * What an operation does: a `read` when its declaration says it only reads; otherwise a creation is
 * always an `add`, and any other write what its verb says, never a `read` (a write named as a read
 * is a `change`).
 *
 * @since 0.1.0
 */
export const of = (op: Operation.Any): Action => {
  if (op.reads) return "read"
  if (op.creation) return "add"
  const action = ofVerb(verbOf(op.method))
  return action === undefined || action === "read" ? "change" : action
}

/**
 * Whether the method's name starts with a verb of {@link verbs} (a test keeps every operation so).
 *
 * @since 0.1.0
 */
export const isKnown = (op: Operation.Any): boolean => ofVerb(verbOf(op.method)) !== undefined

/**
 * The MCP tool hints of an operation: read-only for reads; destructive where it changes or removes
 * data (an addition is not: it only adds); idempotent where the contract says it is safe to repeat.
 * The API acts on real communities of social networks: an open world.
 *
 * @since 0.1.0
 */
export const hints = (op: Operation.Any): {
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  readonly openWorldHint: boolean
} => {
  const action = of(op)
  return {
    readOnlyHint: action === "read",
    destructiveHint: action === "change" || action === "remove",
    idempotentHint: op.safeToRepeat,
    openWorldHint: true
  }
}
