/**
 * What a tool answers: structured content with exactly one key, and one short line of text. On
 * success `{result}`: the decoded result in the wire's JSON form (`{items, total, next_offset?}` for a
 * list, `null` when the API answers no data). On failure a tool error (`isError`) with `{error}`: the
 * error type, the code and the server's Russian text, what a limit makes the agent wait, the refused
 * parameters, and one English sentence from {@link Advice} on what to do. Neither ever holds a token:
 * errors carry the operation and the server's text, never the request.
 *
 * @since 0.1.0
 */
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { Predicate } from "effect"
import * as Advice from "./Advice.js"
import type * as Issues from "./Issues.js"

/**
 * One parameter refused, and why (see {@link Issues}).
 *
 * @since 0.1.0
 */
export type Issue = Issues.Issue

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Text on one line, cut to `max` characters. */
const oneLine = (text: string, max = 200): string => {
  const line = text.replace(/\s*\n\s*/g, " ").trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

const text = (line: string) => [{ type: "text" as const, text: line }]

/** What names a record in a line: its id and its name or title. */
const label = (value: Record<string, unknown>): string => {
  const parts: Array<string> = []
  for (const key of ["id", "user_id", "group_id"]) {
    if (typeof value[key] === "string" || typeof value[key] === "number") {
      parts.push(`${key} ${String(value[key])}`)
      break
    }
  }
  const name = [value.name, value.title].find((candidate) => typeof candidate === "string")
  if (typeof name === "string") parts.push(JSON.stringify(oneLine(name, 60)))
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`
}

/**
 * A page as a tool gives it: the items and `total`, and where to go on when items remain.
 *
 * @since 0.1.0
 */
export interface PageAnswer {
  readonly items: ReadonlyArray<unknown>
  readonly total: number
  /** The offset of the first item not given, when `total` says there are more. */
  readonly next_offset?: number
}

/**
 * The answer of a list tool: the page from `offset`, and, when `budget` is given, the budget of
 * characters that left items out (the line then says so).
 *
 * @since 0.1.0
 */
export const page = (path: string, answer: PageAnswer, offset: number, budget?: number): Mcp.CallToolResult => {
  const cut = budget === undefined ? "" : `, as many as fit the answer's budget of ${budget} characters`
  const more = answer.next_offset === undefined ? "" : `; more from offset ${answer.next_offset}`
  return ({
    content: text(`${path}: ${answer.items.length} of ${answer.total} items from offset ${offset}${cut}${more}.`),
    structuredContent: { result: { ...answer } }
  })
}

/**
 * The answer of a call that succeeded, with its result in wire form as `{result}`; `undefined` (the
 * API answers no `response` field) is `{result: null}`.
 *
 * @since 0.1.0
 */
export const success = (path: string, wire: unknown): Mcp.CallToolResult => {
  if (wire === undefined || wire === null) {
    return ({
      content: text(`${path}: done; the API answers no data for this operation.`),
      structuredContent: { result: null }
    })
  }
  const said = isRecord(wire) ? label(wire) : Array.isArray(wire) ? ` (${wire.length} items)` : ""
  return ({
    content: text(`${path}: done${said}; the structured content's result holds the answer.`),
    structuredContent: { result: wire }
  })
}

/**
 * What a tool error carries as structured content.
 *
 * @since 0.1.0
 */
export interface ErrorAnswer {
  /** The error type: `AccessDeniedError`, `CreationQuotaExceeded`, `InvalidInput`, … */
  readonly type: string
  /** The operation, as `section/method`, or the tool. */
  readonly operation: string
  /** The API's error code, for an error of the API. */
  readonly code?: number
  /** The server's text (Russian), for an error of the API. */
  readonly text?: string
  /** The client's account of an error of its own. */
  readonly message?: string
  /** What to do, in English. */
  readonly advice: string
  /** For refused input: every parameter refused, one issue each. */
  readonly issues?: ReadonlyArray<Issue>
  /** For a limit that refused the call (error 5, a used-up creation quota): its window. */
  readonly window?: Advice.Window
  /** When a calendar window of the creation limit opens again (ISO 8601). */
  readonly resets_at?: string
  /** How long to wait before calling again, in milliseconds. */
  readonly retry_after_ms?: number
}

const errorResult = (line: string, error: ErrorAnswer) => ({
  isError: true,
  content: text(oneLine(line, 600)),
  structuredContent: { error }
})

/**
 * The tool error of refused input: every parameter named, nothing sent.
 *
 * @since 0.1.0
 */
export const invalidInput = (tool: string, issues: ReadonlyArray<Issue>): Mcp.CallToolResult => {
  const advice = Advice.of(Advice.invalidInputTag)
  const said = issues.map((issue) => issue.parameter === "" ? issue.message : `${issue.parameter}: ${issue.message}`)
  return errorResult(`${tool}: invalid input, nothing was sent: ${said.join("; ")}. ${advice}`, {
    type: Advice.invalidInputTag,
    operation: tool,
    advice,
    issues
  })
}

/** The message of a client error without its leading `operation: `. */
const ownMessage = (error: unknown, operation: string): string | undefined => {
  if (!(error instanceof Error) || error.message === "") return undefined
  return error.message.startsWith(`${operation}: `) ? error.message.slice(operation.length + 2) : error.message
}

/**
 * When a call failed, and whether its operation is a creation (see {@link Advice.Moment}).
 *
 * @since 0.1.0
 */
export type Context = Advice.Moment

/**
 * The tool error of a failed call: an error of the API (type, code, the server's text), of the client
 * (type and its message), or anything else (an internal error, without detail). With `context`, a
 * limit's refusal also says how long to wait (`window`, `resets_at`, `retry_after_ms`) and its advice
 * says so in words.
 *
 * @since 0.1.0
 */
export const failure = (operation: string, error: unknown, context?: Context): Mcp.CallToolResult => {
  const tag = Predicate.hasProperty(error, "_tag") && typeof error._tag === "string" ? error._tag : Advice.internalTag
  const type = Object.hasOwn(Advice.byTag, tag) ? tag : Advice.internalTag
  const wait = context === undefined || type === Advice.internalTag ? undefined : Advice.waitOf(error, context)
  const advice = wait === undefined ? Advice.of(type) : Advice.ofWait(type, wait)
  if (Predicate.hasProperty(error, "code") && Predicate.hasProperty(error, "text") && typeof error.text === "string") {
    const code = Number(error.code)
    return errorResult(`${operation} failed with ${type}, error ${code}: ${error.text}. ${advice}`, {
      type,
      operation,
      code,
      text: error.text,
      advice,
      ...wait
    })
  }
  const message = type === Advice.internalTag ? undefined : ownMessage(error, operation)
  return errorResult(`${operation} failed with ${type}${message === undefined ? "" : `: ${message}`}. ${advice}`, {
    type,
    operation,
    ...(message === undefined ? {} : { message }),
    advice,
    ...wait
  })
}
