/**
 * A fast path for decoding valid answers: a decoder compiled once from a schema's AST that does what
 * Effect's parser does for the node kinds the contract's answers use (structs, arrays, unions of
 * plain members, refinements, transformations, declarations, keywords and literals), without
 * building an `Either` and an issue per node. It only ever answers "this is the decoded value" or
 * "not sure": on any refusal, and on anything it does not handle, the caller runs the schema's own
 * decoder, so what is refused and every error message stay the schema's.
 *
 * It calls the schema's own filters, transformations and declarations, in the parser's order, so an
 * accepted input yields the same value (the same keys in the same order) as the parser gives.
 *
 * @internal
 */
import { Either, Option, SchemaAST as AST } from "effect"

/** A compiled node: the decoded value, or {@link refused}. Throws {@link Unsupported} to give up. */
type Decoder = (input: unknown) => unknown

/** What a compiled node returns when the input is refused (a faithful refusal: unions go on). */
const refused: unique symbol = Symbol("refused")

/** Thrown when the parser might take a path this module does not follow (an effectful step). */
class Unsupported {}
const unsupported = new Unsupported()

/** The options the parser passes down from `Schema.decodeUnknown` (filters and transformations see them). */
const options: AST.ParseOptions = { isEffectAllowed: true } as AST.ParseOptions

const fromEither = (result: unknown): unknown => {
  if (!Either.isEither(result)) throw unsupported
  return Either.isRight(result) ? result.right : refused
}

/** Whether the parser could sort a union member into a bucket by a literal property (a different order). */
const mayBeKeyed = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "TypeLiteral":
    case "Suspend":
    case "Declaration":
      return true
    case "Refinement":
      return mayBeKeyed(ast.from)
    case "Transformation":
      return mayBeKeyed(ast.from)
    default:
      return false
  }
}

const cache = new WeakMap<AST.AST, Decoder | null>()

/** The compiled decoder of `ast`, or `null` when it uses something this module does not follow. */
const compile = (ast: AST.AST): Decoder | null => {
  const cached = cache.get(ast)
  if (cached !== undefined) return cached
  const decoder = Option.isSome(AST.getParseOptionsAnnotation(ast)) ||
      Option.isSome(AST.getDecodingFallbackAnnotation(ast))
    ? null
    : build(ast)
  cache.set(ast, decoder)
  return decoder
}

const all = (asts: ReadonlyArray<AST.AST>): Array<Decoder> | null => {
  const out: Array<Decoder> = []
  for (const ast of asts) {
    const decoder = compile(ast)
    if (decoder === null) return null
    out.push(decoder)
  }
  return out
}

const build = (ast: AST.AST): Decoder | null => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string" ? u : refused
    case "NumberKeyword":
      return (u) => typeof u === "number" ? u : refused
    case "BooleanKeyword":
      return (u) => typeof u === "boolean" ? u : refused
    case "UndefinedKeyword":
      return (u) => u === undefined ? u : refused
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal ? u : refused
    }
    case "Refinement": {
      const from = compile(ast.from)
      if (from === null) return null
      return (u) => {
        const a = from(u)
        return a === refused || Option.isSome(ast.filter(a, options, ast)) ? refused : a
      }
    }
    case "Transformation": {
      const transformation = ast.transformation
      const decode = AST.isFinalTransformation(transformation)
        ? transformation.decode
        : AST.isComposeTransformation(transformation)
        ? undefined
        : null
      const from = compile(ast.from)
      const to = compile(ast.to)
      if (decode === null || from === null || to === null) return null
      return (u) => {
        const a = from(u)
        if (a === refused) return refused
        const b = decode === undefined ? a : fromEither(decode(a, options, ast, u))
        return b === refused ? refused : to(b)
      }
    }
    case "Declaration": {
      const parse = ast.decodeUnknown(...ast.typeParameters)
      return (u) => fromEither(parse(u, options, ast))
    }
    case "Union": {
      if (ast.types.some(mayBeKeyed)) return null
      const members = all(ast.types)
      if (members === null) return null
      return (u) => {
        for (const member of members) {
          const a = member(u)
          if (a !== refused) return a
        }
        return refused
      }
    }
    case "TupleType": {
      // Arrays only: `Schema.Array(item)` is a tuple with no elements and one rest type.
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return null
      const item = compile(ast.rest[0]!.type)
      if (item === null) return null
      return (u) => {
        if (!Array.isArray(u)) return refused
        const out: Array<unknown> = []
        for (let i = 0; i < u.length; i++) {
          const a = item(u[i])
          if (a === refused) return refused
          out.push(a)
        }
        return out
      }
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length !== 0 || ast.propertySignatures.length === 0) return null
      const fields = ast.propertySignatures.map((ps) => ({ name: ps.name, optional: ps.isOptional, type: ps.type }))
      const decoders = all(fields.map((field) => field.type))
      if (decoders === null) return null
      return (u) => {
        if (typeof u !== "object" || u === null || Array.isArray(u)) return refused
        const input = u as Record<PropertyKey, unknown>
        const out: Record<PropertyKey, unknown> = {}
        for (let i = 0; i < fields.length; i++) {
          const { name, optional } = fields[i]!
          // As the parser: an absent optional key stays absent; an absent required key is read as undefined.
          if (optional && !Object.prototype.hasOwnProperty.call(input, name)) continue
          const a = decoders[i]!(input[name])
          if (a === refused) return refused
          out[name] = a
        }
        return out
      }
    }
    default:
      return null
  }
}

/**
 * A decoder for `ast` that gives `Option.some(value)` when the input is valid and decodes without an
 * effect, and `Option.none()` when the schema's own decoder must decide (refusals included); or
 * `undefined` when the schema uses something this module does not follow.
 *
 * @internal
 */
export const make = (ast: AST.AST): ((input: unknown) => Option.Option<unknown>) | undefined => {
  const decoder = compile(ast)
  if (decoder === null) return undefined
  return (input) => {
    try {
      const value = decoder(input)
      return value === refused ? Option.none() : Option.some(value)
    } catch (error) {
      if (error === unsupported) return Option.none()
      throw error
    }
  }
}
