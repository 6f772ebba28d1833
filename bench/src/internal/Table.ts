/**
 * The table printed at the end of a run.
 */
import type { Result } from "./Result.js"

const mark = (met: boolean | null) => met === null ? "—" : met ? "met" : "MISSED"

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - text.length))

/** Renders the results as a plain-text table, then the notes of missed targets. */
export const render = (results: ReadonlyArray<Result>): string => {
  const rows = results.map((r) => [
    r.id,
    r.title,
    r.headline,
    r.target,
    mark(r.met) + (r.versusEffect3 === undefined ? "" : `; vs Effect 3: ${mark(r.versusEffect3.met)}`)
  ])
  const header = ["id", "benchmark", "figures", "target", "status"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => pad(c, widths[i]!)).join(" | ").trimEnd()
  const notes = results.flatMap((r) => [
    ...(r.note === undefined ? [] : [`${r.id}: ${r.note}`]),
    ...(r.versusEffect3?.note === undefined ? [] : [`${r.id} against Effect 3: ${r.versusEffect3.note}`])
  ])
  return [
    line(header),
    widths.map((w) => "-".repeat(w)).join("-|-"),
    ...rows.map(line),
    ...(notes.length > 0 ? ["", "Notes:", ...notes] : []),
    ""
  ].join("\n")
}
