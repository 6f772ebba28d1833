/**
 * The declaration of one operation: everything the client, the server, the command line and the docs
 * need to know about it, written once.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as ApiError from "./ApiError.js"
import * as Limits from "./Limits.js"
import * as Page from "./Page.js"

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
export type RoleGroup = "mailer" | "users" | "stat" | "admin" | "any" | "none"

/**
 * Who may call an operation of each role group, in words: read by every surface that
 * tells a person or an assistant who may call what (the command line's help, the MCP tools).
 *
 * @since 0.1.0
 * @category constants
 */
export const whoMay: { readonly [Group in RoleGroup]: string } = {
  mailer: "the owner, admins and employees with the mailer role",
  users: "the owner, admins and employees with the users role",
  stat: "the owner, admins and employees with the stat role",
  admin: "the owner and admins only",
  any: "the owner and employees with any role",
  none: "any valid token"
}

/**
 * The codes every authenticated call can produce: token (4), rate (5), key check (9), internal (101).
 *
 * @since 0.1.0
 * @category constants
 */
export const commonErrorCodes = [4, 5, 9, 101] as const

/**
 * @since 0.1.0
 * @category models
 */
export type CommonErrorCode = typeof commonErrorCodes[number]

/**
 * What an operation is, apart from where it lives: everything but `section`, `method` and `path`,
 * which {@link section} derives from the keys it is declared under.
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
> {
  /** The parameters, with every documented constraint; encodes to the JSON body. */
  readonly payload: Payload
  /** What `response` holds on success; `Schema.Void` when there is no `response` field. */
  readonly success: Success
  /** `false` when a success is `{status: 'ok'}` with no `response` field. */
  readonly hasResponse: boolean
  /** Every error code the operation can produce (including {@link commonErrorCodes}). */
  readonly errorCodes: ReadonlyArray<Code>
  /** Who may call it. */
  readonly roleGroup: RoleGroup
  /** Counts against the shared creation limit. */
  readonly creation: Creation
  /** May be sent again after an ambiguous failure (101, transport, timeout) without doing twice what it does. */
  readonly safeToRepeat: Safe
  /** For list operations: the schema of one item; the success is then `Page(item)`. */
  readonly item: Item
  /** `false` for operations listed as existing whose parameters and responses are not shown. */
  readonly documented: boolean
  /**
   * For an undocumented operation whose `payload` (and maybe `success`) are assumed rather than shown: why
   * they are what they are. `undefined` when nothing is assumed.
   */
  readonly assumption?: string | undefined
  /** The rule ID of docs/rules.md that describes it. */
  readonly rule: string
  /** One line on what it does. */
  readonly summary: string
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
> extends Declaration<Payload, Success, Code, Item, Creation, Safe> {
  /** The section, the first path segment after the version: the key of its section. */
  readonly section: Section
  /** The method, the last path segment: the key of the operation in its section. */
  readonly method: Method
  /** `section/method`, the path below `{base_url}`. */
  readonly path: `${Section}/${Method}`
}

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
 * The limit every call counts against, in words: the user's requests a second.
 *
 * @since 0.1.0
 * @category constants
 */
export const requestLimit = `${Limits.requestsPerWindow} requests a second`

/**
 * The windows of the creation limit, in words: so many a minute, so many a day. Each surface joins
 * them in its own sentence.
 *
 * @since 0.1.0
 * @category constants
 */
export const creationLimit: readonly [perMinute: string, perDay: string] = [
  `${Limits.creationsPerMinute} a minute`,
  `${Limits.creationsPerDay} a day`
]

/**
 * What a person or an assistant is told of an operation, in plain words (never a rule ID of the spec):
 * each surface that describes operations (the command line's help, the MCP tools) reads these pieces
 * and adds only its own framing.
 *
 * @since 0.1.0
 * @category models
 */
export interface Description {
  /** One line on what it does. */
  readonly summary: string
  /** Who may call it, from {@link whoMay}: `the owner and admins only`. */
  readonly whoMay: string
  /** The limit every call counts against: {@link requestLimit}. */
  readonly requests: string
  /** For an operation that counts against the creation limit: {@link creationLimit}. */
  readonly creations: readonly [perMinute: string, perDay: string] | undefined
  /** For an operation not safe to repeat: what becomes of it after an ambiguous failure, as a sentence. */
  readonly notRepeated: string | undefined
}

/**
 * What becomes of a call not safe to repeat after an ambiguous failure (101, transport, timeout), as a
 * sentence.
 *
 * @since 0.1.0
 * @category constants
 */
export const notRepeated = "Not sent again after an ambiguous failure: the outcome is then reported as unknown."

/**
 * The {@link Description} of an operation, from its declaration.
 *
 * @since 0.1.0
 * @category utils
 */
export const describe = (op: Any): Description => ({
  summary: op.summary,
  whoMay: whoMay[op.roleGroup],
  requests: requestLimit,
  creations: op.creation ? creationLimit : undefined,
  notRepeated: op.safeToRepeat ? undefined : notRepeated
})

/**
 * List operations: the ones with an item schema.
 *
 * @since 0.1.0
 * @category models
 */
export type Pageable = Any & { readonly item: Schema.Schema.AnyNoContext }

/**
 * @since 0.1.0
 * @category guards
 */
export const isPageable = (op: Any): op is Pageable => op.item !== undefined

interface Common<Code extends ApiError.ErrorCode, Creation extends boolean, Safe extends boolean> {
  readonly errors: ReadonlyArray<Code>
  readonly roleGroup: RoleGroup
  readonly creation?: Creation
  readonly safeToRepeat: Safe
  readonly rule: string
  readonly summary: string
}

const dedupe = <C extends number>(codes: ReadonlyArray<C>): ReadonlyArray<C> =>
  [...new Set(codes)].sort((a, b) => a - b)

/** A declaration from its options, with the reason of an assumption about an undocumented operation when there is one. */
const declare = <
  Payload extends Schema.Schema.AnyNoContext,
  Code extends ApiError.ErrorCode,
  Success extends Schema.Schema.AnyNoContext,
  Creation extends boolean,
  Safe extends boolean
>(
  options: Common<Code, Creation, Safe> & { readonly payload: Payload; readonly success?: Success },
  assumption: string | undefined
): Declaration<Payload, Success, Code | CommonErrorCode, undefined, Creation, Safe> => ({
  payload: options.payload,
  success: (options.success ?? Schema.Void) as Success,
  hasResponse: options.success !== undefined && (options.success as unknown) !== Schema.Void,
  errorCodes: dedupe<Code | CommonErrorCode>([...commonErrorCodes, ...options.errors]),
  roleGroup: options.roleGroup,
  creation: (options.creation ?? false) as Creation,
  safeToRepeat: options.safeToRepeat,
  item: undefined,
  documented: options.rule !== "E17",
  assumption,
  rule: options.rule,
  summary: options.summary
})

/**
 * Declares an operation whose success is a single value, or no `response` field when `success` is
 * omitted or `Schema.Void`. Its section and method are the keys {@link section} finds it under.
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
  options: Common<Code, Creation, Safe> & { readonly payload: Payload; readonly success?: Success }
): NoInfer<Declaration<Payload, Success, Code | CommonErrorCode, undefined, Creation, Safe>> =>
  declare(options, undefined)

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
  options: Omit<Common<Code, false, true>, "safeToRepeat" | "creation"> & {
    readonly fields: Fields
    readonly item: Item
  }
) => {
  const payload = Schema.Struct({ ...options.fields, ...Page.PageParams }) as unknown as ListPayload<Fields>
  const success = Page.Page(options.item as Schema.Schema<Schema.Schema.Type<Item>, Schema.Schema.Encoded<Item>>)
  const { fields: _, item, ...common } = options
  const declaration = make({ ...common, payload, success, safeToRepeat: true })
  return { ...declaration, item } as unknown as NoInfer<
    Declaration<ListPayload<Fields>, typeof success, Code | CommonErrorCode, Item, false, true>
  >
}

/**
 * The payload of an operation whose parameters are not shown: any object, passed through.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UnknownPayload = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  identifier: "UnknownPayload",
  description: "parameters not shown in the spec"
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
>(options: {
  readonly roleGroup: RoleGroup
  readonly creation?: Creation
  /** `Schema.Void` for the operations the spec says answer with no `response` field. */
  readonly success?: Response
  readonly safeToRepeat: Safe
  readonly summary: string
  readonly assumed?: Assumption<Payload, Success>
}): NoInfer<Declaration<Payload, Success, 6 | 7 | 8 | CommonErrorCode, undefined, Creation, Safe>> =>
  declare<Payload, 6 | 7 | 8, Success, Creation, Safe>({
    payload: (options.assumed?.payload ?? UnknownPayload) as Payload,
    success: (options.assumed?.success ?? options.success ?? Schema.Unknown) as Success,
    errors: [6, 7, 8],
    roleGroup: options.roleGroup,
    ...(options.creation === undefined ? {} : { creation: options.creation }),
    safeToRepeat: options.safeToRepeat,
    rule: "E17",
    summary: options.summary
  }, options.assumed?.reason)

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
 * Declares a section: every key of `declarations` is the method of the operation under it, so the
 * section, the method and the path of each are derived, never written out.
 *
 * @since 0.1.0
 * @category constructors
 */
export const section = <const Name extends string, const Declarations extends Record<string, AnyDeclaration>>(
  name: Name,
  declarations: Declarations
): Section<Name, Declarations> => {
  const operations: Record<string, Any> = {}
  for (const [method, declaration] of Object.entries(declarations)) {
    operations[method] = { section: name, method, path: `${name}/${method}`, ...declaration }
  }
  return operations as Section<Name, Declarations>
}

/**
 * Checks at compile time that every section sits under the key its operations name, and gives the
 * record back as it is.
 *
 * @since 0.1.0
 * @category utils
 */
export const sections = <
  const Sections extends {
    readonly [Name in keyof Sections]: { readonly [method: string]: { readonly section: Name } }
  }
>(sections: Sections): Sections => sections
