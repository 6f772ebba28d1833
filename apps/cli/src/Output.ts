/**
 * How results are written: aligned tables for people, JSON for scripts, one JSON value per line for
 * streamed lists. Values are written as the wire carries them (encoded with the contract's schema).
 *
 * @since 0.1.0
 */

/**
 * The text of one cell: strings as they are, `null` and absent values empty, objects and arrays as
 * compact JSON.
 *
 * @since 0.1.0
 */
export const cell = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  if (typeof value === "string") return value.replace(/[\r\n\t]+/g, " ")
  if (typeof value === "object") return JSON.stringify(value)
  return String(value)
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const pad = (text: string, width: number, right: boolean) => right ? text.padStart(width) : text.padEnd(width)

/**
 * Rows of records as an aligned table with a header of their keys (in order of first appearance);
 * numbers are aligned right. No trailing spaces.
 *
 * @since 0.1.0
 */
export const table = (rows: ReadonlyArray<unknown>): string => {
  const records = rows.map((row) => isRecord(row) ? row : { value: row })
  const columns: Array<string> = []
  for (const record of records) {
    for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key)
  }
  if (columns.length === 0) return ""
  const cells = records.map((record) => columns.map((column) => cell(record[column])))
  const numeric = columns.map((column) =>
    records.length > 0 && records.every((record) => record[column] === undefined || typeof record[column] === "number")
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
export const record = (value: Record<string, unknown>): string => {
  const keys = Object.keys(value)
  const width = Math.max(0, ...keys.map((key) => key.length))
  return keys.map((key) => `${key.padEnd(width)}  ${cell(value[key])}`.trimEnd()).join("\n")
}

/**
 * A result for people: a list as a table, a record as key and value, anything else as JSON.
 *
 * @since 0.1.0
 */
export const human = (value: unknown): string => {
  if (Array.isArray(value)) return table(value)
  if (isRecord(value)) {
    if (Array.isArray(value.items) && typeof value.total === "number" && Object.keys(value).length === 2) {
      return table(value.items)
    }
    return record(value)
  }
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
