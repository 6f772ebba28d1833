/**
 * Decodes a payload with its schema and, on failure, writes the Russian text of the error 7 that
 * names the parameter (C6, E11): a missing or empty required parameter, a text over 120 characters, a
 * forbidden character of a short name (quoted), a wrong channel, or a wrong value.
 *
 * @internal
 */
import { Page, Variable } from "@community-api/schema"
import { Either, ParseResult, Schema, SchemaAST } from "effect"
import * as Texts from "./texts.js"

/**
 * Whether `ast` is `target`, or `target` with other annotations: annotating a refinement (a list's
 * name is a variable's title with its own identifier) makes a new node around the same filter.
 */
const isOrAnnotates = (ast: SchemaAST.AST, target: SchemaAST.AST): boolean =>
  ast === target ||
  (SchemaAST.isRefinement(ast) && SchemaAST.isRefinement(target) && ast.filter === target.filter &&
    ast.from === target.from)

const isTitle = (ast: SchemaAST.AST) => isOrAnnotates(ast, Variable.VariableTitle.ast)
const isName = (ast: SchemaAST.AST) => isOrAnnotates(ast, Variable.VariableName.ast)

/** What decoding needs to know of a payload's fields, found once per schema. */
interface Fields {
  readonly byName: ReadonlyMap<string, SchemaAST.PropertySignature>
  /** The payload's decoder, made once. */
  readonly decode: (params: unknown) => Either.Either<unknown, ParseResult.ParseError>
  /** Whether the payload takes the page parameters `count` and `offset` of the contract (C13). */
  readonly paged: boolean
}

const pageFields = new Map(
  SchemaAST.getPropertySignatures(Schema.Struct(Page.PageParams).ast).map((p) => [p.name, p.type])
)

const fieldsCache = new WeakMap<Schema.Schema.Any, Fields>()

const fieldsOf = (schema: Schema.Schema.Any): Fields => {
  let fields = fieldsCache.get(schema)
  if (fields === undefined) {
    const ast = schema.ast
    let signatures: ReadonlyArray<SchemaAST.PropertySignature> = []
    try {
      signatures = SchemaAST.getPropertySignatures(ast)
    } catch {
      // not a struct: no named fields
    }
    const byName = new Map(signatures.map((p) => [String(p.name), p]))
    fields = {
      byName,
      decode: Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>, { errors: "first" }),
      paged: byName.get("count")?.type === pageFields.get("count") &&
        byName.get("offset")?.type === pageFields.get("offset")
    }
    fieldsCache.set(schema, fields)
  }
  return fields
}

const textOf = (fields: Fields, params: Record<string, unknown>, issue: ParseResult.ArrayFormatterIssue) => {
  const key = issue.path[0]
  if (typeof key !== "string") return Texts.wrongParameter("")
  const value = params[key]
  const field = fields.byName.get(key)
  // An empty value is "not passed" only for a required parameter; an optional one sent empty is wrong.
  const required = field !== undefined && !field.isOptional
  if (issue._tag === "Missing" || value === undefined || (value === "" && required)) {
    return Texts.missingParameter(key)
  }
  if (key === "channel") return Texts.wrongChannel
  const ast = field?.type
  if (ast !== undefined && (isTitle(ast) || isName(ast)) && typeof value === "string") {
    if (value.length > Variable.maxTextLength) return Texts.tooLong(key, Variable.maxTextLength)
    const found = isName(ast) ? Variable.forbiddenInName(value) : undefined
    if (found !== undefined) return Texts.forbiddenInName(found)
  }
  return Texts.wrongParameter(key)
}

/** An integer past the safe range, as a JSON number or a string of digits. */
const isHugeInteger = (value: unknown): boolean =>
  typeof value === "number"
    ? Number.isInteger(value) && value > Number.MAX_SAFE_INTEGER
    : typeof value === "string" && /^\d+$/.test(value) && Number(value) > Number.MAX_SAFE_INTEGER

/**
 * Any `count` above 500 is replaced by 500 and any `offset` skips past every record (C13), also one too
 * large for the contract's integer (beyond 2^53): such values are brought into range before decoding.
 */
const inRange = (fields: Fields, params: Record<string, unknown>): Record<string, unknown> => {
  if (!fields.paged || !(isHugeInteger(params.count) || isHugeInteger(params.offset))) return params
  return {
    ...params,
    ...(isHugeInteger(params.count) ? { count: Page.maxCount } : {}),
    ...(isHugeInteger(params.offset) ? { offset: Number.MAX_SAFE_INTEGER } : {})
  }
}

/** Decodes `params` with `schema`; on failure, the text of the error 7. */
export const payload = <A, I>(
  schema: Schema.Schema<A, I>,
  params: Record<string, unknown>
): Either.Either<A, string> => {
  const fields = fieldsOf(schema)
  // Every parameter of the API is a number or a string: an object or array is refused before decoding,
  // so no nested value (however deep) reaches the schema or its error formatting.
  for (const key of fields.byName.keys()) {
    const value = params[key]
    if (typeof value === "object" && value !== null) return Either.left(Texts.wrongParameter(key))
  }
  const input = inRange(fields, params)
  return Either.mapLeft(
    fields.decode(input) as Either.Either<A, ParseResult.ParseError>,
    (error) => {
      const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
      return issue === undefined ? Texts.wrongParameter("") : textOf(fields, input, issue)
    }
  )
}
