/**
 * The values a parameter allows, read from its schema: the command line's help and the MCP server's
 * refusals list them from here, never by hand.
 *
 * @since 0.1.0
 */
import { Either, Schema, SchemaAST } from "effect"

/**
 * A value a parameter may be given.
 *
 * @since 0.1.0
 * @category models
 */
export type Value = string | number | boolean | null

/**
 * The values a parameter allows, and whether they are taken in any letter case.
 *
 * @since 0.1.0
 * @category models
 */
export interface Allowed {
  readonly values: ReadonlyArray<Value>
  readonly anyCase: boolean
}

/**
 * The literal values a schema admits, seen through transformations (a channel, `0 | 1`, a status)
 * and the `undefined` of an optional parameter; `undefined` when it admits anything else.
 *
 * @since 0.1.0
 * @category utils
 */
export const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.LiteralValue> | undefined => {
  switch (ast._tag) {
    case "Literal":
      return [ast.literal]
    case "Enums":
      return ast.enums.map(([, value]) => value)
    case "Union": {
      const parts = ast.types.filter((type) => !SchemaAST.isUndefinedKeyword(type)).map(literalsOf)
      return parts.length > 0 && parts.every((part) => part !== undefined) ? parts.flat() : undefined
    }
    case "Transformation":
      return literalsOf(ast.to)
    default:
      return undefined
  }
}

/**
 * The values the schema `ast` allows, when it reduces to literals, and whether they are taken in any
 * letter case: told by trying each in lower case (a channel's `vk`), so that it follows the schema.
 *
 * @since 0.1.0
 * @category utils
 */
export const of = (ast: SchemaAST.AST): Allowed | undefined => {
  const literals = literalsOf(ast)
  if (literals === undefined || literals.length === 0) return undefined
  const decode = Schema.decodeUnknownEither(Schema.make(ast))
  const strings = literals.filter((value): value is string => typeof value === "string")
  const anyCase = strings.some((value) => value.toLowerCase() !== value) &&
    strings.every((value) => Either.isRight(decode(value.toLowerCase())))
  return { values: literals.map((value) => typeof value === "bigint" ? String(value) : value), anyCase }
}
