/**
 * `community-api verify --discover OPERATION …`: the shape of undocumented reading operations learnt
 * from their answers. Each operation named is called through the client (paced and retried as every
 * call is) with the parameters given, once per combination of the values of a repeated parameter;
 * the answers' `response` go to the core's `Discovery`, which infers their JSON Schema and writes a
 * draft of the contract's declaration. The drafts are printed (or written to `--out`) for a person
 * to review: nothing is applied. Only undocumented operations that only read are ever sent: any other
 * name is refused before the first call.
 *
 * @since 0.1.0
 */
import * as Discovery from "@community-api/core/Discovery"
import type * as Operation from "@community-api/core/Operation"
import * as CoreOperations from "@community-api/core/Operations"
import { Console, Effect } from "effect"
import * as fs from "node:fs/promises"
import { Api } from "./Api.js"
import * as Fakes from "./Fakes.js"
import * as KeyValue from "./KeyValue.js"
import * as Progress from "./Progress.js"
import { Stdio } from "./Stdio.js"
import { UsageError } from "./UsageError.js"
import { ends } from "./Verification.js"

/**
 * How a discovery goes.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** The operations to call, `section/method`, each an undocumented one that only reads. */
  readonly operations: ReadonlyArray<string>
  /** The `--param` words, `key=value` (text) or `key:=json`; a key given again adds a call. */
  readonly params: ReadonlyArray<string>
  /** The most calls of one operation: the combinations of the values of repeated parameters. */
  readonly maxCalls: number
  /** Keep the values of the answers as read, instead of made-up ones of the same shape. */
  readonly keepPersonalData: boolean
  /** The seed of the made-up values. */
  readonly seed: number
  /** Print JSON, for a machine. */
  readonly json: boolean
  /** The file the drafts go to instead of standard output. */
  readonly out: string | undefined
}

type Json = Discovery.Json

/**
 * What discovery learnt of one operation: its calls, the errors some answered, and the draft of its
 * declaration when at least one answered.
 *
 * @since 0.1.0
 * @category models
 */
export interface Discovered {
  readonly operation: string
  readonly calls: number
  /** Each error code answered, with the number of calls that answered it. */
  readonly errors: ReadonlyArray<{ readonly code: number; readonly calls: number }>
  /** `undefined` when no call answered. */
  readonly draft: Discovery.Draft | undefined
}

/**
 * The operations named, or the usage error of the first that may not be discovered: unknown,
 * documented (the documentation gives its shape), or not only reading.
 *
 * @since 0.1.0
 * @category utils
 */
export const operationsOf = (
  names: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<Operation.Any>, UsageError> =>
  Effect.forEach([...new Set(names)], (name) => {
    const op = CoreOperations.all.find((candidate) => candidate.path === name)
    const refused = (why: string) =>
      Effect.fail(new UsageError({ reason: `verify --discover ${name}: ${why}; nothing was sent` }))
    if (op === undefined) return refused("there is no such operation (community-api call --help lists them)")
    if (op.documented) return refused("its answer is documented: verify without --discover checks it")
    if (!CoreOperations.onlyReads(op)) return refused("it does not only read, and --discover sends only reads")
    return Effect.succeed(op)
  })

/**
 * The parameters of each call: one call with every `--param`, or, when a key is given several times,
 * one call per combination of its values (at most `maxCalls`).
 *
 * @since 0.1.0
 * @category utils
 */
export const callsOf = (
  words: ReadonlyArray<string>,
  maxCalls: number
): Effect.Effect<ReadonlyArray<{ readonly [key: string]: Json }>, UsageError> =>
  Effect.gen(function*() {
    const values = new Map<string, Array<Json>>()
    for (const word of words) {
      const [entry] = Object.entries(yield* KeyValue.parse([word]))
      if (entry === undefined) continue
      values.set(entry[0], [...(values.get(entry[0]) ?? []), entry[1] as Json])
    }
    let calls: ReadonlyArray<{ readonly [key: string]: Json }> = [{}]
    for (const [key, options] of values) {
      calls = calls.flatMap((params) => options.map((value) => ({ ...params, [key]: value })))
      if (calls.length > maxCalls) {
        return yield* new UsageError({
          reason: `verify --discover: the values of repeated --param make more than ${maxCalls} calls of an operation`
        })
      }
    }
    return calls
  })

/**
 * The discovery in words: per operation, the JSON Schema of its `response` and the draft of its
 * declaration, or why there is none.
 *
 * @since 0.1.0
 * @category utils
 */
export const text = (discovered: ReadonlyArray<Discovered>): string => {
  const calls = discovered.reduce((sum, d) => sum + d.calls, 0)
  const errorsOf = (d: Discovered) =>
    d.errors.map((e) => `error ${e.code} (${e.calls} call${e.calls === 1 ? "" : "s"})`).join(", ")
  return [
    `Discovered ${discovered.length} operation${discovered.length === 1 ? "" : "s"} in ${calls} call${
      calls === 1 ? "" : "s"
    }: drafts to review, nothing applied.`,
    ...discovered.flatMap((d) =>
      d.draft === undefined
        ? ["", `== ${d.operation}: no answer to infer from: ${errorsOf(d)}`]
        : [
          "",
          `== ${d.operation}: ${d.draft.answers} answer${d.draft.answers === 1 ? "" : "s"} of ${d.calls} call${
            d.calls === 1 ? "" : "s"
          }${d.errors.length === 0 ? "" : `; also ${errorsOf(d)}`}`,
          "",
          "JSON Schema of the response:",
          d.draft.response === undefined ? "(no answer carried a response)" : JSON.stringify(d.draft.response, null, 2),
          "",
          "Draft declaration:",
          d.draft.declaration
        ]
    )
  ].join("\n")
}

/**
 * What a discovery gives: each operation's {@link Discovered}, and the first error of an operation
 * that answered nothing to infer from (`undefined` when each answered).
 *
 * @since 0.1.0
 * @category models
 */
export interface Outcome {
  readonly operations: ReadonlyArray<Discovered>
  readonly failure: unknown
}

/**
 * Calls the operations (`options.operations`, checked first) with the parameters, and drafts a
 * declaration of each from its answers, their texts made up unless `keepPersonalData`. Fails with
 * the first error that ends a run (the token refused, the limits, no answer).
 *
 * @since 0.1.0
 * @category constructors
 */
export const discover = (
  options: Options,
  progress: Progress.Progress = { update: () => Effect.void, clear: Effect.void }
): Effect.Effect<Outcome, unknown, Api> =>
  Effect.gen(function*() {
    const ops = yield* operationsOf(options.operations)
    const calls = yield* callsOf(options.params, options.maxCalls)
    const api = yield* Api
    const fakes = Fakes.make(options.seed)
    const total = ops.length * calls.length
    let done = 0
    let failure: unknown = undefined
    const operations = yield* Effect.forEach(ops, (op) =>
      Effect.gen(function*() {
        const samples: Array<Discovery.Sample> = []
        const errors = new Map<number, number>()
        let firstError: unknown = undefined
        for (const params of calls) {
          const answered = yield* api.call(op as never, params).pipe(
            Effect.map((response) => ({ response: response as Json | undefined })),
            Effect.catchIf((error) => !ends(error), (error) => Effect.succeed({ error }))
          )
          done += 1
          yield* progress.update(done, total)
          if ("error" in answered) {
            const code = (answered.error as { readonly code: number }).code
            errors.set(code, (errors.get(code) ?? 0) + 1)
            firstError ??= answered.error
          } else {
            samples.push({
              params,
              response: options.keepPersonalData || answered.response === undefined
                ? answered.response
                : fakes.unknown(answered.response) as Json
            })
          }
        }
        if (samples.length === 0) failure ??= firstError
        return {
          operation: op.path,
          calls: calls.length,
          errors: [...errors].map(([code, count]) => ({ code, calls: count })),
          draft: samples.length === 0 ? undefined : Discovery.draft(op.path, samples)
        }
      }))
    return { operations, failure }
  }).pipe(Effect.ensuring(progress.clear))

/**
 * The command: discovers (see {@link discover}) with the progress of the calls on standard error
 * when it is a terminal, then writes the drafts whole, JSON with `json`, to `out` or standard output.
 * When an operation answered only errors, it ends with the first of them (its exit code) after the
 * drafts of the others.
 *
 * @since 0.1.0
 * @category constructors
 */
export const run = (options: Options): Effect.Effect<void, unknown, Api> =>
  Effect.gen(function*() {
    const { stderr } = yield* Stdio
    const progress = yield* Progress.make(stderr, "calls")
    const outcome = yield* discover(options, progress)
    const output = options.json ? JSON.stringify({ operations: outcome.operations }, null, 2) : text(outcome.operations)
    if (options.out === undefined) yield* Console.log(output)
    else {
      const out = options.out
      yield* Effect.tryPromise({
        try: () => fs.writeFile(out, `${output}\n`),
        catch: (cause) => new UsageError({ reason: `verify --out: cannot write ${out}: ${String(cause)}` })
      })
      yield* Console.error(`The drafts are in ${out}.`)
    }
    if (outcome.failure !== undefined) return yield* Effect.fail(outcome.failure)
  })
