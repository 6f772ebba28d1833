/**
 * Writes `vectors/wire.json`: the shared wire test vectors, which both Effect lines must decode and
 * encode the same. For every operation: parameters (the documented example, the forms the wire
 * allows such as digits in a string or a channel in lower case, and values each parameter refuses)
 * and answers (the documented example, every error code it declares, a code it does not, and bodies
 * that are no envelope or whose `response` is wrong). Each vector carries its outcome as this line
 * (Effect 3, the design card's) gives it; the Effect 4 line's test checks it gets the same, and a
 * test of this package checks the file is current. Run with `pnpm --filter @community-api/schema
 * vectors`.
 */
import { Effect, Either, Schema } from "effect"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as ApiError from "../src/ApiError.js"
import * as Envelope from "../src/Envelope.js"
import type * as Operation from "../src/Operation.js"
import * as Operations from "../src/Operations.js"
import { examples } from "./openapi.js"

/** Where the vectors are written. */
export const target = fileURLToPath(new URL("../vectors/wire.json", import.meta.url))

/** What a line makes of a vector: the same JSON in both lines. */
export type Outcome =
  | { readonly params: unknown }
  | { readonly refused: true }
  | { readonly success: unknown }
  | { readonly error: { readonly tag: string; readonly code: number } }
  | { readonly malformed: true }

/**
 * One vector: parameters of an operation (`request`) or an answer of it (`answer`), with what
 * decoding it gives.
 */
export interface Vector {
  readonly operation: string
  readonly kind: "request" | "answer"
  readonly what: string
  readonly input: unknown
  readonly outcome: Outcome
}

/** The outcome of parameters: decoded and encoded again, or refused. */
export const requestOutcome = (op: Operation.Any, params: unknown): Outcome => {
  const decoded = Schema.decodeUnknownEither(op.payload)(params, { onExcessProperty: "ignore" })
  if (Either.isLeft(decoded)) return { refused: true }
  return { params: Schema.encodeSync(op.payload)(decoded.right) }
}

/** The outcome of an answer: the success encoded again, the error's tag and code, or malformed. */
export const answerOutcome = (op: Operation.Any, body: unknown): Outcome => {
  const result = Effect.runSync(Effect.either(Envelope.decode(op)(body)))
  if (Either.isRight(result)) {
    return { success: op.hasResponse ? Schema.encodeSync(op.success)(result.right) : null }
  }
  const error = result.left
  if (error._tag === "EnvelopeDecodeError") return { malformed: true }
  return { error: { tag: error._tag, code: error.code } }
}

/** Values a parameter refuses, by the JSON Schema type of what it takes. */
const wrongValues: ReadonlyArray<unknown> = [null, true, [], {}, "", "не число", -1, 0, 1.5, 1e21]

/** The forms the wire allows beside the example's: digits in a string, lower case. */
const otherForms = (value: unknown): ReadonlyArray<unknown> =>
  typeof value === "number" && Number.isInteger(value)
    ? [String(value)]
    : typeof value === "string"
    ? [value.toLowerCase(), value.toUpperCase()].filter((form) => form !== value)
    : []

const requestVectors = (op: Operation.Any, example: Record<string, unknown>): Array<Vector> => {
  const vector = (what: string, input: unknown): Vector => ({
    operation: op.path,
    kind: "request",
    what,
    input,
    outcome: requestOutcome(op, input)
  })
  const vectors = [vector("the documented example", example), vector("no parameters", {})]
  for (const [name, value] of Object.entries(example)) {
    for (const form of otherForms(value)) {
      vectors.push(vector(`${name} as ${JSON.stringify(form)}`, { ...example, [name]: form }))
    }
    for (const wrong of wrongValues) {
      vectors.push(vector(`${name} as ${JSON.stringify(wrong)}`, { ...example, [name]: wrong }))
    }
    const { [name]: _left, ...without } = example
    vectors.push(vector(`without ${name}`, without))
  }
  return vectors
}

const answerVectors = (op: Operation.Any, example: unknown): Array<Vector> => {
  const vector = (what: string, input: unknown): Vector => ({
    operation: op.path,
    kind: "answer",
    what,
    input,
    outcome: answerOutcome(op, input)
  })
  const vectors = [vector("the documented example", example)]
  for (const code of op.errorCodes) {
    vectors.push(vector(`error ${code}`, { status: "error", error: `Ошибка ${code}`, error_code: code }))
  }
  const undeclared = ApiError.errorCodes.find((code) => !(op.errorCodes as ReadonlyArray<number>).includes(code))
  if (undeclared !== undefined) {
    vectors.push(
      vector(`error ${undeclared}, not declared`, { status: "error", error: "Ошибка", error_code: undeclared })
    )
  }
  vectors.push(vector("an unknown error code", { status: "error", error: "Ошибка", error_code: 42 }))
  for (
    const [what, body] of [
      ["null", null],
      ["an array", []],
      ["a string", "ok"],
      ["an empty object", {}],
      ["ok with no response", { status: "ok" }],
      ["ok with a null response", { status: "ok", response: null }],
      ["an error with no code", { status: "error", error: "Ошибка" }],
      ["an error with a text code", { status: "error", error: "Ошибка", error_code: "7" }],
      ["another status", { status: "fine", response: {} }]
    ] as const
  ) vectors.push(vector(what, body))
  // The example's response with one field gone and with one field of the wrong type.
  const response = (example as { readonly response?: unknown }).response
  const record = (response as { readonly items?: ReadonlyArray<unknown> } | undefined)?.items?.[0] ?? response
  if (typeof record === "object" && record !== null && !Array.isArray(record)) {
    const [first] = Object.keys(record)
    if (first !== undefined) {
      const change = (value: unknown) => {
        const copy = { ...(record as Record<string, unknown>) }
        if (value === undefined) delete copy[first]
        else copy[first] = value
        return copy
      }
      const wrap = (changed: unknown) =>
        record === response
          ? { status: "ok", response: changed }
          : { status: "ok", response: { ...(response as object), items: [changed] } }
      vectors.push(vector(`the response without ${first}`, wrap(change(undefined))))
      vectors.push(vector(`the response with ${first} as an object`, wrap(change({ wrong: true }))))
    }
  }
  return vectors
}

/** Every vector, operation by operation. */
export const vectors = (): ReadonlyArray<Vector> =>
  Operations.all.flatMap((op) => {
    const example = examples()[op.path]
    if (example === undefined) throw new Error(`${op.path}: no example in scripts/examples.json`)
    return [
      ...requestVectors(op, example.request as Record<string, unknown>),
      ...answerVectors(op, example.response)
    ]
  })

/** The file's text. */
export const render = (): string => `${JSON.stringify(vectors(), null, 1)}\n`

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(target, render())
  console.log(`vectors: wrote ${vectors().length} vectors to ${target}`)
}
