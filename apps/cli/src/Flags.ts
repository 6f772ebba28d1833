/**
 * Command-line flags derived from an operation's payload schema: one flag per parameter, named in
 * kebab-case, described and validated by the parameter's own schema. Nothing here names an operation.
 *
 * @since 0.1.0
 */
import * as ParameterWords from "@community-api/core/ParameterWords"
import { JsonSchema } from "@community-api/schema"
import { HelpDoc, Options, ValidationError } from "@effect/cli"
import { Effect, Option, ParseResult, Schema, SchemaAST } from "effect"

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

/**
 * The flags of a payload schema: one per property of its struct. A payload that is not a struct
 * (the free-form payload of an operation whose parameters are not documented) has none.
 *
 * @since 0.1.0
 */
export const fromPayload = (payload: Schema.Schema.AnyNoContext): ReadonlyArray<Flag> => {
  const ast = payload.ast
  if (!SchemaAST.isTypeLiteral(ast) || ast.propertySignatures.length === 0) return []
  // The words of each parameter, from the contract's JSON Schema of the payload: the same words the
  // client and the MCP server give (the core's `ParameterWords`).
  const words = ParameterWords.ofPayload(JsonSchema.fromPayload(payload))
  return ast.propertySignatures.map((signature) => {
    const key = String(signature.name)
    const type = signature.isOptional ? withoutUndefined(signature.type) : signature.type
    const { expected, text, typeName } = words.get(key) ?? ParameterWords.of(key, {})
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
  return `--${flag.name}: ${ParameterWords.refused(flag, raw, said)}`
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
