/**
 * The declaration of one operation: everything the client, the server, the command line and the docs
 * need to know about it. Its plain part (section, method, flags, error codes, who may call it, rule,
 * summary) is the core's, declared in `@community-api/core/Operations`; this module adds the Effect
 * Schemas of its parameters and its answer ({@link withSchemas}).
 *
 * @since 0.1.0
 */
import * as CoreOperation from "@community-api/core/Operation"
import * as CoreWire from "@community-api/core/Wire"
import { Schema } from "effect"
import type * as ApiError from "./ApiError.js"
import * as Page from "./Page.js"

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

export {
  /**
   * The windows of the creation limit, in words: so many a minute, so many a day. Each surface joins
   * them in its own sentence.
   *
   * @since 0.1.0
   * @category constants
   */
  creationLimit,
  /**
   * What becomes of a call not safe to repeat after an ambiguous failure (101, transport, timeout), as a
   * sentence.
   *
   * @since 0.1.0
   * @category constants
   */
  notRepeated,
  /**
   * The limit every call counts against, in words: the user's requests a second.
   *
   * @since 0.1.0
   * @category constants
   */
  requestLimit,
  /**
   * Who may call an operation of each role group, in words: read by every surface that
   * tells a person or an assistant who may call what (the command line's help, the MCP tools).
   *
   * @since 0.1.0
   * @category constants
   */
  whoMay
} from "@community-api/core/Operation"

export {
  /**
   * The codes every authenticated call can produce: token (4), rate (5), key check (9), internal (101).
   *
   * @since 0.1.0
   * @category constants
   */
  commonErrorCodes
} from "@community-api/core/ErrorCodes"

export type {
  /**
   * One of the codes every authenticated call can produce, one of {@link commonErrorCodes}.
   *
   * @since 0.1.0
   * @category models
   */
  CommonErrorCode
} from "@community-api/core/ErrorCodes"

export {
  /**
   * The {@link Description} of an operation, from its declaration.
   *
   * @since 0.1.0
   * @category utils
   */
  describe,
  /**
   * Checks at compile time that every section sits under the key its operations name, and gives the
   * record back as it is.
   *
   * @since 0.1.0
   * @category utils
   */
  sections
} from "@community-api/core/Operation"

/**
 * What an operation is, apart from where it lives: the core's declaration (codes, flags, access, rule,
 * summary) with the schemas of its parameters and its answer. A list operation is told by its `item`
 * rather than the core's `pageable`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Declaration<
  out Payload extends Schema.Schema.AnyNoContext,
  out Success extends Schema.Schema.AnyNoContext,
  out Code extends ApiError.ErrorCode,
  out Item extends Schema.Schema.AnyNoContext | undefined = undefined,
  out Creation extends boolean = boolean,
  out Safe extends boolean = boolean
> extends Omit<CoreOperation.Declaration<Code, Creation, Safe>, "pageable"> {
  /** The parameters, with every documented constraint; encodes to the JSON body. */
  readonly payload: Payload
  /** What `response` holds on success; `Schema.Void` when there is no `response` field. */
  readonly success: Success
  /** `false` when a success is `{status: 'ok'}` with no `response` field. */
  readonly hasResponse: boolean
  /** For list operations: the schema of one item; the success is then `Page(item)`. */
  readonly item: Item
  /**
   * For an undocumented operation whose `payload` (and maybe `success`) are assumed rather than shown: why
   * they are what they are. `undefined` when nothing is assumed.
   */
  readonly assumption?: string | undefined
}

/**
 * Any declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface AnyDeclaration extends
  Declaration<
    Schema.Schema.AnyNoContext,
    Schema.Schema.AnyNoContext,
    ApiError.ErrorCode,
    Schema.Schema.AnyNoContext | undefined
  >
{}

/**
 * The declaration of an operation, placed in its section.
 *
 * @since 0.1.0
 * @category models
 */
export interface Operation<
  out Section extends string,
  out Method extends string,
  out Payload extends Schema.Schema.AnyNoContext,
  out Success extends Schema.Schema.AnyNoContext,
  out Code extends ApiError.ErrorCode,
  out Item extends Schema.Schema.AnyNoContext | undefined = undefined,
  out Creation extends boolean = boolean,
  out Safe extends boolean = boolean
> extends Declaration<Payload, Success, Code, Item, Creation, Safe>, CoreOperation.Location<Section, Method> {}

/**
 * Any operation.
 *
 * @since 0.1.0
 * @category models
 */
export interface Any extends
  Operation<
    string,
    string,
    Schema.Schema.AnyNoContext,
    Schema.Schema.AnyNoContext,
    ApiError.ErrorCode,
    Schema.Schema.AnyNoContext | undefined
  >
{}

/**
 * The parameters of an operation, as code passes them.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Params<Op extends Any> = Schema.Schema.Type<Op["payload"]>

/**
 * The parameters of an operation, as the wire carries them.
 *
 * @since 0.1.0
 * @category type-level
 */
export type EncodedParams<Op extends Any> = Schema.Schema.Encoded<Op["payload"]>

/**
 * What a successful call gives.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Success<Op extends Any> = Schema.Schema.Type<Op["success"]>

/**
 * The item of a list operation.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Item<Op extends Any> = Op["item"] extends Schema.Schema.AnyNoContext ? Schema.Schema.Type<Op["item"]>
  : never

/**
 * The error codes of an operation.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Codes<Op extends Any> = Op["errorCodes"][number]

/**
 * The tagged errors an operation can produce, plus {@link ApiError.UnexpectedApiError} for an
 * undocumented code.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Error<Op extends Any> = ApiError.ErrorOf<Codes<Op>> | ApiError.UnexpectedApiError

/**
 * The payload of an operation, as a schema of objects on both sides: what code that walks every
 * operation (the command line, the MCP server) decodes its input with and gets parameters from.
 *
 * A declaration keeps its payload's own type for the client; seen through {@link Any} it is a schema
 * of `any`, and this narrows it, without a cast, to what every payload is: a struct, or the record of
 * {@link UnknownPayload}, so an object once decoded and once encoded (the contract's tests hold every
 * declared payload to it).
 *
 * @since 0.1.0
 * @category utils
 */
export const payloadOf = (op: Any): Schema.Schema<Record<string, unknown>, Record<string, unknown>> => op.payload

/**
 * What `response` holds on success, as a schema of unknown values: what code that walks every
 * operation encodes an answer with (its wire form is what a person or an assistant reads).
 *
 * @since 0.1.0
 * @category utils
 */
export const successOf = (op: Any): Schema.Schema<unknown, unknown> => op.success

/**
 * List operations: the ones with an item schema.
 *
 * @since 0.1.0
 * @category models
 */
export type Pageable = Any & { readonly item: Schema.Schema.AnyNoContext }

/**
 * Whether an operation lists records page by page (it has an `item` schema), so that a stream can
 * read all its pages.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPageable = (op: Any): op is Pageable => op.item !== undefined

/**
 * The payload of an operation whose parameters are not shown: any object, passed through.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UnknownPayload = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  identifier: "UnknownPayload",
  description: CoreWire.unknownPayloadDescription
})

/**
 * A payload the contract may assume for an undocumented operation: an object schema, so that its
 * fields can be told (flags, OpenAPI) as those of a documented one.
 *
 * @since 0.1.0
 * @category models
 */
export type AssumedPayload = Schema.Schema.AnyNoContext & { readonly fields: Schema.Struct.Fields }

/**
 * What the contract assumes about an operation the spec names without showing its parameters:
 * the payload it takes, maybe the `response` it gives, and why.
 *
 * @since 0.1.0
 * @category models
 */
export interface Assumption<Payload extends Schema.Schema.AnyNoContext, Success extends Schema.Schema.AnyNoContext> {
  readonly payload: Payload
  /** The `response` on success; without it the success stays as declared (unknown, or no `response` field). */
  readonly success?: Success
  /** One line: why this payload (and success) and not another. */
  readonly reason: string
}

/**
 * The payload of a list operation with `fields`: those fields plus `count` and `offset`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type ListPayload<Fields extends Schema.Struct.Fields> = Schema.Schema<
  Schema.Struct.Type<Fields & typeof Page.PageParams>,
  Schema.Struct.Encoded<Fields & typeof Page.PageParams>
>

/**
 * The success of a list operation of `Item`: a page of them.
 *
 * @since 0.1.0
 * @category type-level
 */
export type ListSuccess<Item extends Schema.Schema.AnyNoContext> = ReturnType<
  typeof Page.Page<Schema.Schema.Type<Item>, Schema.Schema.Encoded<Item>, never>
>

/**
 * The schemas of a documented operation with a single answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface SingleSchemas<
  Payload extends Schema.Schema.AnyNoContext = Schema.Schema.AnyNoContext,
  Success extends Schema.Schema.AnyNoContext = Schema.Schema.AnyNoContext
> {
  readonly payload: Payload
  /** What `response` holds; omitted (or `Schema.Void`) when a success has no `response` field. */
  readonly success?: Success
}

/**
 * The schemas of a list operation: its own parameters (`count` and `offset` join them) and one item.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListSchemas<
  Fields extends Schema.Struct.Fields = Schema.Struct.Fields,
  Item extends Schema.Schema.AnyNoContext = Schema.Schema.AnyNoContext
> {
  readonly fields: Fields
  readonly item: Item
}

/**
 * The schemas of an operation the spec lists without showing its parameters or response: nothing (it
 * takes any object and answers an unknown `response`), `success: Schema.Void` when the spec says it
 * answers no `response` field, and what the contract assumes of it.
 *
 * @since 0.1.0
 * @category models
 */
export interface UndocumentedSchemas<
  Response extends typeof Schema.Unknown | typeof Schema.Void = typeof Schema.Unknown | typeof Schema.Void,
  Payload extends AssumedPayload | typeof UnknownPayload = AssumedPayload | typeof UnknownPayload,
  Success extends Schema.Schema.AnyNoContext = Schema.Schema.AnyNoContext
> {
  readonly success?: Response
  readonly assumed?: Assumption<Payload, Success>
}

/**
 * The schemas an operation of the core takes, by its kind: a list, a documented operation or an
 * undocumented one.
 *
 * @since 0.1.0
 * @category type-level
 */
export type SchemasOf<D extends CoreOperation.AnyDeclaration> = D["pageable"] extends true ? ListSchemas
  : D["documented"] extends false ? UndocumentedSchemas
  : SingleSchemas

type PayloadOf<D extends CoreOperation.AnyDeclaration, S> = D["pageable"] extends true
  ? S extends { readonly fields: infer Fields extends Schema.Struct.Fields } ? ListPayload<Fields> : never
  : D["documented"] extends false
    ? S extends { readonly assumed: { readonly payload: infer Payload extends Schema.Schema.AnyNoContext } } ? Payload
    : typeof UnknownPayload
  : S extends { readonly payload: infer Payload extends Schema.Schema.AnyNoContext } ? Payload
  : never

type SuccessOf<D extends CoreOperation.AnyDeclaration, S> = D["pageable"] extends true
  ? S extends { readonly item: infer Item extends Schema.Schema.AnyNoContext } ? ListSuccess<Item> : never
  : D["documented"] extends false
    ? S extends { readonly assumed: { readonly success: infer Success extends Schema.Schema.AnyNoContext } } ? Success
    : S extends { readonly success: infer Response extends Schema.Schema.AnyNoContext } ? Response
    : typeof Schema.Unknown
  : S extends { readonly success: infer Success extends Schema.Schema.AnyNoContext } ? Success
  : typeof Schema.Void

type ItemOf<D extends CoreOperation.AnyDeclaration, S> = D["pageable"] extends true
  ? S extends { readonly item: infer Item extends Schema.Schema.AnyNoContext } ? Item : never
  : undefined

/**
 * An operation of the core with its schemas.
 *
 * @since 0.1.0
 * @category type-level
 */
export type WithSchemasOf<Op extends CoreOperation.Any, S> = Operation<
  Op["section"],
  Op["method"],
  PayloadOf<Op, S>,
  SuccessOf<Op, S>,
  Op["errorCodes"][number],
  ItemOf<Op, S>,
  Op["creation"],
  Op["safeToRepeat"]
>

/**
 * A section of the core with the schemas of its operations.
 *
 * @since 0.1.0
 * @category type-level
 */
export type WithSchemas<Core extends CoreOperation.AnySection, Schemas> = {
  readonly [Method in keyof Core & string]: WithSchemasOf<
    Core[Method],
    Method extends keyof Schemas ? Schemas[Method] : never
  >
}

type Schemas = SingleSchemas & Partial<ListSchemas> & UndocumentedSchemas

/** The core's declaration (placed or not) with the schemas of an operation. */
type Attached<D> = Omit<D, "pageable"> & {
  readonly payload: Schema.Schema.AnyNoContext
  readonly success: Schema.Schema.AnyNoContext
  readonly hasResponse: boolean
  readonly item: Schema.Schema.AnyNoContext | undefined
  readonly assumption: string | undefined
}

/** The core's declaration without `pageable`, which `item` tells here. */
const plainOf = <D extends CoreOperation.AnyDeclaration>({ pageable: _, ...plain }: D) => plain

/** The core's declaration with the schemas of a documented operation with a single answer. */
const single = <D extends CoreOperation.AnyDeclaration>(plain: D, schemas: SingleSchemas): Attached<D> => {
  const success = schemas.success ?? Schema.Void
  return {
    ...plainOf(plain),
    payload: schemas.payload,
    success,
    hasResponse: success !== Schema.Void,
    item: undefined,
    assumption: undefined
  }
}

/** The core's declaration with the schemas of a list operation. */
const paged = <D extends CoreOperation.AnyDeclaration>(plain: D, schemas: ListSchemas): Attached<D> => ({
  ...plainOf(plain),
  payload: Schema.Struct({ ...schemas.fields, ...Page.PageParams }),
  success: Page.Page(schemas.item),
  hasResponse: true,
  item: schemas.item,
  assumption: undefined
})

/** The core's declaration with the schemas of an undocumented operation: assumed ones, or any object and unknown. */
const assumed = <D extends CoreOperation.AnyDeclaration>(plain: D, schemas: UndocumentedSchemas): Attached<D> => {
  const success = schemas.assumed?.success ?? schemas.success ?? Schema.Unknown
  return {
    ...plainOf(plain),
    payload: schemas.assumed?.payload ?? UnknownPayload,
    success,
    hasResponse: success !== Schema.Void,
    item: undefined,
    assumption: schemas.assumed?.reason
  }
}

/** The core's declaration with the schemas its kind takes. */
const attach = <D extends CoreOperation.AnyDeclaration>(plain: D, schemas: Schemas): Attached<D> =>
  plain.pageable
    ? paged(plain, schemas as ListSchemas)
    : plain.documented
    ? single(plain, schemas)
    : assumed(plain, schemas)

/**
 * A section of the core's declarations (`@community-api/core/Operations`) with the schemas of each
 * operation, under the same methods: `{ fields, item }` for a list, `{ payload, success? }` for a
 * documented operation (no `success` when there is no `response` field), and for an undocumented one
 * nothing, or `success: Schema.Void` and what is `assumed` of it. The section, the methods, the flags
 * and the codes are the core's: they are not written again here, and every method of the core must
 * be given its schemas, and no other.
 *
 * @since 0.1.0
 * @category constructors
 */
export const withSchemas = <
  Core extends CoreOperation.AnySection,
  Given extends { readonly [Method in keyof Core]: SchemasOf<Core[Method]> }
>(
  core: Core,
  schemas: Given & { readonly [Method in Exclude<keyof Given, keyof Core>]: never }
): WithSchemas<Core, Given> => {
  const given: Record<string, Schemas> = schemas
  const operations: Record<string, Any> = {}
  for (const [method, op] of Object.entries(core)) {
    operations[method] = attach(op, given[method]!)
  }
  return operations as WithSchemas<Core, Given>
}

/**
 * Declares an operation whose success is a single value, or no `response` field when `success` is
 * omitted or `Schema.Void`. Its section and method are the keys {@link section} finds it under.
 * The contract's own operations are declared in the core and given their schemas by
 * {@link withSchemas}; this declares one outside them.
 *
 * The result is `NoInfer` (here and in {@link list} and {@link undocumented}): a declaration is
 * written inside the record given to {@link section}, whose type would otherwise be inferred into the
 * type parameters left to their defaults (an omitted `success` would become any schema).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <
  Payload extends Schema.Schema.AnyNoContext,
  const Code extends ApiError.ErrorCode,
  Success extends Schema.Schema.AnyNoContext = typeof Schema.Void,
  const Creation extends boolean = false,
  const Safe extends boolean = boolean
>(
  options: CoreOperation.Options<Code, Creation, Safe> & { readonly payload: Payload; readonly success?: Success }
): NoInfer<Declaration<Payload, Success, Code | ApiError.CommonErrorCode, undefined, Creation, Safe>> =>
  single(CoreOperation.make(options), options) as Declaration<
    Payload,
    Success,
    Code | ApiError.CommonErrorCode,
    undefined,
    Creation,
    Safe
  >

/**
 * Declares a list operation: `count` and `offset` join its parameters and its success is
 * `{items, total}` of `item`. List operations only read, so they are safe to repeat.
 *
 * @since 0.1.0
 * @category constructors
 */
export const list = <
  Fields extends Schema.Struct.Fields,
  const Code extends ApiError.ErrorCode,
  Item extends Schema.Schema.AnyNoContext
>(
  options: Omit<CoreOperation.Options<Code, false, true>, "safeToRepeat" | "creation"> & ListSchemas<Fields, Item>
): NoInfer<Declaration<ListPayload<Fields>, ListSuccess<Item>, Code | ApiError.CommonErrorCode, Item, false, true>> =>
  paged(CoreOperation.list(options), options) as Declaration<
    ListPayload<Fields>,
    ListSuccess<Item>,
    Code | ApiError.CommonErrorCode,
    Item,
    false,
    true
  >

/** What {@link undocumented} declares: the codes of an undocumented operation and the flags given. */
type Undocumented<
  Payload extends Schema.Schema.AnyNoContext,
  Success extends Schema.Schema.AnyNoContext,
  Creation extends boolean,
  Safe extends boolean
> = Declaration<
  Payload,
  Success,
  typeof CoreOperation.undocumentedErrorCodes[number] | ApiError.CommonErrorCode,
  undefined,
  Creation,
  Safe
>

/**
 * Declares an operation the spec lists as existing without showing its parameters or response.
 * It may produce any documented code but 1 and 3. Without `assumed` it takes any object and answers
 * an unknown `response`; with it, `payload` and `success` are the assumed schemas and `assumption`
 * holds the reason.
 *
 * @since 0.1.0
 * @category constructors
 */
export const undocumented = <
  const Response extends typeof Schema.Unknown | typeof Schema.Void = typeof Schema.Unknown,
  const Creation extends boolean = false,
  const Safe extends boolean = boolean,
  Payload extends AssumedPayload | typeof UnknownPayload = typeof UnknownPayload,
  Success extends Schema.Schema.AnyNoContext = Response
>(
  options: {
    readonly roleGroup: CoreOperation.RoleGroup
    readonly creation?: Creation
    /** `Schema.Void` for the operations the spec says answer with no `response` field. */
    readonly success?: Response
    readonly safeToRepeat: Safe
    readonly summary: string
    readonly assumed?: Assumption<Payload, Success>
  } & CoreOperation.ReadsOption<Creation, Safe>
): NoInfer<Undocumented<Payload, Success, Creation, Safe>> =>
  assumed(CoreOperation.undocumented<Creation, Safe>(options), options) as Undocumented<
    Payload,
    Success,
    Creation,
    Safe
  >

/**
 * The operations of a section, each placed under `name` by the key it is declared with.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Section<Name extends string, Declarations extends Record<string, AnyDeclaration>> = {
  readonly [Method in keyof Declarations & string]: Placed<Name, Method, Declarations[Method]>
}

/**
 * A declaration placed at `section/method`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Placed<Section extends string, Method extends string, D> = D extends Declaration<
  infer Payload,
  infer Success,
  infer Code,
  infer Item,
  infer Creation,
  infer Safe
> ? Operation<Section, Method, Payload, Success, Code, Item, Creation, Safe>
  : never

/**
 * Declares a section of declarations made with {@link make}, {@link list} and {@link undocumented}:
 * every key of `declarations` is the method of the operation under it, so the section, the method and
 * the path of each are derived, never written out.
 *
 * @since 0.1.0
 * @category constructors
 */
export const section = <const Name extends string, const Declarations extends Record<string, AnyDeclaration>>(
  name: Name,
  declarations: Declarations
): Section<Name, Declarations> =>
  // The core types the result as its `Location` joined to each declaration: the members of `Placed` here.
  CoreOperation.place(name, declarations) as unknown as Section<Name, Declarations>
