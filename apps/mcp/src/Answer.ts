/**
 * What a tool answers: on success the result as structured content (the decoded result in the wire's
 * JSON form) and one short line of text; on failure a tool error (`isError`) carrying the error type,
 * the code and the server's Russian text, and one English sentence from {@link Advice} on what to do.
 * Neither ever holds a token: errors carry the operation and the server's text, never the request.
 *
 * @since 0.1.0
 */
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { DateTime, Predicate } from "effect"
import * as Advice from "./Advice.js"

/**
 * One parameter refused, and why.
 *
 * @since 0.1.0
 */
export interface Issue {
  /** The parameter, as the input schema names it; empty for the arguments as a whole. */
  readonly parameter: string
  readonly message: string
}

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
 * The answer of a list tool.
 *
 * @since 0.1.0
 */
export const page = (path: string, answer: PageAnswer, offset: number): Mcp.CallToolResult => {
  const more = answer.next_offset === undefined ? "" : `; more from offset ${answer.next_offset}`
  return ({
    content: text(`${path}: ${answer.items.length} of ${answer.total} items from offset ${offset}${more}.`),
    structuredContent: { ...answer }
  })
}

/**
 * The answer of a call that succeeded, with its result in wire form (`undefined` when the API answers
 * no `response` field). Structured content is an object: a result that is not one is given as
 * `{response}`.
 *
 * @since 0.1.0
 */
export const success = (path: string, wire: unknown): Mcp.CallToolResult => {
  if (wire === undefined) {
    return ({ content: text(`${path}: done; the API answers no data for this operation.`) })
  }
  if (isRecord(wire)) {
    return ({
      content: text(`${path}: done${label(wire)}; the result is the structured content.`),
      structuredContent: wire
    })
  }
  const size = Array.isArray(wire) ? ` (${wire.length} items)` : ""
  return ({
    content: text(`${path}: done${size}; the result is the structured content's response.`),
    structuredContent: { response: wire }
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
  /** For refused input: every parameter refused. */
  readonly issues?: ReadonlyArray<Issue>
  /** For a used-up creation quota: the window, and when it resets (ISO 8601). */
  readonly window?: string
  readonly resetsAt?: string
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
 * The tool error of a failed call: an error of the API (type, code, the server's text), of the client
 * (type and its message), or anything else (an internal error, without detail).
 *
 * @since 0.1.0
 */
export const failure = (operation: string, error: unknown): Mcp.CallToolResult => {
  const tag = Predicate.hasProperty(error, "_tag") && typeof error._tag === "string" ? error._tag : Advice.internalTag
  const type = Object.hasOwn(Advice.byTag, tag) ? tag : Advice.internalTag
  const advice = Advice.of(type)
  if (Predicate.hasProperty(error, "code") && Predicate.hasProperty(error, "text") && typeof error.text === "string") {
    const code = Number(error.code)
    return errorResult(`${operation} failed with ${type}, error ${code}: ${error.text}. ${advice}`, {
      type,
      operation,
      code,
      text: error.text,
      advice
    })
  }
  const message = type === Advice.internalTag ? undefined : ownMessage(error, operation)
  const quota = Predicate.hasProperty(error, "window") && Predicate.hasProperty(error, "resetsAt")
    ? {
      window: String(error.window),
      resetsAt: DateTime.isDateTime(error.resetsAt) ? DateTime.formatIso(error.resetsAt) : String(error.resetsAt)
    }
    : {}
  return errorResult(`${operation} failed with ${type}${message === undefined ? "" : `: ${message}`}. ${advice}`, {
    type,
    operation,
    ...(message === undefined ? {} : { message }),
    advice,
    ...quota
  })
}
