/**
 * What a command does once its flags are parsed: call the operation through {@link Api.Api} and write
 * the answer as the wire carries it: a table, JSON, or one JSON line per item with `--all --json`.
 *
 * @since 0.1.0
 */
import { Operation } from "@community-api/schema"
import { Console, Effect, Predicate, Schema, Stream } from "effect"
import { Api } from "./Api.js"
import * as Output from "./Output.js"
import * as Progress from "./Progress.js"
import * as Report from "./Report.js"
import { Stdio } from "./Stdio.js"

/**
 * How to write the answer.
 *
 * @since 0.1.0
 */
export interface Format {
  /** JSON for scripts instead of a table. */
  readonly json: boolean
  /** Every page of a list (pages of 500), streamed. */
  readonly all: boolean
  /**
   * Under a table of one page, tell on standard error how many rows of how many it shows and that
   * `--all` streams every page; default `true` (`call`, which has no `--all`, says `false`).
   */
  readonly pageNote?: boolean
}

const encode = (schema: Schema.Schema.AnyNoContext, value: unknown) =>
  Effect.orDie(Schema.encodeUnknown(schema as Schema.Schema<unknown, unknown>)(value))

/**
 * Writes a value (already in its wire form) to standard output.
 *
 * @since 0.1.0
 */
export const print = (value: unknown, json: boolean): Effect.Effect<void> => {
  // An operation with no `response` field (C5) prints nothing: the exit code says it succeeded.
  if (value === undefined) return Effect.void
  const text = json ? Output.json(value) : Output.human(value)
  return text === "" ? Effect.void : Console.log(text)
}

const streamAll = (op: Operation.Pageable, params: Record<string, unknown>, json: boolean) =>
  Effect.gen(function*() {
    const api = yield* Api
    const { stderr } = yield* Stdio
    const progress = yield* Progress.make(stderr)
    const rows: Array<unknown> = []
    let count = 0
    yield* api.pages(op, params).pipe(
      Stream.runForEach((page) =>
        Effect.gen(function*() {
          const items = yield* encode(Schema.Array(op.item), page.items) as Effect.Effect<ReadonlyArray<unknown>>
          if (json) {
            if (items.length > 0) yield* Console.log(items.map(Output.ndjsonLine).join("\n"))
          } else {
            rows.push(...items)
          }
          count += items.length
          yield* progress.update(count, page.total)
        })
      ),
      Effect.ensuring(progress.clear)
    )
    if (!json) yield* Console.log(Output.table(rows))
  })

/**
 * The line under a table of one page that does not hold every row: `100 of 640 rows; --all streams
 * every page`, or `undefined` when the page holds them all (or is no page).
 *
 * @since 0.1.0
 */
export const pageNote = (value: unknown, params: Record<string, unknown>): string | undefined => {
  if (!Predicate.isRecord(value) || !Array.isArray(value.items) || typeof value.total !== "number") return undefined
  const shown = value.items.length
  if (shown >= value.total) return undefined
  const offset = typeof params.offset === "number" && params.offset > 0 ? ` from offset ${params.offset}` : ""
  return `${Report.prefix} ${shown} of ${value.total} rows${offset}; --all streams every page`
}

/**
 * Calls a documented operation and writes its answer.
 *
 * @since 0.1.0
 */
export const operation = (
  op: Operation.Any,
  params: Record<string, unknown>,
  format: Format
): Effect.Effect<void, unknown, Api> =>
  Effect.gen(function*() {
    if (format.all && Operation.isPageable(op)) return yield* streamAll(op, params, format.json)
    const api = yield* Api
    const value = yield* api.execute(op, params)
    const wire = op.hasResponse ? yield* encode(op.success, value) : undefined
    yield* print(wire, format.json)
    // Said where a person reads the table; a script asking for JSON has `total` in it.
    const note = format.json || format.pageNote === false || !Operation.isPageable(op)
      ? undefined
      : pageNote(wire, params)
    if (note !== undefined) yield* Console.error(note)
  })

/**
 * Calls an operation of E17 by path, with its parameters as given, and writes the answer as it came.
 *
 * @since 0.1.0
 */
export const undocumented = (
  op: Operation.Any,
  params: Record<string, unknown>,
  format: Pick<Format, "json">
): Effect.Effect<void, unknown, Api> =>
  Effect.gen(function*() {
    const api = yield* Api
    const value = yield* api.call(op, params)
    yield* print(op.hasResponse ? value : undefined, format.json)
  })
