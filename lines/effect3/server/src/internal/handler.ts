/**
 * The shape of the handlers: one per operation of the contract, keyed by section and method, so a
 * missing or misnamed handler is a type error. A handler gets the payload the pipeline decoded with the
 * operation's own schema (E17 assumptions included: the contract carries them) and answers the
 * operation's success or one of the operation's own typed errors.
 *
 * @internal
 */
import type { ApiError, Operation, Operations } from "@community-api/schema"
import type { Effect } from "effect"
import type { RequestContext } from "./context.js"

/** The typed errors an operation's body may refuse with: those of the codes the operation declares. */
export type Refusal<Op extends Operation.Any> = ApiError.ErrorOf<Operation.Codes<Op>>

/** The body of an operation the server models. */
export type Run<Op extends Operation.Any> = (
  params: Operation.Params<Op>,
  ctx: RequestContext
) => Effect.Effect<Operation.Success<Op>, Refusal<Op>>

/** An E17 operation the server does not model: error 6 after authentication, access and limits. */
export interface NotModelled {
  readonly _tag: "NotModelled"
}

/** Marks an E17 operation as not modelled. */
export const notModelled: NotModelled = { _tag: "NotModelled" }

/**
 * The handler of an operation: a body for every operation whose payload the contract gives (documented,
 * or assumed for E17), {@link NotModelled} for the E17 operations that take any object.
 */
export type Handler<Op> = Op extends Operation.Any
  ? Op["payload"] extends typeof Operation.UnknownPayload ? NotModelled : Run<Op>
  : never

/** The handlers of one section, by method. */
export type SectionHandlers<S extends Operations.SectionName> = {
  readonly [M in keyof Operations.Sections[S]]: Handler<Operations.Sections[S][M]>
}

/** The handlers of every operation, by section and method. */
export type Handlers = { readonly [S in Operations.SectionName]: SectionHandlers<S> }

/** A handler as the pipeline calls it, the payload already decoded with the operation's schema. */
export type AnyHandler =
  | NotModelled
  | ((params: unknown, ctx: RequestContext) => Effect.Effect<unknown, ApiError.ApiError>)
