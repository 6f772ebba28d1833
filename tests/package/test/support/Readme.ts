/**
 * The parts of the root README.md that the release rehearsal runs as written: the code block under a
 * heading, and the lines of its Install section.
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { root } from "./sources.js"

const readme = (): string => readFileSync(path.join(root, "README.md"), "utf8")

/**
 * The text from `heading` (a whole line, `## …` or `### …`) to the next heading of its level or above,
 * outside fenced code (where `# …` is a shell comment).
 */
export const section = (heading: string): string => {
  const lines = readme().split("\n")
  const start = lines.indexOf(heading)
  if (start < 0) throw new Error(`README.md has no heading ${JSON.stringify(heading)}`)
  const level = heading.indexOf(" ")
  let fenced = false
  let end = start + 1
  for (; end < lines.length; end++) {
    const line = lines[end]!
    if (line.startsWith("```")) fenced = !fenced
    const depth = /^(#+) /.exec(line)?.[1]?.length
    if (!fenced && depth !== undefined && depth <= level) break
  }
  return lines.slice(start + 1, end).join("\n")
}

/** The first fenced block of `language` under `heading`, as written. */
export const block = (heading: string, language: string): string => {
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)\\n```").exec(section(heading))
  if (match === null) throw new Error(`README.md has no ${language} block under ${JSON.stringify(heading)}`)
  return `${match[1]}\n`
}
