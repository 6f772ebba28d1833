/**
 * What an operation does to the data behind the API, read from the contract: its method's verb (the
 * API names every read `get…`, `list` or `me`, every addition `create` or `add…`), its creation flag
 * and its safe-to-repeat flag. The tool annotations an assistant sees (read-only, destructive,
 * idempotent) follow from it.
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
 * The verbs of the API's method names, by what they do. A method whose name starts with none of them
 * is taken as a `change`, which promises the least (neither read-only nor only additive).
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
 * What an operation does. A creation is always an `add`, whatever its name says.
 *
 * @since 0.1.0
 */
export const of = (op: Operation.Any): Action => op.creation ? "add" : ofVerb(verbOf(op.method)) ?? "change"

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
