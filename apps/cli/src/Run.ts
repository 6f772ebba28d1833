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

const encode = (schema: Schema.Schema.AnyNoContext, value: unknown): Effect.Effect<unknown> =>
  Effect.orDie(Schema.encodeUnknown(schema)(value))

/**
 * Writes a value (already in its wire form) to standard output; a table with no rows is its header,
 * `header` (see {@link Output.columns}).
 *
 * @since 0.1.0
 */
export const print = (
  value: unknown,
  json: boolean,
  header: ReadonlyArray<string> = [],
  dates: ReadonlySet<string> = new Set()
): Effect.Effect<void> => {
  // An operation with no `response` field prints nothing: the exit code says it succeeded.
  if (value === undefined) return Effect.void
  const text = json ? Output.json(value) : Output.human(value, header, dates)
  return text === "" ? Effect.void : Console.log(text)
}

const offsetOf = (params: Record<string, unknown>) =>
  typeof params.offset === "number" && params.offset > 0 ? ` from offset ${params.offset}` : ""

/**
 * The line on standard error under a table with no rows, so that a person sees that nothing matched
 * rather than nothing at all, while standard output keeps only the table's header for a pipe:
 * `community-api: nothing matched` (`… from offset 1000` past the end of a list).
 *
 * @since 0.1.0
 */
export const emptyNote = (params: Record<string, unknown>): string =>
  `${Report.prefix} nothing matched${offsetOf(params)}`

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
    // With --json, no line is no item: a stream of JSON lines has no header.
    if (json) return
    const schema = Schema.Array(op.item)
    yield* Console.log(Output.table(rows, Output.columns(schema), Output.dates(schema)))
    if (rows.length === 0) yield* Console.error(emptyNote(params))
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
  return `${Report.prefix} ${shown} of ${value.total} rows${offsetOf(params)}; --all streams every page`
}

/**
 * The line a table says on standard error beneath it: {@link emptyNote} when no row matched, else
 * {@link pageNote} when `paged` (a list command, which has `--all`). A script asking for JSON has none.
 */
const noteOf = (
  wire: unknown,
  params: Record<string, unknown>,
  options: { readonly json: boolean; readonly paged: boolean }
): string | undefined => {
  if (options.json) return undefined
  const rows = Output.rowsOf(wire)
  const total = Predicate.isRecord(wire) && typeof wire.total === "number" ? wire.total : 0
  // Rows past the end of a list that has some are told by the page note: something did match.
  if (rows !== undefined && rows.length === 0 && total === 0) return emptyNote(params)
  return options.paged ? pageNote(wire, params) : undefined
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
    yield* print(wire, format.json, Output.columns(op.success), Output.dates(op.success))
    // Said where a person reads the table; a script asking for JSON has `total` in it.
    const paged = format.pageNote !== false && Operation.isPageable(op)
    const note = noteOf(wire, params, { json: format.json, paged })
    if (note !== undefined) yield* Console.error(note)
  })

/**
 * Calls an operation whose parameters the API does not document, by path, with its parameters as
 * given, and writes the answer as it came; an empty list is the header of the rows the contract
 * assumes, if it assumes any.
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
    const wire = op.hasResponse ? value : undefined
    yield* print(wire, format.json, Output.columns(op.success), Output.dates(op.success))
    const note = noteOf(wire, params, { json: format.json, paged: false })
    if (note !== undefined) yield* Console.error(note)
  })
