/**
 * Reads the project's own description of the API (`docs/reference.md`) and its rule index
 * (`docs/rules.md`), so that tests compare the contract with that text instead of a second copy of
 * its lists in test code. Both live in the repository: a test never reads outside it.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

// This module is `lines/effect3/schema/test/support/Reference.ts`: the repository root is five levels up.
const docsDir = fileURLToPath(new URL("../../../../../docs/", import.meta.url))

/** The whole reference document. */
export const api: string = readFileSync(`${docsDir}reference.md`, "utf8")

/** The rule index. */
export const rules: string = readFileSync(`${docsDir}rules.md`, "utf8")

/** The text of the rule `id` in docs/rules.md (without the ID). */
export const rule = (id: string): string => {
  const line = rules.split("\n").find((l) => l.startsWith(`- ${id} `))
  if (line === undefined) throw new Error(`no rule ${id} in docs/rules.md`)
  return line.slice(`- ${id} `.length)
}

/** Every backticked `section/method` in a text. */
export const backtickedPaths = (text: string): Array<string> =>
  [...text.matchAll(/`([A-Za-z]+\/[A-Za-z]+)`/g)].map((m) => m[1]!)

/** The part of the reference under a heading, up to the next heading of the same or a higher level. */
export const section = (heading: string): string => {
  const lines = api.split("\n")
  const start = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, "") === heading)
  if (start === -1) throw new Error(`no heading "${heading}" in docs/reference.md`)
  const level = lines[start]!.match(/^#+/)![0].length
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((l) => {
    const m = l.match(/^(#+) /)
    return m !== null && m[1]!.length <= level
  })
  return (end === -1 ? rest : rest.slice(0, end)).join("\n")
}

/** The rows of the first Markdown table in a text, as arrays of trimmed cells, header and rule excluded. */
export const tableRows = (text: string): Array<Array<string>> => {
  const rows = text.split("\n").filter((l) => l.startsWith("|"))
  return rows.slice(2).map((row) => row.split("|").slice(1, -1).map((cell) => cell.trim()))
}

/** The Markdown tables of a text, each as its lines. */
export const tables = (text: string): Array<string> => {
  const found: Array<Array<string>> = []
  let inTable = false
  for (const line of text.split("\n")) {
    const isRow = line.startsWith("|")
    if (isRow && !inTable) found.push([])
    if (isRow) found[found.length - 1]!.push(line)
    inTable = isRow
  }
  return found.map((lines) => lines.join("\n"))
}

/** Every heading of a level (`###`) with its text. */
export const headings = (level: number): Array<string> =>
  api.split("\n").filter((l) => l.startsWith(`${"#".repeat(level)} `)).map((l) => l.slice(level + 1))
