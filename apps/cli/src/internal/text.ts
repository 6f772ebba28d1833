/**
 * Plain text for people: lists in words and paragraphs wrapped to a width. Help is read on terminals
 * of any width and in pipes (80 columns), so nothing here assumes one.
 */

/** `a`, `a or b`, `a, b or c` (with `and` when asked); a word quoted as a refusal quotes it. */
export { orList, quote } from "@community-api/core/ParameterWords"

/**
 * `text` wrapped at spaces so that no line is longer than `width` (a word longer than the line stays
 * whole), the first line after `first` and the others after `rest`.
 */
export const wrap = (text: string, width: number, first = "", rest = first): Array<string> =>
  wrapWords(text.split(/\s+/), width, first, rest)

/** As {@link wrap}, for words that may hold spaces themselves (`[--count INT]`) and stay whole. */
export const wrapWords = (
  words: ReadonlyArray<string>,
  width: number,
  first = "",
  rest = first
): Array<string> => {
  const lines: Array<string> = []
  let line = first
  let empty = true
  for (const word of words.filter((w) => w !== "")) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line)
      line = rest + word
    } else {
      line = empty ? line + word : `${line} ${word}`
    }
    empty = false
  }
  lines.push(line.trimEnd())
  return lines
}

/**
 * Rows of a term and its description, the descriptions in one column (wrapped under it); a term too
 * wide for the column puts its description on the next line.
 */
export const definitions = (
  rows: ReadonlyArray<readonly [term: string, description: string]>,
  width: number,
  indent = 2
): Array<string> => {
  const margin = " ".repeat(indent)
  // The column of the descriptions: past the usual terms, but never more than a third of the line.
  const widest = Math.max(0, ...rows.map(([term]) => term.length))
  const column = indent + Math.min(widest, Math.floor(width / 3)) + 2
  const hanging = " ".repeat(column)
  return rows.flatMap(([term, description]) => {
    const head = margin + term
    if (head.length + 2 > column) return [head, ...wrap(description, width, hanging)]
    return wrap(description, width, head.padEnd(column), hanging)
  })
}

/** A paragraph wrapped at `width` after an indent. */
export const paragraph = (text: string, width: number, indent = 2): Array<string> => {
  const margin = " ".repeat(indent)
  return wrap(text, width, margin)
}

/** The edit distance of two words (insertions, deletions, substitutions), for "did you mean". */
export const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]
}

/** The candidate nearest to `word`, when it is near enough to be a typing slip. */
export const nearest = (word: string, candidates: ReadonlyArray<string>): string | undefined => {
  let best: string | undefined
  let bestDistance = Math.max(1, Math.floor(word.length / 4))
  for (const candidate of candidates) {
    const d = distance(word, candidate)
    if (d <= bestDistance) {
      best = candidate
      bestDistance = d - 1
    }
  }
  return best
}
