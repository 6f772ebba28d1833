/**
 * One operation of the API on the Effect 4 line: the core's declaration of it (section, method,
 * error codes, who may call it, whether it creates and may be sent again) with its schemas: the
 * parameters, what `response` holds on success, and for a list the schema of one item. The schemas
 * of every operation are generated from the Effect 3 line's (`generated/Sections.ts`); this module
 * only joins them to the declarations.
 *
 * @since 0.1.0
 */
import * as CoreOperation from "@community-api/core/Operation"
import * as WireJsonSchema from "@community-api/core/WireJsonSchema"
import { Schema } from "effect"
import type * as ApiError from "./ApiError.js"
import * as JsonSchema from "./internal/jsonSchema.js"
import * as Primitives from "./internal/primitives.js"

export type {
  /**
   * What a person or an assistant is told of an operation, in plain words (never a rule ID of the spec):
   * each surface that describes operations (the command line's help, the MCP tools) reads these pieces
   * and adds only its own framing.
   *
   * @since 0.1.0
   * @category models
   */
  Description,
  /**
   * Where an operation lives.
   *
   * @since 0.1.0
   * @category models
   */
  Location,
  /**
   * Who may call an operation in a community. The owner and `admin` may always call it.
   *
   * - `mailer`, `users`, `stat`: employees with that role, in the community's own channel.
   * - `admin`: the owner and `admin` only.
   * - `any`: the owner and employees with any role.
   * - `none`: any valid token; the operation is not about one community.
   *
   * @since 0.1.0
   * @category models
   */
  RoleGroup
} from "@community-api/core/Operation"

/**
 * The words every surface says of an operation.
 *
 * @since 0.1.0
 * @category utils
 */
export const describe = CoreOperation.describe

/**
 * The parameters of an operation the API lists without showing them: any names, any values.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UnknownPayload = Primitives.UnknownPayload

/**
 * An operation: where it is, what the core declares of it, and its schemas.
 *
 * @since 0.1.0
 * @category models
 */
export interface Operation<
  out Section extends string,
  out Method extends string,
  out Payload extends Schema.Top,
  out Success extends Schema.Top,
  out Code extends ApiError.ErrorCode,
  out Item extends Schema.Top | undefined = undefined,
  out Creation extends boolean = boolean,
  out Safe extends boolean = boolean
> extends Omit<CoreOperation.Declaration<Code, Creation, Safe>, "pageable">, CoreOperation.Location<Section, Method> {
  /** The parameters, with every documented constraint; encodes to the JSON body. */
  readonly payload: Payload
  /** What `response` holds on success; `Schema.Void` when there is no `response` field. */
  readonly success: Success
  /** `false` when a success is `{status: 'ok'}` with no `response` field. */
  readonly hasResponse: boolean
  /** For a list operation: the schema of one item; the success is then a page of them. */
  readonly item: Item
  /** For an undocumented operation whose schemas are assumed: why they are what they are. */
  readonly assumption?: string | undefined
}

/**
 * Any operation.
 *
 * @since 0.1.0
 * @category models
 */
export interface Any
  extends Operation<string, string, Schema.Top, Schema.Top, ApiError.ErrorCode, Schema.Top | undefined>
{}

/**
 * The decoded parameters of an operation.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Params<Op extends Any> = Op["payload"]["Type"]

/**
 * The parameters of an operation as the wire carries them.
 *
 * @since 0.1.0
 * @category type-level
 */
export type EncodedParams<Op extends Any> = Op["payload"]["Encoded"]

/**
 * The decoded success of an operation.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Success<Op extends Any> = Op["success"]["Type"]

/**
 * The decoded item of a list operation.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Item<Op extends Any> = Op["item"] extends Schema.Top ? Op["item"]["Type"] : never

/**
 * The error codes an operation declares.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Codes<Op extends Any> = Op["errorCodes"][number]

/**
 * The errors an operation can fail with: one class per code it declares, and the unexpected code's.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Error<Op extends Any> = ApiError.ErrorOf<Codes<Op>> | ApiError.UnexpectedApiError

/**
 * A list operation: it takes `count` and `offset` and answers a page of its items.
 *
 * @since 0.1.0
 * @category models
 */
export type Pageable = Any & { readonly item: Schema.Top }

/**
 * Whether `op` is a list operation.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPageable = (op: Any): op is Pageable => op.item !== undefined

/**
 * The schemas of one operation, as the generated sections give them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Schemas {
  readonly payload: Schema.Top
  readonly success: Schema.Top
  readonly item?: Schema.Top
  readonly assumption?: string
}

/**
 * A section's operations with their schemas.
 *
 * @since 0.1.0
 * @category type-level
 */
export type WithSchemas<Core extends CoreOperation.AnySection, Given extends { readonly [M in keyof Core]: Schemas }> =
  {
    readonly [M in keyof Core & keyof Given & string]: Operation<
      Core[M]["section"],
      Core[M]["method"],
      Given[M]["payload"],
      Given[M]["success"],
      Core[M]["errorCodes"][number],
      Given[M] extends { readonly item: infer I extends Schema.Top } ? I : undefined,
      Core[M]["creation"],
      Core[M]["safeToRepeat"]
    >
  }

/**
 * Joins a section's declarations (the core's) to their schemas: one entry per method, no more.
 *
 * @since 0.1.0
 * @category constructors
 */
export const withSchemas = <
  Core extends CoreOperation.AnySection,
  const Given extends { readonly [M in keyof Core]: Schemas }
>(core: Core, schemas: Given): WithSchemas<Core, Given> => {
  const operations: Record<string, Any> = {}
  for (const [method, declaration] of Object.entries(core)) {
    const given = (schemas as Record<string, Schemas>)[method]!
    const { pageable: _pageable, ...rest } = declaration as CoreOperation.Any & { readonly pageable: boolean }
    operations[method] = {
      ...rest,
      payload: given.payload,
      success: given.success,
      hasResponse: given.success !== Schema.Void,
      item: given.item,
      ...(given.assumption === undefined ? {} : { assumption: given.assumption })
    }
  }
  return operations as WithSchemas<Core, Given>
}

/**
 * The JSON Schema of a payload's wire form standing alone (no reference to follow), as the words of
 * a refused parameter read it (the core's `ParameterWords`); the same as the OpenAPI document's, and
 * the Effect 3 line's `JsonSchema.fromPayload`.
 *
 * @since 0.1.0
 * @category utils
 */
export const payloadJsonSchema = (payload: Schema.Top): { readonly [keyword: string]: unknown } => {
  const references = { definitions: {}, path: "#/$defs/" }
  const json = JsonSchema.fromPayload(payload.ast, { references, otherProperties: false })
  return WireJsonSchema.inline(json, JsonSchema.definitionsOf(references), references.path) as {
    readonly [keyword: string]: unknown
  }
}
