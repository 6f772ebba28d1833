/**
 * The shared wire vectors (`lines/effect3/schema/vectors/wire.json`, written by the Effect 3 line): every
 * operation's parameters and answers, each decoded by this line to the outcome the Effect 3 line
 * gives. Any difference between the lines on the wire fails here.
 */
import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as Envelope from "../src/Envelope.js"
import type * as Operation from "../src/Operation.js"
import * as Operations from "../src/Operations.js"

interface Vector {
  readonly operation: string
  readonly kind: "request" | "answer"
  readonly what: string
  readonly input: unknown
  readonly outcome: unknown
}

const vectors: ReadonlyArray<Vector> = JSON.parse(
  readFileSync(new URL("../../../effect3/schema/vectors/wire.json", import.meta.url), "utf8")
)

const requestOutcome = (op: Operation.Any, params: unknown) => {
  const decoded = Schema.decodeUnknownResult(op.payload as Schema.Codec<unknown, unknown>)(params)
  if (Result.isFailure(decoded)) return { refused: true }
  return { params: Schema.encodeSync(op.payload as Schema.Codec<unknown, unknown>)(decoded.success) }
}

const answerOutcome = (op: Operation.Any, body: unknown) => {
  const result = Envelope.decodeResult(op)(body)
  if (Result.isSuccess(result)) {
    return {
      success: op.hasResponse ? Schema.encodeSync(op.success as Schema.Codec<unknown, unknown>)(result.success) : null
    }
  }
  const error = result.failure
  if (error._tag === "EnvelopeDecodeError") return { malformed: true }
  return { error: { tag: error._tag, code: error.code } }
}

describe("the shared wire vectors", () => {
  it("C2 C5 C6 X1 cover every operation of this line, with parameters and answers", () => {
    expect(new Set(vectors.map((vector) => vector.operation))).toEqual(new Set(Operations.all.map((op) => op.path)))
    expect(vectors.length).toBeGreaterThan(1000)
  })

  for (const op of Operations.all) {
    it(`C2 C5 C6 ${op.path}: every vector decodes and encodes as on the Effect 3 line`, () => {
      const mine = vectors.filter((vector) => vector.operation === op.path).map((vector) => ({
        what: `${vector.kind}: ${vector.what}`,
        outcome: vector.kind === "request" ? requestOutcome(op, vector.input) : answerOutcome(op, vector.input)
      }))
      const theirs = vectors.filter((vector) => vector.operation === op.path).map((vector) => ({
        what: `${vector.kind}: ${vector.what}`,
        outcome: vector.outcome
      }))
      expect(mine).toEqual(theirs)
    })
  }
})
