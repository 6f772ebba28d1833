/**
 * Every operation's body, by section and method: the only part of the server written per operation.
 * Routing, decoding, authentication, access, limits and envelopes are derived from the contract in the
 * pipeline (`engine.ts`).
 *
 * @internal
 */
import type { Operation } from "@community-api/schema"
import { Operations } from "@community-api/schema"
import type { AnyHandler, Handlers } from "../handler.js"
import * as sections from "./sections.js"

/** Every handler, keyed as the contract's sections are: a missing one does not compile. */
export const handlers: Handlers = sections

/**
 * The handlers by operation, for the pipeline: it decodes each payload with the operation's own
 * schema before calling, so a handler always gets the parameters its type says.
 */
const byOperation = new Map<Operation.Any, AnyHandler>(
  Operations.all.map((op) => [
    op,
    (handlers as unknown as Record<string, Record<string, AnyHandler>>)[op.section]![op.method]!
  ])
)

/** The handler of an operation of the contract; `undefined` for any other value. */
export const handlerOf = (op: Operation.Any): AnyHandler | undefined => byOperation.get(op)
