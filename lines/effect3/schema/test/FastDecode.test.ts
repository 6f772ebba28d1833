/**
 * `internal/fastDecode.ts` re-implements, for the node kinds the contract uses, what Effect's parser
 * does. These tests fail when an Effect upgrade changes what it relies on: the shape of the AST nodes
 * it reads, the calling convention of filters, transformations and declarations, the order the parser
 * tries union members and writes struct keys in, and the result on every operation's schemas.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, DateTime, Effect, Either, FastCheck, Option, ParseResult, Schema, SchemaAST as AST } from "effect"
import { Envelope, type Operation, Operations } from "../src/index.js"
import * as FastDecode from "../src/internal/fastDecode.js"
import { junkValues, mutated } from "./support/Mutate.js"

/** What the parser gives, as `Option.some(value)`, or `Option.none()` when it refuses. */
const parsed = (schema: Schema.Schema.AnyNoContext, input: unknown): Option.Option<unknown> =>
  Either.getRight(Schema.decodeUnknownEither(schema)(input))

/** The schemas the fast path is asked about: every success envelope, and every payload for breadth. */
const cases: ReadonlyArray<{ readonly name: string; readonly schema: Schema.Schema.AnyNoContext }> = Operations.all
  .flatMap((op: Operation.Any) => [
    { name: `${op.path} success`, schema: Envelope.successEnvelope(op) },
    { name: `${op.path} payload`, schema: op.payload }
  ])

/** The wire form of samples of a schema's arbitrary. */
const wireSamples = (schema: Schema.Schema.AnyNoContext, numRuns: number, seed: number) =>
  FastCheck.sample(Arbitrary.make(schema), { numRuns, seed }).map((value) =>
    JSON.parse(JSON.stringify(Schema.encodeSync(schema)(value) ?? null))
  )

describe("fastDecode agrees with Effect's parser", () => {
  it("C5 every answer but one with an index signature has a fast path, and every payload with fields", () => {
    const without = cases.filter((c) => FastDecode.make(c.schema.ast) === undefined).map((c) => c.name)
    expect(without.filter((name) => name.endsWith("success"))).toStrictEqual(["groups/getEmployees success"])
    for (const op of Operations.all) {
      const ast = op.payload.ast
      const plain = AST.isTypeLiteral(ast) && ast.indexSignatures.length === 0 && ast.propertySignatures.length > 0
      expect(without.includes(`${op.path} payload`), op.path).toBe(!plain)
    }
  })

  it("C5 C2 on valid input the fast path answers, with the parser's value and key order", () => {
    for (const { name, schema } of cases) {
      const fast = FastDecode.make(schema.ast)
      if (fast === undefined) continue
      for (const input of wireSamples(schema, 15, 21)) {
        const expected = parsed(schema, input)
        expect(Option.isSome(expected), name).toBe(true)
        const actual = fast(input)
        // Some: the fast path did not give up on a valid input (else it no longer pays).
        expect(Option.isSome(actual), name).toBe(true)
        expect(Option.getOrThrow(actual)).toStrictEqual(Option.getOrThrow(expected))
        expect(JSON.stringify(Option.getOrThrow(actual))).toBe(JSON.stringify(Option.getOrThrow(expected)))
      }
    }
  })

  it("C5 C2 on input with one wrong or missing value the fast path never accepts what the parser refuses", () => {
    for (const { name, schema } of cases) {
      const fast = FastDecode.make(schema.ast)
      if (fast === undefined) continue
      wireSamples(schema, 6, 22).forEach((input, n) => {
        const wrong = [
          ...junkValues.map((junk, j) => mutated(input, junk, n * 31 + j * 7)),
          ...(typeof input === "object" && input !== null && !Array.isArray(input)
            ? Object.keys(input).map((key) => Object.fromEntries(Object.entries(input).filter(([k]) => k !== key)))
            : [])
        ]
        for (const body of wrong) {
          const expected = parsed(schema, body)
          const actual = fast(body)
          if (Option.isNone(expected)) expect(actual, `${name}: ${JSON.stringify(body)}`).toStrictEqual(Option.none())
          else if (Option.isSome(actual)) expect(actual.value).toStrictEqual(expected.value)
        }
      })
    }
  })
})

describe("the Effect internals fastDecode reads", () => {
  const options: AST.ParseOptions = {}

  it("C5 a refinement has `from` and a `filter(input, options, ast)` giving an Option of the issue", () => {
    const ast = Schema.Int.ast
    expect(AST.isRefinement(ast)).toBe(true)
    if (!AST.isRefinement(ast)) return
    expect(ast.from._tag).toBe("NumberKeyword")
    expect(ast.filter(1, options, ast)).toStrictEqual(Option.none())
    expect(Option.isSome(ast.filter(1.5, options, ast))).toBe(true)
  })

  it("C5 a final transformation decodes synchronously to an Either; compose has its own kind", () => {
    const ast = Schema.NumberFromString.ast
    expect(AST.isTransformation(ast)).toBe(true)
    if (!AST.isTransformation(ast)) return
    expect(AST.isFinalTransformation(ast.transformation)).toBe(true)
    if (!AST.isFinalTransformation(ast.transformation)) return
    const result = ast.transformation.decode("12", options, ast, "12")
    expect(Either.isEither(result)).toBe(true)
    expect(result).toStrictEqual(Either.right(12))
    const composed = Schema.compose(Schema.String, Schema.NumberFromString).ast
    expect(AST.isTransformation(composed) && AST.isComposeTransformation(composed.transformation)).toBe(true)
  })

  it("C11 a declaration's decodeUnknown(...typeParameters) checks synchronously to an Either", () => {
    const ast = Schema.DateTimeUtcFromSelf.ast
    expect(AST.isDeclaration(ast)).toBe(true)
    if (!AST.isDeclaration(ast)) return
    const now = DateTime.unsafeMake(0)
    const parse = ast.decodeUnknown(...ast.typeParameters)
    expect(parse(now, options, ast)).toStrictEqual(Either.right(now))
    const refused = parse("2020", options, ast)
    expect(Either.isEither(refused) && Either.isLeft(refused)).toBe(true)
  })

  it("C12 an array is a tuple with no elements and one rest type; a struct lists its property signatures", () => {
    const array = Schema.Array(Schema.String).ast
    expect(AST.isTupleType(array) && array.elements.length === 0 && array.rest.length === 1).toBe(true)
    if (AST.isTupleType(array)) expect(array.rest[0]!.type._tag).toBe("StringKeyword")
    const struct = Schema.Struct({ a: Schema.String, b: Schema.optional(Schema.Number) }).ast
    expect(AST.isTypeLiteral(struct)).toBe(true)
    if (!AST.isTypeLiteral(struct)) return
    expect(struct.indexSignatures).toStrictEqual([])
    expect(struct.propertySignatures.map((ps) => [ps.name, ps.isOptional, ps.type._tag])).toStrictEqual([
      ["a", false, "StringKeyword"],
      ["b", true, "Union"]
    ])
  })

  it("C5 the parser tries unkeyed union members in order, keeps struct keys in declaration order, drops extras", () => {
    const tagged = (tag: string) =>
      Schema.transform(Schema.String, Schema.String, { decode: () => tag, encode: (s) => s })
    const union = Schema.Union(tagged("first"), tagged("second"))
    expect(Schema.decodeUnknownSync(union)("x")).toBe("first")
    expect(FastDecode.make(union.ast)!("x")).toStrictEqual(Option.some("first"))
    const struct = Schema.Struct({ b: Schema.Number, a: Schema.optional(Schema.String), u: Schema.Unknown })
    const input = { a: "x", extra: 1, b: 2 }
    const expected = Schema.decodeUnknownSync(struct)(input)
    // A required key of an unknown type that is absent is read as undefined, and kept.
    expect(Object.keys(expected)).toStrictEqual(["b", "a", "u"])
    expect(Option.getOrThrow(FastDecode.make(struct.ast)!(input))).toStrictEqual(expected)
    expect(Object.keys(Option.getOrThrow(FastDecode.make(struct.ast)!(input)) as object)).toStrictEqual(["b", "a", "u"])
  })

  it("C5 what the parser would treat differently is left to it: keyed unions, parse options, index signatures", () => {
    const keyed = Schema.Union(
      Schema.Struct({ kind: Schema.Literal("a"), n: Schema.Number }),
      Schema.Struct({ kind: Schema.Literal("b"), s: Schema.String })
    )
    expect(FastDecode.make(keyed.ast)).toBeUndefined()
    const exact = Schema.Struct({ a: Schema.Number }).annotations({ parseOptions: { exact: true } })
    expect(FastDecode.make(exact.ast)).toBeUndefined()
    expect(FastDecode.make(Schema.Record({ key: Schema.String, value: Schema.Number }).ast)).toBeUndefined()
    // An effectful step met at run time gives up instead of answering; the parser still decodes it.
    const effectful = Schema.transformOrFail(Schema.String, Schema.String, {
      decode: (s) => Effect.succeed(s),
      encode: ParseResult.succeed
    })
    expect(FastDecode.make(effectful.ast)!("x")).toStrictEqual(Option.none())
    expect(Schema.decodeUnknownSync(effectful)("x")).toBe("x")
  })
})
