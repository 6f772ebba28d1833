/**
 * Command-line flags derived from an operation's payload schema: one flag per parameter, named in
 * kebab-case, described and validated by the parameter's own schema. Nothing here names an operation.
 *
 * @since 0.1.0
 */
import { HelpDoc, Options, ValidationError } from "@effect/cli"
import { Effect, JSONSchema, Option, ParseResult, Schema, SchemaAST } from "effect"

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
  readonly schema: Schema.Schema<unknown, unknown>
  /** A short type name for the usage line (`GroupId`, `VK|TG|…`). */
  readonly typeName: string
  /** What the contract says about the value. */
  readonly description: string
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

/** The literal values a parameter admits, seen through transformations (Channel, 0|1, statuses). */
const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.LiteralValue> | undefined => {
  switch (ast._tag) {
    case "Literal":
      return [ast.literal]
    case "Union": {
      const parts = ast.types.map(literalsOf)
      return parts.every((part) => part !== undefined) ? parts.flat() : undefined
    }
    case "Transformation":
      return literalsOf(ast.to)
    default:
      return undefined
  }
}

type JsonSchemaFacts = {
  readonly type?: string
  readonly description?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly default?: unknown
}

/** The JSON Schema of a parameter, its `$ref` resolved: the contract's own facts about the value. */
const jsonFacts = (ast: SchemaAST.AST): JsonSchemaFacts => {
  try {
    const json = JSONSchema.make(Schema.make(ast)) as JsonSchemaFacts & {
      readonly $ref?: string
      readonly $defs?: Record<string, JsonSchemaFacts>
    }
    const ref = json.$ref?.replace("#/$defs/", "")
    return ref !== undefined && json.$defs?.[ref] !== undefined ? json.$defs[ref] : json
  } catch {
    return {}
  }
}

const describeValue = (ast: SchemaAST.AST): { readonly typeName: string; readonly text: string } => {
  const literals = literalsOf(ast)
  const facts = jsonFacts(ast)
  const identifier = Option.getOrUndefined(SchemaAST.getIdentifierAnnotation(ast))
  const parts: Array<string> = []
  if (literals !== undefined) {
    parts.push(`one of ${literals.join(", ")}`)
  } else if (facts.type !== undefined) {
    parts.push(facts.type)
  }
  if (facts.minimum !== undefined || facts.maximum !== undefined) {
    parts.push(`${facts.minimum ?? ""}..${facts.maximum ?? ""}`)
  }
  if (facts.pattern !== undefined && literals === undefined) parts.push(`matching ${facts.pattern}`)
  else if (facts.maxLength !== undefined) parts.push(`${facts.minLength ?? 0} to ${facts.maxLength} characters`)
  if (facts.default !== undefined) parts.push(`default ${JSON.stringify(facts.default)}`)
  const annotated = Option.getOrUndefined(SchemaAST.getDescriptionAnnotation(ast))
    ?? (SchemaAST.isTransformation(ast) ? Option.getOrUndefined(SchemaAST.getDescriptionAnnotation(ast.to)) : undefined)
  // Effect's generated descriptions ("a string at most 120 character(s) long") repeat the facts above.
  if (annotated !== undefined && !/^an? /.test(annotated)) parts.push(annotated)
  const typeName = literals !== undefined && literals.length <= 8
    ? literals.join("|")
    : identifier ?? facts.type ?? "value"
  return { typeName, text: parts.join("; ") }
}

/**
 * The flags of a payload schema: one per property of its struct. A payload that is not a struct
 * (the free-form payload of E17) has none.
 *
 * @since 0.1.0
 */
export const fromPayload = (payload: Schema.Schema.AnyNoContext): ReadonlyArray<Flag> => {
  const ast = payload.ast
  if (!SchemaAST.isTypeLiteral(ast)) return []
  return ast.propertySignatures.map((signature) => {
    const key = String(signature.name)
    const type = signature.isOptional ? withoutUndefined(signature.type) : signature.type
    const { text, typeName } = describeValue(type)
    return {
      key,
      name: kebab(key),
      optional: signature.isOptional,
      schema: Schema.make(type) as Schema.Schema<unknown, unknown>,
      typeName,
      description: `${key}: ${text}${signature.isOptional ? "" : " (required)"}`
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

/**
 * The `@effect/cli` option of a flag: its text decoded with the parameter's schema; a value the schema
 * rejects is a usage error naming the flag and quoting the schema's message.
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
        Effect.mapError((error) =>
          ValidationError.invalidValue(HelpDoc.p(`--${flag.name}: ${JSON.stringify(raw)} ${formatIssue(error.issue)}`))
        )
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
