/**
 * A value that does not decode, in one line: the path of the bad field and what was expected there.
 * Schema's own report is a tree with every alternative of every union (the `undefined` of each
 * optional field included); a person needs the one issue that points at the mistake.
 *
 * @internal
 */
import { ParseResult } from "effect"

/** One issue: where (`latency.fixed`, `bots[3].group_id`, empty for the value itself) and what. */
export interface Issue {
  readonly path: string
  readonly message: string
}

/** `["bots", 3, "group_id"]` as `bots[3].group_id`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`,
    ""
  )

/** The `undefined` alternative of an optional field: never the mistake itself. */
const undefinedAlternative = (issue: ParseResult.ArrayFormatterIssue) =>
  issue._tag === "Type" && issue.message.startsWith("Expected undefined, actual ")

/**
 * How precise an issue is: a deeper path first; at one depth, a wrong or missing value before a field
 * that only another alternative of a union refuses (`is unexpected`).
 */
const precision = (issue: ParseResult.ArrayFormatterIssue) =>
  issue.path.length * 2 + (issue._tag === "Unexpected" ? 0 : 1)

const expectation = /^Expected ([\s\S]*), actual ([\s\S]*)$/

/** Schema's wording, in the middle of a line: "expected …", with no `readonly` of TypeScript. */
const plain = (message: string) => message.replace(/^Expected /, "expected ").replace(/\breadonly /g, "")

/**
 * The most precise issue of `error`. When the alternatives of a union each refuse the same value,
 * what each expected is listed: `expected { fixed: … } or { min: …; max: …; seed: … }, actual "x"`.
 */
export const first = (error: ParseResult.ParseError): Issue => {
  const all = ParseResult.ArrayFormatter.formatErrorSync(error)
  const useful = all.filter((issue) => !undefinedAlternative(issue))
  const pool = useful.length > 0 ? useful : all
  const best = pool.reduce<ParseResult.ArrayFormatterIssue | undefined>(
    (found, issue) => found === undefined || precision(issue) > precision(found) ? issue : found,
    undefined
  )
  if (best === undefined) return { path: "", message: plain(error.message) }
  const path = formatPath(best.path)
  const matched = expectation.exec(best.message)
  if (best._tag !== "Type" || matched === null) return { path, message: plain(best.message) }
  const expected = pool.flatMap((issue) => {
    const other = expectation.exec(issue.message)
    return issue._tag === "Type" && other !== null && other[2] === matched[2] && formatPath(issue.path) === path
      ? [other[1]!]
      : []
  })
  return { path, message: plain(`Expected ${[...new Set(expected)].join(" or ")}, actual ${matched[2]}`) }
}

/** An issue as a line: `latency.fixed: expected …`, `latency.seed is missing`, or the message alone. */
export const format = (issue: Issue): string =>
  issue.path === "" ? issue.message : `${issue.path}${issue.message.startsWith("is ") ? " " : ": "}${issue.message}`

/** The most precise issue of `error` as one line. */
export const describe = (error: ParseResult.ParseError): string => format(first(error))
