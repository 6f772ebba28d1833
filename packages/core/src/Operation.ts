/**
 * The declaration of one operation as plain data: its flags, its error codes, who may call it, the
 * rule that describes it and one line on what it does, placed at `section/method`. Each Effect line
 * adds its own schemas of the parameters and the answer to these declarations (the operations
 * themselves are declared in `Operations`). The words every surface tells a person or an assistant
 * about an operation are here too.
 *
 * @since 0.1.0
 */
import * as ErrorCodes from "./ErrorCodes.js"
import * as Limits from "./Limits.js"

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
 * What an operation is, apart from where it lives and from the schemas of its parameters and answer.
 * The type parameters keep the codes and the flags literal, so that a client narrows each operation's
 * errors and knows at compile time which operations create or may be repeated.
 *
 * @since 0.1.0
 * @category models
 */
export interface Declaration<
  out Code extends ErrorCodes.ErrorCode = ErrorCodes.ErrorCode,
  out Creation extends boolean = boolean,
  out Safe extends boolean = boolean,
  out Pageable extends boolean = boolean,
  out Documented extends boolean = boolean
> {
  /** Every error code the operation can produce (including {@link ErrorCodes.commonErrorCodes}), ascending. */
  readonly errorCodes: ReadonlyArray<Code>
  /** Who may call it. */
  readonly roleGroup: RoleGroup
  /** Counts against the shared creation limit. */
  readonly creation: Creation
  /** May be sent again after an ambiguous failure (101, transport, timeout) without doing twice what it does. */
  readonly safeToRepeat: Safe
  /**
   * Only reads: it changes nothing behind the API, so it is safe to repeat and never a creation. The
   * one place that says so: what sends only reads (`record`, `verify`) and what tells an assistant an
   * operation is read-only (the MCP tools' hints) read it here, never from the method's name. A list
   * reads by its kind and a creation does not; every other declaration says it.
   */
  readonly reads: boolean
  /** A list operation: it takes `count` and `offset` and answers a page, `{items, total}`. */
  readonly pageable: Pageable
  /** `false` for operations listed as existing whose parameters and responses are not shown. */
  readonly documented: Documented
  /** The rule ID of docs/rules.md that describes it. */
  readonly rule: string
  /** One line on what it does. */
  readonly summary: string
}

/**
 * Where an operation lives.
 *
 * @since 0.1.0
 * @category models
 */
export interface Location<out Section extends string, out Method extends string> {
  /** The section, the first path segment after the version: the key of its section. */
  readonly section: Section
  /** The method, the last path segment: the key of the operation in its section. */
  readonly method: Method
  /** `section/method`, the path below `{base_url}`. */
  readonly path: `${Section}/${Method}`
}

/**
 * A declaration placed in its section.
 *
 * @since 0.1.0
 * @category models
 */
export interface Operation<
  out Section extends string,
  out Method extends string,
  out Code extends ErrorCodes.ErrorCode = ErrorCodes.ErrorCode,
  out Creation extends boolean = boolean,
  out Safe extends boolean = boolean,
  out Pageable extends boolean = boolean,
  out Documented extends boolean = boolean
> extends Declaration<Code, Creation, Safe, Pageable, Documented>, Location<Section, Method> {}

/**
 * Any declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface AnyDeclaration extends Declaration {}

/**
 * Any operation.
 *
 * @since 0.1.0
 * @category models
 */
export interface Any extends Operation<string, string> {}

/**
 * Whether an operation reads, as a declaration says it: a creation never reads, so it says nothing
 * (it is `false`); every other operation says it, and only one safe to repeat may say `true`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type ReadsOption<Creation extends boolean, Safe extends boolean> = [Creation] extends [true]
  ? { readonly reads?: false }
  : { readonly reads: [Safe] extends [true] ? boolean : false }

/**
 * What a declaration of a documented operation says: the codes the operation adds to
 * {@link ErrorCodes.commonErrorCodes}, and the rest as in {@link Declaration}.
 *
 * @since 0.1.0
 * @category models
 */
export type Options<Code extends ErrorCodes.ErrorCode, Creation extends boolean, Safe extends boolean> = {
  /** The codes of this operation; the common ones are added. */
  readonly errors: ReadonlyArray<Code>
  readonly roleGroup: RoleGroup
  /** `false` when omitted. */
  readonly creation?: Creation
  readonly safeToRepeat: Safe
  readonly rule: string
  readonly summary: string
} & ReadsOption<Creation, Safe>

/**
 * The rule of the spec that lists the operations whose parameters and responses are not shown.
 *
 * @since 0.1.0
 * @category constants
 */
export const undocumentedRule = "E17"

/**
 * The codes an operation whose parameters are not shown may produce besides the common ones: any
 * documented code but 1 and 3, which concern the address, not the operation.
 *
 * @since 0.1.0
 * @category constants
 */
export const undocumentedErrorCodes = [6, 7, 8] as const

/** What {@link declare} reads of the options of any constructor. */
interface Given {
  readonly errors: ReadonlyArray<ErrorCodes.ErrorCode>
  readonly roleGroup: RoleGroup
  readonly creation?: boolean | undefined
  readonly safeToRepeat: boolean
  readonly reads?: boolean | undefined
  readonly rule: string
  readonly summary: string
}

/** Whether a declaration reads: a list does, a creation does not, any other says it. */
const readsOf = (given: Given, pageable: boolean): boolean => {
  const reads = pageable || given.reads === true
  if (reads && (given.creation === true || !given.safeToRepeat)) {
    throw new Error("an operation that only reads is safe to repeat and never a creation")
  }
  return reads
}

const declare = <
  Code extends ErrorCodes.ErrorCode,
  Creation extends boolean,
  Safe extends boolean,
  Pageable extends boolean,
  Documented extends boolean
>(
  given: Given,
  pageable: Pageable,
  documented: Documented
): Declaration<Code | ErrorCodes.CommonErrorCode, Creation, Safe, Pageable, Documented> => ({
  errorCodes: [...new Set([...ErrorCodes.commonErrorCodes, ...given.errors])].sort((a, b) => a - b) as Array<
    Code | ErrorCodes.CommonErrorCode
  >,
  roleGroup: given.roleGroup,
  creation: (given.creation ?? false) as Creation,
  safeToRepeat: given.safeToRepeat as Safe,
  reads: readsOf(given, pageable),
  pageable,
  documented,
  rule: given.rule,
  summary: given.summary
})

/**
 * Declares a documented operation whose success is a single value (or no `response` field). Its
 * section and method are the keys {@link section} finds it under.
 *
 * The result is `NoInfer` (here and in {@link list} and {@link undocumented}): a declaration is
 * written inside the record given to {@link section}, whose type would otherwise be inferred into the
 * type parameters left to their defaults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <
  const Code extends ErrorCodes.ErrorCode,
  const Creation extends boolean = false,
  const Safe extends boolean = boolean
>(
  options: Options<Code, Creation, Safe>
): NoInfer<Declaration<Code | ErrorCodes.CommonErrorCode, Creation, Safe, false, true>> =>
  declare<Code, Creation, Safe, false, true>(options, false, true)

/**
 * Declares a documented list operation: it takes `count` and `offset` and answers a page. List
 * operations only read, so they are safe to repeat and never creations.
 *
 * @since 0.1.0
 * @category constructors
 */
export const list = <const Code extends ErrorCodes.ErrorCode>(
  options: Omit<Options<Code, false, true>, "safeToRepeat" | "creation" | "reads">
): NoInfer<Declaration<Code | ErrorCodes.CommonErrorCode, false, true, true, true>> =>
  declare<Code, false, true, true, true>({ ...options, safeToRepeat: true }, true, true)

/**
 * Declares an operation the spec lists as existing without showing its parameters or response
 * (rule {@link undocumentedRule}): it may produce the common codes and {@link undocumentedErrorCodes}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const undocumented = <const Creation extends boolean = false, const Safe extends boolean = boolean>(
  options: {
    readonly roleGroup: RoleGroup
    readonly creation?: Creation
    readonly safeToRepeat: Safe
    readonly summary: string
  } & ReadsOption<Creation, Safe>
): NoInfer<
  Declaration<typeof undocumentedErrorCodes[number] | ErrorCodes.CommonErrorCode, Creation, Safe, false, false>
> =>
  declare<typeof undocumentedErrorCodes[number], Creation, Safe, false, false>(
    { ...options, errors: undocumentedErrorCodes, rule: undocumentedRule },
    false,
    false
  )

/**
 * Each of `declarations` placed in the section `name`, under the method that is its key: the one
 * place where an operation's section, method and path are made. {@link section} places the core's
 * declarations with it, and each Effect line its own.
 *
 * @since 0.1.0
 * @category constructors
 */
export const place = <const Name extends string, const Declarations extends Record<string, object>>(
  name: Name,
  declarations: Declarations
): Section<Name, Declarations> => {
  const placed: Record<string, object> = {}
  for (const [method, declaration] of Object.entries(declarations)) {
    placed[method] = { section: name, method, path: `${name}/${method}`, ...declaration }
  }
  return placed as Section<Name, Declarations>
}

/**
 * A declaration placed at `section/method`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Placed<Section extends string, Method extends string, D> = Location<Section, Method> & D

/**
 * The operations of a section, each placed under `name` by the key it is declared with.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Section<Name extends string, Declarations extends Record<string, object>> = {
  readonly [Method in keyof Declarations & string]: Placed<Name, Method, Declarations[Method]>
}

/**
 * Any section: its operations by method.
 *
 * @since 0.1.0
 * @category models
 */
export type AnySection = { readonly [method: string]: Any }

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
): Section<Name, Declarations> => place(name, declarations)

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
 * What becomes of a call not safe to repeat after an ambiguous failure (101, transport, timeout), as a
 * sentence.
 *
 * @since 0.1.0
 * @category constants
 */
export const notRepeated = "Not sent again after an ambiguous failure: the outcome is then reported as unknown."

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
 * The {@link Description} of an operation, from its declaration.
 *
 * @since 0.1.0
 * @category utils
 */
export const describe = (
  op: Pick<AnyDeclaration, "summary" | "roleGroup" | "creation" | "safeToRepeat">
): Description => ({
  summary: op.summary,
  whoMay: whoMay[op.roleGroup],
  requests: requestLimit,
  creations: op.creation ? creationLimit : undefined,
  notRepeated: op.safeToRepeat ? undefined : notRepeated
})
