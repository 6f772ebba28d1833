/**
 * Decodes a payload with its schema and, on failure, writes the Russian text of the error 7 that
 * names the parameter (C6, E11): a missing or empty parameter, a text over 120 characters, a forbidden
 * character of a short name (quoted), a wrong channel, or a wrong value.
 *
 * @internal
 */
import { Variable } from "@community-api/schema"
import { Either, ParseResult, Schema, SchemaAST } from "effect"
import * as Texts from "./texts.js"

const isTitle = (ast: SchemaAST.AST) => ast === Variable.VariableTitle.ast
const isName = (ast: SchemaAST.AST) => ast === Variable.VariableName.ast

const fieldAst = (payload: SchemaAST.AST, key: string): SchemaAST.AST | undefined => {
  try {
    return SchemaAST.getPropertySignatures(payload).find((p) => p.name === key)?.type
  } catch {
    return undefined
  }
}

const textOf = (payload: SchemaAST.AST, params: Record<string, unknown>, issue: ParseResult.ArrayFormatterIssue) => {
  const key = issue.path[0]
  if (typeof key !== "string") return Texts.wrongParameter("")
  const value = params[key]
  if (issue._tag === "Missing" || value === undefined || value === "") return Texts.missingParameter(key)
  if (key === "channel") return Texts.wrongChannel
  const ast = fieldAst(payload, key)
  if (ast !== undefined && (isTitle(ast) || isName(ast)) && typeof value === "string") {
    if (value.length > Variable.maxTextLength) return Texts.tooLong(key, Variable.maxTextLength)
    const found = isName(ast) ? Variable.forbiddenInName(value) : undefined
    if (found !== undefined) return Texts.forbiddenInName(found)
  }
  return Texts.wrongParameter(key)
}

const fieldNames = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  try {
    return SchemaAST.getPropertySignatures(ast).map((p) => String(p.name))
  } catch {
    return []
  }
}

/** Decodes `params` with `schema`; on failure, the text of the error 7. */
export const payload = <A, I>(
  schema: Schema.Schema<A, I>,
  params: Record<string, unknown>
): Either.Either<A, string> => {
  // Every parameter of the API is a number or a string: an object or array is refused before decoding,
  // so no nested value (however deep) reaches the schema or its error formatting.
  const nested = fieldNames(schema.ast).find((key) => typeof params[key] === "object" && params[key] !== null)
  if (nested !== undefined) return Either.left(Texts.wrongParameter(nested))
  return Either.mapLeft(
    Schema.decodeUnknownEither(schema)(params, { errors: "first" }),
    (error) => {
      const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
      return issue === undefined ? Texts.wrongParameter("") : textOf(schema.ast, params, issue)
    }
  )
}
