/**
 * What `community-api-mcp` is asked to do, from its words: over standard input and output (the
 * default) or Streamable HTTP (`--http`, `--port`, `--host`), which tools it offers (`--read-only`,
 * `--toolsets`, `--tools`, `--compact`, which compose), and how much of a list one answer carries
 * (`--budget`). A secret is never a word (it would show in the process list): the HTTP server reads it
 * from its environment.
 *
 * @since 0.1.0
 */
import { parseArgs } from "node:util"
import * as Budget from "./Budget.js"

/**
 * The default port of `--http`.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPort = 8765

/**
 * The default host of `--http`: loopback only.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultHost = "127.0.0.1"

/**
 * Where the protocol runs.
 *
 * @since 0.1.0
 * @category models
 */
export type Transport =
  | { readonly _tag: "Stdio" }
  | { readonly _tag: "Http"; readonly port: number; readonly host: string }

/**
 * Which tools are offered: each filter leaves fewer; `compact` offers three tools (find, describe,
 * call) over those the filters leave.
 *
 * @since 0.1.0
 * @category models
 */
export interface Surface {
  readonly readOnly: boolean
  /** Sections whose tools are kept (`bots`, `vars`, …); every section when absent. */
  readonly toolsets: ReadonlyArray<string> | undefined
  /** Tools kept by name; every tool when absent. */
  readonly tools: ReadonlyArray<string> | undefined
  readonly compact: boolean
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly transport: Transport
  readonly surface: Surface
  /** The budget of one answer's list items, in characters of JSON. */
  readonly budget: number
}

/**
 * The options with no word given: standard input and output, every tool, the default budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Options = {
  transport: { _tag: "Stdio" },
  surface: { readOnly: false, toolsets: undefined, tools: undefined, compact: false },
  budget: Budget.defaultChars
}

/**
 * Words that do not make options: the one line to say.
 *
 * @since 0.1.0
 * @category errors
 */
export class UsageError extends Error {
  override readonly name = "UsageError"
}

const list = (value: string | undefined): ReadonlyArray<string> | undefined =>
  value === undefined ? undefined : value.split(",").map((word) => word.trim()).filter((word) => word !== "")

const wholeNumber = (flag: string, value: string, min: number, max: number): number => {
  if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`)
  }
  return Number(value)
}

/**
 * The options of the words after the program's name. A flag it does not know, a missing or wrong
 * value, `--port` or `--host` without `--http`, or a word that looks like a secret is a
 * {@link UsageError}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const parse = (words: ReadonlyArray<string>): Options => {
  let parsed: ReturnType<typeof read>
  try {
    parsed = read(words)
  } catch (error) {
    if (error instanceof UsageError) throw error
    // node:util's messages name the flag; they are one line and hold no value but the flag's.
    throw new UsageError(error instanceof Error ? error.message.split("\n")[0]! : String(error))
  }
  const { values } = parsed
  if (values.secret !== undefined) {
    throw new UsageError(
      "the secret is never given on the command line (other users can read it there): " +
        "set COMMUNITY_API_MCP_SECRET or COMMUNITY_API_MCP_SECRET_FILE"
    )
  }
  if (values.http !== true && (values.port !== undefined || values.host !== undefined)) {
    throw new UsageError("--port and --host go with --http")
  }
  const surface: Surface = {
    readOnly: values["read-only"] === true,
    toolsets: list(values.toolsets),
    tools: list(values.tools),
    compact: values.compact === true
  }
  const budget = values.budget === undefined
    ? Budget.defaultChars
    : wholeNumber("--budget", values.budget, 1_000, 10_000_000)
  if (values.http !== true) return { transport: { _tag: "Stdio" }, surface, budget }
  const port = values.port === undefined ? defaultPort : wholeNumber("--port", values.port, 0, 65_535)
  const host = values.host ?? defaultHost
  if (host === "") throw new UsageError("--host takes a host name or address")
  return { transport: { _tag: "Http", port, host }, surface, budget }
}

const read = (words: ReadonlyArray<string>) =>
  parseArgs({
    args: [...words],
    strict: true,
    allowPositionals: false,
    options: {
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      "read-only": { type: "boolean" },
      toolsets: { type: "string" },
      tools: { type: "string" },
      compact: { type: "boolean" },
      budget: { type: "string" },
      // Known only to be refused with a reason.
      secret: { type: "string" }
    }
  })
