/**
 * How results are written: aligned tables for people, JSON for scripts, one JSON value per line for
 * streamed lists. Values are written as the wire carries them (encoded with the contract's schema),
 * but for the API's dates, which a table shows as ISO 8601 instants (`2024-03-07T15:00:00Z`) where the
 * wire and JSON keep unix seconds.
 *
 * @since 0.1.0
 */
import { Option, SchemaAST } from "effect"
import type { Schema } from "effect"

/**
 * The text of one cell: strings as they are, `null` and absent values empty, objects and arrays as
 * compact JSON.
 *
 * @since 0.1.0
 */
export const cell = (value: unknown, date = false): string => {
  if (value === null || value === undefined) return ""
  if (date && typeof value === "number") return instant(value)
  if (typeof value === "string") return value.replace(/[\r\n\t]+/g, " ")
  if (typeof value === "object") return JSON.stringify(value)
  return String(value)
}

/** Unix seconds as an ISO 8601 instant in UTC, to the second: `2024-03-07T15:00:00Z`. */
const instant = (seconds: number): string => {
  const date = new Date(seconds * 1000)
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString().replace(/\.000Z$/, "Z")
}

/** The schema of a date of the API on the wire (unix seconds), by its identifier. */
const isDate = (ast: SchemaAST.AST): boolean =>
  Option.getOrUndefined(SchemaAST.getIdentifierAnnotation(ast)) === "UnixSeconds" ||
  (SchemaAST.isUnion(ast) && ast.types.some(isDate))

/** The fields of a record's type whose values are dates. */
const datesIn = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  SchemaAST.isTypeLiteral(ast)
    ? ast.propertySignatures.flatMap((field) =>
      typeof field.name === "string" && isDate(field.type) ? [field.name] : []
    )
    : SchemaAST.isTransformation(ast)
    ? datesIn(ast.to)
    : []

/**
 * The fields of a result's rows (an array's, a page's items) or of a result that is one record, whose
 * values are the API's dates: a table shows them as instants (see {@link cell}).
 *
 * @since 0.1.0
 */
export const dates = (schema: Schema.Schema.AnyNoContext): ReadonlySet<string> => {
  const ast = SchemaAST.isTransformation(schema.ast) ? schema.ast.to : schema.ast
  const element = SchemaAST.isTupleType(ast) && ast.elements.length === 0 && ast.rest.length === 1
    ? ast.rest[0].type
    : undefined
  if (element !== undefined) return new Set(datesIn(element))
  if (!SchemaAST.isTypeLiteral(ast)) return new Set()
  const items = ast.propertySignatures.find((field) => field.name === "items")
  const itemsType = items === undefined ? undefined : items.type
  const item = itemsType !== undefined && SchemaAST.isTupleType(itemsType) && itemsType.rest.length === 1
    ? itemsType.rest[0].type
    : undefined
  return new Set(item === undefined ? datesIn(ast) : datesIn(item))
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const pad = (text: string, width: number, right: boolean) => right ? text.padStart(width) : text.padEnd(width)

/** The field names of a record schema's wire form, in their declared order. */
const fieldsOf = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  SchemaAST.isTypeLiteral(ast)
    ? ast.propertySignatures.flatMap((field) => typeof field.name === "string" ? [field.name] : [])
    : []

/** The element of an array schema (`Schema.Array(item)`). */
const elementOf = (ast: SchemaAST.AST): SchemaAST.AST | undefined =>
  SchemaAST.isTupleType(ast) && ast.elements.length === 0 && ast.rest.length === 1 ? ast.rest[0].type : undefined

/**
 * The columns of a table of a result, from the result's schema: the fields of the rows of an array or
 * of a page (`{items, total}`), in their declared order, as the wire names them. None when the schema
 * does not say (an unknown answer). A table with no rows still shows them as its header.
 *
 * @since 0.1.0
 */
export const columns = (schema: Schema.Schema.AnyNoContext): ReadonlyArray<string> => {
  const wire = SchemaAST.encodedAST(schema.ast)
  const element = elementOf(wire)
  if (element !== undefined) return fieldsOf(element)
  if (!SchemaAST.isTypeLiteral(wire)) return []
  const items = wire.propertySignatures.find((field) => field.name === "items")
  const item = items === undefined ? undefined : elementOf(items.type)
  return item === undefined ? [] : fieldsOf(item)
}

const isPage = (value: unknown): value is { readonly items: ReadonlyArray<unknown>; readonly total: number } =>
  isRecord(value) && Array.isArray(value.items) && typeof value.total === "number" && Object.keys(value).length === 2

/**
 * The rows of a result that is a list: an array, or the items of a page (`{items, total}`);
 * `undefined` for any other result.
 *
 * @since 0.1.0
 */
export const rowsOf = (value: unknown): ReadonlyArray<unknown> | undefined => {
  if (Array.isArray(value)) return value
  return isPage(value) ? value.items : undefined
}

/**
 * Rows of records as an aligned table with a header of their keys (in order of first appearance);
 * numbers are aligned right. No trailing spaces. With no rows, the table is the header of `header`
 * (the {@link columns} of the result's schema), or nothing when it is empty.
 *
 * @since 0.1.0
 */
export const table = (
  rows: ReadonlyArray<unknown>,
  header: ReadonlyArray<string> = [],
  dateFields: ReadonlySet<string> = new Set()
): string => {
  if (rows.length === 0) return header.join("  ")
  const records = rows.map((row) => isRecord(row) ? row : { value: row })
  const columns: Array<string> = []
  for (const record of records) {
    for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key)
  }
  if (columns.length === 0) return ""
  const cells = records.map((record) => columns.map((column) => cell(record[column], dateFields.has(column))))
  const numeric = columns.map((column) =>
    !dateFields.has(column) && records.length > 0 &&
    records.every((record) => record[column] === undefined || typeof record[column] === "number")
  )
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i].length)))
  const line = (values: ReadonlyArray<string>, header: boolean) =>
    values.map((value, i) => pad(value, widths[i], numeric[i] && !header)).join("  ").trimEnd()
  return [line(columns, true), ...cells.map((row) => line(row, false))].join("\n")
}

/**
 * One record as two aligned columns, key and value.
 *
 * @since 0.1.0
 */
export const record = (value: Record<string, unknown>, dateFields: ReadonlySet<string> = new Set()): string => {
  const keys = Object.keys(value)
  const width = Math.max(0, ...keys.map((key) => key.length))
  return keys.map((key) => `${key.padEnd(width)}  ${cell(value[key], dateFields.has(key))}`.trimEnd()).join("\n")
}

/**
 * A result for people: a list (an array, a page) as a table, whose header is `header` when it has no
 * rows; a record as key and value; anything else as JSON.
 *
 * @since 0.1.0
 */
export const human = (
  value: unknown,
  header: ReadonlyArray<string> = [],
  dateFields: ReadonlySet<string> = new Set()
): string => {
  const rows = rowsOf(value)
  if (rows !== undefined) return table(rows, header, dateFields)
  if (isRecord(value)) return record(value, dateFields)
  return value === undefined ? "" : JSON.stringify(value)
}

/**
 * A result for scripts: indented JSON.
 *
 * @since 0.1.0
 */
export const json = (value: unknown): string => JSON.stringify(value ?? null, null, 2)

/**
 * One line of newline-delimited JSON.
 *
 * @since 0.1.0
 */
export const ndjsonLine = (value: unknown): string => JSON.stringify(value ?? null)
