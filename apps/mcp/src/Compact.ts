/**
 * The compact tool surface (`--compact`): three tools instead of one per operation, so that the list
 * of tools costs an assistant a small part of its context. `find_operations` finds the tools by
 * words, `describe_operation` gives one's description, limits, hints and schemas, and `call_operation`
 * runs one with its arguments and answers exactly what it answers. The three see only the tools they
 * are given: those the other filters left.
 *
 * @since 0.1.0
 */
import type { JsonSchema } from "@community-api/schema"
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import * as Answer from "./Answer.js"
import type * as Handlers from "./Handlers.js"
import * as Output from "./Output.js"
import type * as Surface from "./Surface.js"
import * as Tools from "./Tools.js"

/**
 * The name of the tool that finds tools by words.
 *
 * @since 0.1.0
 * @category constants
 */
export const findName = "find_operations"

/**
 * The name of the tool that describes one tool.
 *
 * @since 0.1.0
 * @category constants
 */
export const describeName = "describe_operation"

/**
 * The name of the tool that calls one tool.
 *
 * @since 0.1.0
 * @category constants
 */
export const callName = "call_operation"

/**
 * The most tools one `find_operations` answer names, and how many when `limit` is not given.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLimit = 20

/**
 * @since 0.1.0
 * @category constants
 */
export const defaultLimit = 10

/** The most characters of `words`: a search, not a text. */
const maxWords = 200

/**
 * One tool found: its name, what it does, who may call it and its hints in words.
 *
 * @since 0.1.0
 * @category models
 */
export interface Found {
  readonly tool: string
  readonly summary: string
  readonly access: string
  readonly hints: string
}

/**
 * The words of a search, in lower case: letters, digits and `_`, so that `bots/get`, `bots get` and
 * `bots_get` all find `bots_get`.
 *
 * @since 0.1.0
 * @category utils
 */
export const termsOf = (words: string): ReadonlyArray<string> =>
  words.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((term) => term !== "")

/**
 * The tools that match `words`, most words matched first (in the order of the list among equals);
 * every tool when `words` has none.
 *
 * @since 0.1.0
 * @category utils
 */
export const find = (tools: ReadonlyArray<Surface.Offered>, words: string): ReadonlyArray<Surface.Offered> => {
  const terms = termsOf(words)
  if (terms.length === 0) return tools
  return tools
    .map((tool, index) => ({ tool, index, score: terms.filter((term) => tool.about.words.includes(term)).length }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ tool }) => tool)
}

const text = (line: string): Mcp.CallToolResult["content"] => [{ type: "text", text: line }]

/** A success of a compact tool: the result as structured content, and one line. */
const success = (line: string, result: unknown): Mcp.CallToolResult => ({
  content: text(line),
  structuredContent: { result }
})

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The issue of an argument the tool does not take. */
const unknownArguments = (args: Handlers.Arguments, known: ReadonlyArray<string>): ReadonlyArray<Answer.Issue> =>
  Object.keys(args).filter((key) => !known.includes(key)).map((key) => ({
    parameter: key,
    message: `is not a parameter of this tool (it takes ${known.join(" and ")})`
  }))

/** The issue of a tool name that is not offered: one, with the names that are. */
const toolIssue = (names: ReadonlyArray<string>, given: unknown): Answer.Issue => {
  const issue: Answer.Issue & { readonly allowed: ReadonlyArray<string> } = {
    parameter: "tool",
    message: typeof given === "string"
      ? `no tool ${JSON.stringify(given.slice(0, 80))} is offered; one of ${names.join(", ")}`
      : `is required: one of ${names.join(", ")}`,
    allowed: names
  }
  return issue
}

/** The worst hints among `tools`: what calling any of them may do (the protocol's defaults when absent). */
const worstHints = (tools: ReadonlyArray<Surface.Offered>) => {
  const hints = tools.map((tool) => tool.definition.annotations ?? {})
  const readOnlyHint = hints.every((hint) => hint.readOnlyHint === true)
  return {
    readOnlyHint,
    destructiveHint: !readOnlyHint && hints.some((hint) => hint.destructiveHint !== false),
    idempotentHint: hints.every((hint) => hint.readOnlyHint === true || hint.idempotentHint === true),
    openWorldHint: hints.some((hint) => hint.openWorldHint !== false)
  }
}

/** The hints of a tool that reads this server's own list of tools and calls nothing. */
const ownHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

const findResultProperties: JsonSchema.JsonObject = {
  operations: {
    type: "array",
    items: {
      type: "object",
      properties: {
        tool: { type: "string" },
        summary: { type: "string" },
        access: { type: "string" },
        hints: { type: "string" }
      },
      required: ["tool", "summary", "access", "hints"],
      additionalProperties: false
    }
  },
  total: { type: "integer", minimum: 0 }
}

/**
 * `find_operations`: the tools whose name, path, section or summary holds the words.
 *
 * @since 0.1.0
 * @category constructors
 */
export const findTool = (tools: ReadonlyArray<Surface.Offered>): Surface.Offered => ({
  definition: {
    name: findName,
    description: `Finds the operations of this server by words (in their names, paths, sections and summaries; ` +
      `empty words list all): each one's tool, summary, access and hints. Then ${describeName} gives a tool's ` +
      `schemas, and ${callName} calls it.`,
    inputSchema: {
      type: "object",
      properties: {
        words: { type: "string", maxLength: maxWords },
        limit: { type: "integer", minimum: 1, maximum: maxLimit, default: defaultLimit }
      },
      required: ["words"],
      additionalProperties: false
    },
    outputSchema: Output.make({
      type: "object",
      properties: findResultProperties,
      required: ["operations", "total"],
      additionalProperties: false
    }),
    annotations: { title: "find operations", ...ownHints }
  },
  about: {
    sections: [],
    paths: [],
    summary: "Finds the operations of this server by words.",
    access: "any token",
    limits: "Limits: none; it calls nothing.",
    words: findName
  },
  run: (_client, args) => {
    const { limit, words } = args
    const issues = [
      ...unknownArguments(args, ["words", "limit"]),
      ...(typeof words === "string" && words.length <= maxWords ? [] : [{
        parameter: "words",
        message: `must be text of at most ${maxWords} characters`
      }]),
      ...(limit === undefined || (Number.isInteger(limit) && Number(limit) >= 1 && Number(limit) <= maxLimit)
        ? []
        : [{ parameter: "limit", message: `must be a whole number from 1 to ${maxLimit}` }])
    ]
    if (issues.length > 0 || typeof words !== "string") return Effect.succeed(Answer.invalidInput(findName, issues))
    const found = find(tools, words)
    const operations: ReadonlyArray<Found> = found.slice(0, typeof limit === "number" ? limit : defaultLimit).map((
      tool
    ) => ({
      tool: tool.definition.name,
      summary: tool.about.summary,
      access: tool.about.access,
      hints: Tools.hintWords(tool.definition.annotations)
    }))
    const line = found.length === 0
      ? `${findName}: no tool matches; the tools are ${tools.map((tool) => tool.definition.name).join(", ")}.`
      : `${findName}: ${operations.length} of ${found.length}: ${operations.map((tool) => tool.tool).join(", ")}.`
    return Effect.succeed(success(line, { operations, total: found.length }))
  }
})

/** The tool named by `args.tool`, or the tool error that says which names there are. */
const chosen = (
  tools: ReadonlyArray<Surface.Offered>,
  tool: string,
  args: Handlers.Arguments,
  known: ReadonlyArray<string>
): { readonly found: Surface.Offered } | { readonly refused: Mcp.CallToolResult } => {
  const names = tools.map((offered) => offered.definition.name)
  const found = tools.find((offered) => offered.definition.name === args.tool)
  const issues = [...unknownArguments(args, known), ...(found === undefined ? [toolIssue(names, args.tool)] : [])]
  return issues.length > 0 || found === undefined ? { refused: Answer.invalidInput(tool, issues) } : { found }
}

/**
 * `describe_operation`: a tool's description, access, limits, hints and its input and output schemas.
 *
 * @since 0.1.0
 * @category constructors
 */
export const describeTool = (tools: ReadonlyArray<Surface.Offered>): Surface.Offered => ({
  definition: {
    name: describeName,
    description: `Describes a tool of ${findName}: what it does, access, limits, hints, and the input schema of ` +
      `the arguments ${callName} takes for it.`,
    inputSchema: {
      type: "object",
      properties: { tool: { type: "string" } },
      required: ["tool"],
      additionalProperties: false
    },
    outputSchema: Output.make({
      type: "object",
      properties: {
        tool: { type: "string" },
        description: { type: "string" },
        access: { type: "string" },
        limits: { type: "string" },
        annotations: { type: "object" },
        inputSchema: { type: "object" },
        outputSchema: { type: "object" }
      },
      required: ["tool", "description", "access", "limits", "annotations", "inputSchema", "outputSchema"],
      additionalProperties: false
    }),
    annotations: { title: "describe an operation", ...ownHints }
  },
  about: {
    sections: [],
    paths: [],
    summary: "Describes one operation of this server.",
    access: "any token",
    limits: "Limits: none; it calls nothing.",
    words: describeName
  },
  run: (_client, args) => {
    const choice = chosen(tools, describeName, args, ["tool"])
    if ("refused" in choice) return Effect.succeed(choice.refused)
    const { about, definition } = choice.found
    const result = {
      tool: definition.name,
      description: definition.description ?? about.summary,
      access: about.access,
      limits: about.limits,
      annotations: definition.annotations ?? {},
      inputSchema: definition.inputSchema,
      outputSchema: definition.outputSchema ?? {}
    }
    // The input schema in the line too: a client that shows the model only text still lets it call.
    return Effect.succeed(success(
      `${describeName}: ${definition.name}: ${result.description} Input schema: ${
        JSON.stringify(definition.inputSchema)
      }`,
      result
    ))
  }
})

/**
 * `call_operation`: runs a tool of {@link findTool} with its arguments and answers exactly what the
 * tool answers. Its hints are the worst of the tools it may call.
 *
 * @since 0.1.0
 * @category constructors
 */
export const callTool = (tools: ReadonlyArray<Surface.Offered>): Surface.Offered => ({
  definition: {
    name: callName,
    description: `Calls a tool of ${findName} with arguments that fit its input schema (${describeName} gives ` +
      "it), and answers what that tool answers.",
    inputSchema: {
      type: "object",
      properties: { tool: { type: "string" }, arguments: { type: "object" } },
      required: ["tool"],
      additionalProperties: false
    },
    outputSchema: Output.make(Output.anyResult),
    annotations: { title: "call an operation", ...worstHints(tools) }
  },
  about: {
    sections: [...new Set(tools.flatMap((tool) => tool.about.sections))],
    paths: tools.flatMap((tool) => tool.about.paths),
    summary: "Calls one operation of this server.",
    access: "that of the operation called",
    limits: "Limits: those of the operation called.",
    words: callName
  },
  run: (client, args, settings: Handlers.Settings) => {
    const choice = chosen(tools, callName, args, ["tool", "arguments"])
    if ("refused" in choice) return Effect.succeed(choice.refused)
    const given = args.arguments
    if (given !== undefined && !isRecord(given)) {
      return Effect.succeed(
        Answer.invalidInput(callName, [{
          parameter: "arguments",
          message: "must be an object of the tool's arguments"
        }])
      )
    }
    return choice.found.run(client, given ?? {}, settings)
  }
})

/**
 * The compact tools over `tools`: find, describe and call, each seeing only `tools`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const tools = (offered: ReadonlyArray<Surface.Offered>): ReadonlyArray<Surface.Offered> => [
  findTool(offered),
  describeTool(offered),
  callTool(offered)
]
