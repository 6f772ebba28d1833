/**
 * Refused input in words an assistant can act on: one issue per parameter. Effect's formatter gives
 * one entry per branch a value failed (a wrong channel fails each of its six literals and the
 * `undefined` of an optional parameter: seven entries); here they become one issue naming the
 * parameter and, where its schema reduces to a set of literals, the values it takes (`allowed`), read
 * from the contract's schema, never listed by hand. A parameter the tool does not take is one issue
 * naming the parameters it does.
 *
 * @since 0.1.0
 */
import * as ParameterWords from "@community-api/core/ParameterWords"
import * as AllowedValues from "@community-api/schema/Allowed"
import { ParseResult, type Schema, SchemaAST } from "effect"

/**
 * A value a parameter may be given, as `allowed` lists it.
 *
 * @since 0.1.0
 * @category models
 */
export type Allowed = AllowedValues.Value

/**
 * One parameter refused, and why.
 *
 * @since 0.1.0
 * @category models
 */
export interface Issue {
  /** The parameter, as the input schema names it (`a.b` below the top); empty for the arguments as a whole. */
  readonly parameter: string
  readonly message: string
  /** The values the parameter takes, when they are a few literals; the parameters, for an unknown one. */
  readonly allowed?: ReadonlyArray<Allowed>
}

/**
 * `a`, `a or b`, `a, b or c`.
 *
 * @since 0.1.0
 * @category utils
 */
export const orList = (items: ReadonlyArray<unknown>): string => {
  const words = items.map(String)
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`
}

/** The property signatures of a payload's schema: a struct, seen through checks and transformations. */
const propertiesOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.PropertySignature> => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures
    case "Refinement":
      return propertiesOf(ast.from)
    case "Transformation":
      // The encoded side carries the names the input uses.
      return propertiesOf(ast.from)
    case "Suspend":
      return propertiesOf(ast.f())
    default:
      return []
  }
}

/**
 * The values a parameter of `schema` takes, when its schema reduces to literals, and whether they are
 * taken in any letter case (told by trying each in lower case, as a channel's `vk`).
 *
 * @since 0.1.0
 * @category utils
 */
export const allowedOf = (schema: Schema.Schema.AnyNoContext, parameter: string): AllowedValues.Allowed | undefined => {
  const property = propertiesOf(schema.ast).find((candidate) => candidate.name === parameter)
  return property === undefined ? undefined : AllowedValues.of(property.type)
}

/** The message of the `undefined` branch of an optional parameter, which a given value always fails. */
const undefinedBranch = /^Expected undefined, actual /

/**
 * The issue of a name the tool does not take, with the names it does.
 *
 * @since 0.1.0
 * @category constructors
 */
export const notAParameter = (parameter: string, parameters: ReadonlyArray<string>): Issue =>
  parameters.length === 0
    ? { parameter, message: "is not a parameter of this tool, which takes none" }
    : {
      parameter,
      message: `is not a parameter of this tool; its parameters are ${orList(parameters)}`,
      allowed: parameters
    }

/** Effect's own messages for its checks ("Expected …, actual …"): they quote types and patterns. */
const generated = /^(?:Expected |Unable to decode |Is unexpected|is missing)/

/**
 * The issues of a refusal of `schema`, one per parameter, in the order of `parameters` (the tool's
 * own), in the words of the core's `ParameterWords` (the client's and the command line's words too):
 * the formatter's entries grouped by path; a value refused as what it is not (`"XX" is not one of VK,
 * …, any case`), with `allowed` when the parameter takes a few literals, or with the contract's own
 * message when it has one (`count is at least 1`); an unexpected parameter as one issue naming
 * `parameters`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromParseIssue = (issue: ParseResult.ParseIssue, options: {
  readonly schema: Schema.Schema.AnyNoContext
  readonly parameters: ReadonlyArray<string>
  /** The arguments refused, whose values the issues quote. */
  readonly input: Readonly<Record<string, unknown>>
  /** The words of each parameter, from the tool's input schema. */
  readonly words: ReadonlyMap<string, ParameterWords.Words>
}): ReadonlyArray<Issue> => {
  const groups = new Map<string, Array<ParseResult.ArrayFormatterIssue>>()
  for (const entry of ParseResult.ArrayFormatter.formatIssueSync(issue)) {
    const key = entry.path.map(String).join(".")
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [entry])
    else group.push(entry)
  }
  // In the order of the tool's parameters, those it does not take last: the formatter tells the
  // unexpected ones first.
  const rank = (parameter: string) => {
    const index = options.parameters.indexOf(parameter.split(".")[0]!)
    return index === -1 ? options.parameters.length : index
  }
  const ordered = [...groups].sort(([a], [b]) => rank(a) - rank(b))
  return ordered.map(([parameter, entries]): Issue => {
    const top = entries[0]!.path.length === 1
    if (top && entries.some((entry) => entry._tag === "Unexpected")) return notAParameter(parameter, options.parameters)
    const words = top ? options.words.get(parameter) : undefined
    const messages = [...new Set(entries.map((entry) => entry.message))]
    if (words === undefined) {
      // Below the top (an item of a list, say): the schema's own messages, without the optional's undefined.
      const told = messages.filter((message) => !undefinedBranch.test(message))
      return { parameter, message: (told.length > 0 ? told : messages).join("; ") }
    }
    const allowed = words.allowed === undefined ? {} : { allowed: words.allowed.values }
    if (!(parameter in options.input)) return { parameter, message: ParameterWords.missing(words), ...allowed }
    const said = words.allowed === undefined ? messages.filter((message) => !generated.test(message)) : []
    return { parameter, message: ParameterWords.refused(words, options.input[parameter], said), ...allowed }
  })
}
