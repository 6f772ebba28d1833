/**
 * The shape of the handler record: one entry per operation path of the contract, checked by the
 * compiler against the operation's parameters and success. Documented operations get a function;
 * E17 operations (parameters not shown) get either an assumed behaviour with an assumed payload, or
 * "not modelled" (error 6).
 *
 * @internal
 */
import type { ApiError, Operation, Operations } from "@community-api/schema"
import type { Effect, Schema } from "effect"
import type { RequestContext } from "./context.js"

type Sections = Operations.Sections

/** Every operation value of the contract, as a union. */
export type AnyOp = { [S in keyof Sections]: Sections[S][keyof Sections[S]] }[keyof Sections]

/** Every `section/method` path. */
export type Path = AnyOp["path"]

/** The operation at a path. */
export type OpAt<P extends Path> = Extract<AnyOp, { readonly path: P }>

/** An E17 operation the server models with an assumed payload and behaviour. */
export interface Assumed {
  readonly _tag: "Assumed"
  readonly payload: Schema.Schema<any, any>
  readonly run: (params: any, ctx: RequestContext) => Effect.Effect<unknown, ApiError.ApiError>
}

/** An E17 operation the server does not model: error 6 after authentication, access and limits. */
export interface NotModelled {
  readonly _tag: "NotModelled"
}

/** Declares an assumed E17 behaviour; `run` is typed by `payload`. */
export const assumed = <A, I>(
  payload: Schema.Schema<A, I>,
  run: (params: A, ctx: RequestContext) => Effect.Effect<unknown, ApiError.ApiError>
): Assumed => ({ _tag: "Assumed", payload, run })

/** Marks an E17 operation as not modelled. */
export const notModelled: NotModelled = { _tag: "NotModelled" }

/** A documented operation's handler. */
export type Documented<Op extends Operation.Any> = (
  params: Operation.Params<Op>,
  ctx: RequestContext
) => Effect.Effect<Operation.Success<Op>, ApiError.ApiError>

/** The handler of the operation at a path. */
export type Handler<P extends Path> = OpAt<P>["payload"] extends typeof Operation.UnknownPayload ? Assumed | NotModelled
  : Documented<OpAt<P>>

/** Handlers of every operation. */
export type Handlers = { readonly [P in Path]: Handler<P> }
