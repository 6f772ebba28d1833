/**
 * Command-line flags derived from an operation's payload schema: one flag per parameter, named in
 * kebab-case, described and validated by the parameter's own schema. Nothing here names an operation.
 *
 * @since 0.1.0
 */
import { Allowed, JsonSchema } from "@community-api/schema"
import { HelpDoc, Options, ValidationError } from "@effect/cli"
import { Effect, Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import { orList, quote } from "./internal/text.js"

/**
 * One parameter of a payload, as a flag.
 *
 * @since 0.1.0
 */
export interface Flag {
  /** The parameter's name on the wire (`group_id`). */
  readonly key: string
  /** The flag's name without dashes (`group-id`). */
  readonly name: string
  /** `false` when the contract requires the parameter. */
  readonly optional: boolean
  /** The parameter's schema; decodes the flag's text. */
  readonly schema: Schema.Schema.AnyNoContext
  /** A short type name for the usage line (`INT`, `VK|TG|…`). */
  readonly typeName: string
  /**
   * What the contract says about the value, for the help: the key, the type, its bounds or allowed
   * values (`channel: VK, TG, OK, MAX, CHAT or AVITO, any case`), and `(required)`.
   */
  readonly description: string
  /** The value the flag wants, for an error: `an integer`, `one of 0 or 1`. */
  readonly expected: string
}

/**
 * A flag of a command written by hand (`record`, `limits`), as its help shows it.
 *
 * @since 0.1.0
 */
export interface CommandFlag {
  readonly name: string
  /** The value it takes, for the usage line; absent for a switch. */
  readonly typeName?: string
  readonly description: string
  /** Whether it may be left out. */
  readonly optional: boolean
}

/**
 * `group_id` → `group-id`, `botId` → `bot-id`.
 *
 * @since 0.1.0
 */
export const kebab = (key: string): string =>
  key.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/_/g, "-").toLowerCase()

const withoutUndefined = (ast: SchemaAST.AST): SchemaAST.AST =>
  SchemaAST.isUnion(ast) ? SchemaAST.Union.make(ast.types.filter((t) => !SchemaAST.isUndefinedKeyword(t))) : ast

type JsonSchemaFacts = {
  readonly type?: string
  readonly description?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly not?: { readonly pattern?: string }
  readonly default?: unknown
}

/**
 * The JSON Schema of each parameter of a payload, as the contract's input schema of it says (the one
 * an assistant's tool takes): the contract's own facts about each value, by parameter name.
 */
const parameterSchemas = (payload: Schema.Schema.AnyNoContext): { readonly [key: string]: JsonSchemaFacts } => {
  const { properties } = JsonSchema.fromPayload(payload)
  // A JSON Schema's keywords, read as the facts above: the derivation writes each with its JSON type.
  return typeof properties === "object" && properties !== null && !Array.isArray(properties)
    ? properties as { readonly [key: string]: JsonSchemaFacts }
    : {}
}

/** `0-9a-f` → `0-9 and a-f`: the ranges and characters of a character class, in words. */
const classInWords = (body: string): string => orList(body.match(/\\?.-.|\\?./g) ?? [], "and")

const unescape = (text: string): string => text.replace(/\\(.)/g, "$1")

/**
 * A pattern of the contract in words, for the shapes it uses: `^[0-9a-f]{24}$` (so many characters of
 * a class) and `^[^…]*$` (none of some characters). `undefined` for any other shape.
 */
const patternInWords = (pattern: string): { readonly whole: boolean; readonly text: string } | undefined => {
  const counted = /^\^\[([^\]^][^\]]*)\]\{(\d+)(?:,(\d+))?\}\$$/.exec(pattern)
  if (counted !== null) {
    const [, body, min, max] = counted
    const count = max === undefined ? min : `${min} to ${max}`
    return { whole: true, text: `${count} characters of ${classInWords(body)}` }
  }
  const excluded = /^\^\[\^((?:\\.|[^\]\\])+)\]\*\$$/.exec(pattern)
  if (excluded !== null) return { whole: false, text: `none of ${[...unescape(excluded[1])].join(" ")}` }
  return undefined
}

const probe = (schema: Schema.Schema<unknown, unknown>, input: unknown) =>
  Either.getRight(Schema.decodeUnknownEither(schema)(input))

const describeValue = (ast: SchemaAST.AST, facts: JsonSchemaFacts): {
  readonly typeName: string
  readonly text: string
  readonly expected: string
} => {
  const schema = Schema.make(ast)
  const allowed = Allowed.of(ast)
  if (allowed !== undefined) {
    const literals = allowed.values
    const values = `${orList(literals)}${allowed.anyCase ? ", any case" : ""}`
    return {
      typeName: literals.length <= 8 ? literals.join("|") : "VALUE",
      text: values,
      expected: literals.length <= 2 ? values : `one of ${values}`
    }
  }
  const parts: Array<string> = []
  let expected: string
  let typeName: string
  if (facts.type === "integer") {
    typeName = "INT"
    const { maximum: max, minimum: min } = facts
    const bounds = min !== undefined && max !== undefined
      ? ` ${min}..${max}`
      : min !== undefined
      ? ` ${min} or more`
      : max !== undefined
      ? ` at most ${max}`
      : ""
    parts.push(`integer${bounds}`)
    expected = `an integer${bounds}`
    if (facts.default !== undefined) parts.push(`default ${JSON.stringify(facts.default)}`)
    // Told by trying: a value past the maximum is decoded to the maximum (a page's count, C13).
    if (max !== undefined && Option.getOrUndefined(probe(schema, String(max + 1))) === max) {
      parts.push(`a larger value is replaced by ${max}`)
    }
  } else {
    typeName = facts.type === "string" || facts.type === undefined ? "TEXT" : facts.type.toUpperCase()
    const shape = facts.pattern === undefined ? undefined : patternInWords(facts.pattern)
    const length = facts.maxLength !== undefined
      ? ` of ${facts.minLength ?? 0} to ${facts.maxLength} characters`
      : facts.minLength === 1
      ? ", not empty"
      : ""
    const noun = shape?.whole === true ? shape.text : `text${length}`
    parts.push(noun)
    expected = noun
    if (shape !== undefined && !shape.whole) parts.push(shape.text)
    else if (facts.pattern !== undefined && shape === undefined) parts.push(`matching ${facts.pattern}`)
    if (facts.not?.pattern !== undefined) parts.push(`not containing ${facts.not.pattern}`)
    if (facts.default !== undefined) parts.push(`default ${JSON.stringify(facts.default)}`)
  }
  const annotated = Option.getOrUndefined(SchemaAST.getDescriptionAnnotation(ast))
    ?? (SchemaAST.isTransformation(ast) ? Option.getOrUndefined(SchemaAST.getDescriptionAnnotation(ast.to)) : undefined)
  // Effect's generated descriptions ("a string at most 120 character(s) long") repeat the facts above.
  if (annotated !== undefined && !/^an? /.test(annotated)) parts.push(annotated)
  return { typeName, text: parts.join(", "), expected }
}

/**
 * The flags of a payload schema: one per property of its struct. A payload that is not a struct
 * (the free-form payload of an operation whose parameters are not documented) has none.
 *
 * @since 0.1.0
 */
export const fromPayload = (payload: Schema.Schema.AnyNoContext): ReadonlyArray<Flag> => {
  const ast = payload.ast
  if (!SchemaAST.isTypeLiteral(ast) || ast.propertySignatures.length === 0) return []
  const schemas = parameterSchemas(payload)
  return ast.propertySignatures.map((signature) => {
    const key = String(signature.name)
    const type = signature.isOptional ? withoutUndefined(signature.type) : signature.type
    const { expected, text, typeName } = describeValue(type, schemas[key] ?? {})
    return {
      key,
      name: kebab(key),
      optional: signature.isOptional,
      schema: Schema.make(type),
      typeName,
      description: `${key}: ${text}${signature.isOptional ? "" : " (required)"}`,
      expected
    }
  })
}

/**
 * The schema's own message for a value it rejects, on one line.
 *
 * @since 0.1.0
 */
export const formatIssue = (issue: ParseResult.ParseIssue): string =>
  ParseResult.ArrayFormatter.formatIssueSync(issue).map((entry) => entry.message).join("; ")

/** Effect's own messages for its checks ("Expected …, actual …"): they quote types and patterns. */
const generated = /^(?:Expected |Unable to decode )/

/**
 * The one-line refusal of a flag's value: the flag, the value, and the contract's own message for
 * it (`count is at least 1`), or, where the schema has none in words (a type, a literal, a pattern),
 * what the flag wants, said once (`is not one of VK, TG, OK, MAX, CHAT or AVITO, any case`).
 *
 * @since 0.1.0
 */
export const refusal = (flag: Flag, raw: string, issue: ParseResult.ParseIssue): string => {
  const said = [...new Set(ParseResult.ArrayFormatter.formatIssueSync(issue).map((entry) => entry.message))]
    .filter((message) => !generated.test(message))
  return said.length === 0
    ? `--${flag.name}: ${quote(raw)} is not ${flag.expected}`
    : `--${flag.name}: ${quote(raw)} is refused: ${said.join("; ")}`
}

/**
 * The `@effect/cli` option of a flag: its text decoded with the parameter's schema; a value the schema
 * rejects is a usage error naming the flag (see {@link refusal}).
 *
 * @since 0.1.0
 */
export const toOption = (flag: Flag): Options.Options<Option.Option<unknown>> => {
  const decode = Schema.decodeUnknown(flag.schema)
  const text = Options.text(flag.name).pipe(
    Options.withPseudoName(flag.typeName),
    Options.withDescription(flag.description),
    Options.mapEffect((raw) =>
      decode(raw).pipe(
        Effect.mapError((error) => ValidationError.invalidValue(HelpDoc.p(refusal(flag, raw, error.issue))))
      )
    )
  )
  return flag.optional ? Options.optional(text) : Options.map(text, Option.some)
}

/**
 * The options of a payload, and the way back from their values to the operation's parameters.
 *
 * @since 0.1.0
 */
export const options = (payload: Schema.Schema.AnyNoContext): {
  readonly options: Options.Options<Record<string, Option.Option<unknown>>>
  readonly toParams: (values: Record<string, Option.Option<unknown>>) => Record<string, unknown>
} => {
  const flags = fromPayload(payload)
  const byKey: Record<string, Options.Options<Option.Option<unknown>>> = {}
  for (const flag of flags) byKey[flag.key] = toOption(flag)
  return {
    options: flags.length === 0
      ? Options.map(Options.none, () => ({}))
      : Options.all(byKey) as Options.Options<Record<string, Option.Option<unknown>>>,
    toParams: (values) => {
      const params: Record<string, unknown> = {}
      for (const flag of flags) {
        const value = values[flag.key]
        if (value !== undefined && Option.isSome(value)) params[flag.key] = value.value
      }
      return params
    }
  }
}
