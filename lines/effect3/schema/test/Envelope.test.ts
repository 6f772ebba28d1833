import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, FastCheck, ParseResult, Schema } from "effect"
import { ApiError, Envelope, type Operation, Operations } from "../src/index.js"
import * as FastDecode from "../src/internal/fastDecode.js"
import { junkValues, mutated } from "./support/Mutate.js"
import * as Reference from "./support/Reference.js"

/** The operations C5 names as answering `{status: 'ok'}` with no `response` field. */
const noResponse = Reference.backtickedPaths(Reference.rule("C5"))

/** One success value of an operation, from the arbitrary its schema derives. */
const sampleSuccess = (op: Operation.Any) => FastCheck.sample(Arbitrary.make(op.success), { numRuns: 1, seed: 42 })[0]

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (failure === undefined) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return failure
}

describe("envelope codec", () => {
  it("C5 the spec's no-response operations are declared without a response field, every other with one", () => {
    expect(noResponse.length).toBeGreaterThan(0)
    for (const path of noResponse) expect(Operations.byPath.has(path)).toBe(true)
    for (const op of Operations.all) expect(op.hasResponse).toBe(!noResponse.includes(op.path))
  })

  for (const op of Operations.all) {
    if (op.hasResponse) {
      it.effect(`C5 ${op.path}: {status:'ok', response} decodes to the response`, () =>
        Effect.gen(function*() {
          const value = sampleSuccess(op)
          const body = yield* Envelope.encodeSuccess(op)(value)
          expect(body).toStrictEqual({ status: "ok", response: Schema.encodeSync(op.success)(value) })
          expect(yield* Envelope.decode(op)(JSON.parse(JSON.stringify(body)))).toStrictEqual(
            Schema.decodeUnknownSync(op.success)(JSON.parse(JSON.stringify(Schema.encodeSync(op.success)(value))))
          )
        }))
    } else {
      it.effect(`C5 ${op.path}: {status:'ok'} decodes, and encodes with no response field`, () =>
        Effect.gen(function*() {
          expect(yield* Envelope.decode(op)({ status: "ok" })).toBeUndefined()
          const body = yield* Envelope.encodeSuccess(op)(undefined)
          expect(body).toStrictEqual({ status: "ok" })
          expect(Object.keys(body as object)).toStrictEqual(["status"])
        }))
    }

    it.effect(`C6 X1 ${op.path}: each of its error codes decodes to its tagged error, others to UnexpectedApiError`, () =>
      Effect.gen(function*() {
        for (const code of [...ApiError.errorCodes, 42]) {
          const body = { status: "error", error: "Текст ошибки", error_code: code }
          const error = failureOf(yield* Effect.exit(Envelope.decode(op)(body)))
          const expected = (op.errorCodes as ReadonlyArray<number>).includes(code)
            ? ApiError.byCode[code as ApiError.ErrorCode].name
            : "UnexpectedApiError"
          expect(error._tag).toBe(expected)
          expect(error).toMatchObject({ code, text: "Текст ошибки", operation: op.path })
        }
      }))

    it.effect(`C5 C6 ${op.path}: a body that is neither envelope gives EnvelopeDecodeError`, () =>
      Effect.gen(function*() {
        const bodies: Array<unknown> = [
          null,
          "ok",
          {},
          { status: "fine" },
          { status: "error", error: "x" },
          { status: "error", error_code: "7", error: "x" },
          { status: "error", error_code: 7 }
        ]
        if (op.hasResponse && op.success !== Schema.Unknown) {
          bodies.push({ status: "ok" }, { status: "ok", response: 42 })
        }
        for (const body of bodies) {
          const error = failureOf(yield* Effect.exit(Envelope.decode(op)(body)))
          expect(error).toBeInstanceOf(Envelope.EnvelopeDecodeError)
          expect(error).toMatchObject({ operation: op.path })
        }
      }))
  }

  it("C6 encodeError writes exactly {status:'error', error, error_code}", () => {
    const error = ApiError.make(7, "Не найдено", "bots/getById")
    const body = Envelope.encodeError(error)
    expect(body).toStrictEqual({ status: "error", error: "Не найдено", error_code: 7 })
    expect(Object.keys(body).sort()).toStrictEqual(["error", "error_code", "status"])
    expect(Schema.decodeUnknownSync(Envelope.ErrorEnvelope)(body)).toStrictEqual(body)
  })

  it.effect("C6 an encoded error decodes back to the same tagged error", () =>
    Effect.gen(function*() {
      const op = Operations.vars.create
      const sent = ApiError.make(5, "Лимит", op.path)
      const got = failureOf(yield* Effect.exit(Envelope.decode(op)(Envelope.encodeError(sent))))
      expect(got).toStrictEqual(sent)
    }))

  it.effect("C5 an extra field in a success body does not break decoding", () =>
    Effect.gen(function*() {
      const op = Operations.users.me
      const body = { status: "ok", response: { user_id: 1, auth: "token", client_id: "c", extra: 1 }, trace: "x" }
      expect(yield* Envelope.decode(op)(body)).toStrictEqual({ user_id: 1, auth: "token", client_id: "c" })
    }))
})

describe("envelope decoding of valid answers (the compiled fast path)", () => {
  it("C5 C12 bots/get, the benchmarked answer, is decoded by the fast path", () => {
    expect(FastDecode.make(Envelope.successEnvelope(Operations.bots.get).ast)).toBeDefined()
  })

  const withResponse = Operations.all.filter((op) => op.hasResponse)

  it("C5 every operation's valid answer decodes to what the schema's own decoder gives, keys in the same order", () => {
    for (const op of withResponse) {
      for (const value of FastCheck.sample(Arbitrary.make(op.success), { numRuns: 20, seed: 11 })) {
        const body = JSON.parse(JSON.stringify({ status: "ok", response: Schema.encodeSync(op.success)(value) }))
        const expected = Schema.decodeUnknownSync(Envelope.successEnvelope(op))(body).response
        const actual = Effect.runSync(Envelope.decode(op)(body))
        expect(actual).toStrictEqual(expected)
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
      }
    }
  })

  it("C5 C6 an answer with one wrong value anywhere is refused exactly as the schema refuses it", () => {
    for (const op of withResponse) {
      const values = FastCheck.sample(Arbitrary.make(op.success), { numRuns: 8, seed: 12 })
      values.forEach((value, n) => {
        const response = JSON.parse(JSON.stringify(Schema.encodeSync(op.success)(value) ?? null))
        junkValues.forEach((junk, j) => {
          const body = { status: "ok", response: mutated(response, junk, n * 31 + j * 7) }
          const expected = Schema.decodeUnknownEither(Envelope.successEnvelope(op))(body)
          const exit = Effect.runSyncExit(Envelope.decode(op)(body))
          if (expected._tag === "Right") {
            expect(exit).toStrictEqual(Exit.succeed(expected.right.response))
          } else {
            expect(failureOf(exit)).toStrictEqual(
              new Envelope.EnvelopeDecodeError({
                operation: op.path,
                reason: ParseResult.TreeFormatter.formatErrorSync(expected.left)
              })
            )
          }
        })
      })
    }
    // Thousands of decodings checked against the schema: seconds idle, many times that on a busy machine.
  }, 120_000)
})
