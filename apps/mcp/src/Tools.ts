/**
 * The tools, derived from the contract: one per documented operation, named after its path
 * (`bots/enable` → `bots_enable`), described by its summary, who may call it and the limits it counts
 * against, with its payload schema as the input schema, its success as the output schema
 * ({@link Output}) and hints from what it does; one `call` tool for the operations the API lists
 * without showing their parameters; and `limits_get` ({@link Limits}), what is left of the user's
 * limits. Nothing here names an operation.
 *
 * @since 0.1.0
 */
import * as OpenApiDocument from "@community-api/core/OpenApiDocument"
import { JsonSchema, Operation, Operations, Page } from "@community-api/schema"
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import * as Action from "./Action.js"
import * as Limits from "./Limits.js"
import * as Output from "./Output.js"

/**
 * The tool of a documented operation.
 *
 * @since 0.1.0
 */
export interface OperationTool {
  readonly _tag: "Operation"
  readonly op: Operation.Any
  readonly definition: Mcp.Tool
}

/**
 * The tool of the operations the API lists without documenting their parameters.
 *
 * @since 0.1.0
 */
export interface CallTool {
  readonly _tag: "Call"
  /** The operations it reaches: every one of {@link callable}, or those a selection leaves. */
  readonly ops: ReadonlyArray<Operation.Any>
  readonly definition: Mcp.Tool
}

/**
 * The tool that tells what is left of the user's limits ({@link Limits}).
 *
 * @since 0.1.0
 */
export interface LimitsTool {
  readonly _tag: "Limits"
  readonly definition: Mcp.Tool
}

/**
 * A tool.
 *
 * @since 0.1.0
 */
export type Tool = OperationTool | CallTool | LimitsTool

/**
 * What MCP allows as a tool name.
 *
 * @since 0.1.0
 */
export const namePattern = /^[a-zA-Z0-9_-]{1,64}$/

/**
 * The tool name of an operation: its path with `_` for `/`.
 *
 * @since 0.1.0
 */
export const nameOf = (op: Operation.Any): string => op.path.replace("/", "_")

/**
 * The name of the tool of the operations the API lists without documenting their parameters.
 *
 * @since 0.1.0
 */
export const callName = "call"

/**
 * Who may call an operation, as a sentence.
 *
 * @since 0.1.0
 */
export const describeAccess = (op: Operation.Any): string => `Access: ${Operation.describe(op).whoMay}.`

/**
 * The limits an operation counts against, as sentences.
 *
 * @since 0.1.0
 */
export const describeLimits = (op: Operation.Any): string => {
  const { creations, requests } = Operation.describe(op)
  return [
    `Limits: counts against the user's ${requests}, which this server paces.`,
    ...(creations === undefined ? [] : [
      `Counts against the creation limit of ${creations.join(" and ")}; once it is used up the tool answers ` +
      "CreationQuotaExceeded with the time it resets."
    ])
  ].join(" ")
}

/**
 * What a list tool takes and gives, as a sentence.
 *
 * @since 0.1.0
 */
export const describePaging = `Gives one page ({items, total}): count items (1 to ${Page.maxCount}, default ` +
  `${Page.defaultCount}) from offset; total counts every match. all: true gathers every page from offset. An ` +
  `answer holds the items that fit the server's size budget; when more are left, next_offset says where to go on.`

/**
 * The description of an operation's tool: its summary, who may call it, the limits, paging, and
 * whether it is sent again after an ambiguous failure.
 *
 * @since 0.1.0
 */
export const describe = (op: Operation.Any): string => {
  const { notRepeated, summary } = Operation.describe(op)
  return [
    summary,
    describeAccess(op),
    describeLimits(op),
    ...(Operation.isPageable(op) ? [describePaging] : []),
    ...(notRepeated === undefined ? [] : [notRepeated])
  ].join(" ")
}

/**
 * The property `all` of a list tool.
 *
 * @since 0.1.0
 */
export const allProperty: JsonSchema.JsonObject = {
  type: "boolean",
  default: false,
  description: `Gather every page from offset on (pages of count, or ${Page.maxCount}) until the answer's size ` +
    `budget is reached; when more are left, next_offset says where to go on.`
}

/**
 * The input schema of an operation's tool: its payload's, standing alone (an assistant's client may
 * not follow references) and refusing any other property, with `all` after the parameters of a list.
 *
 * @since 0.1.0
 */
export const inputSchema = (op: Operation.Any): JsonSchema.JsonObject => {
  const schema = JsonSchema.input(op)
  if (!Operation.isPageable(op)) return schema
  const { properties } = schema
  const own = typeof properties === "object" && properties !== null && !Array.isArray(properties) ? properties : {}
  // `count` as the wire takes it (the OpenAPI document's): a larger value than the page's largest is
  // answered with that largest, not refused, so the schema says so instead of a maximum it would not keep.
  return { ...schema, properties: { ...own, count: OpenApiDocument.countSchema, all: allProperty } }
}

/**
 * A JSON Schema with an object root, as MCP wants a tool's input and output schemas. Every schema given
 * here is one (the contract's payloads are objects); anything else is a bug, told at load.
 *
 * @since 0.1.0
 */
export const objectSchema = (schema: JsonSchema.JsonObject): Mcp.Tool["inputSchema"] => {
  if (schema.type !== "object") throw new Error(`a tool schema must have an object root, not ${String(schema.type)}`)
  return schema as Mcp.Tool["inputSchema"]
}

/**
 * The tool of a documented operation.
 *
 * @since 0.1.0
 */
export const operationTool = (op: Operation.Any): OperationTool => ({
  _tag: "Operation",
  op,
  definition: {
    name: nameOf(op),
    description: describe(op),
    inputSchema: objectSchema(inputSchema(op)),
    outputSchema: Output.forOperation(op),
    annotations: { title: op.path, ...Action.hints(op) }
  }
})

/**
 * The operations `call` reaches: those the API lists without documenting their parameters.
 *
 * @since 0.1.0
 */
export const callable: ReadonlyArray<Operation.Any> = Operations.undocumented

/** Who may call an operation reached by `call`, in a few words. */
const callAccess = (op: Operation.Any): string => op.roleGroup === "none" ? "any token" : op.roleGroup

/**
 * The description of `call` over `ops`: what it reaches and that their parameters are not documented.
 *
 * @since 0.1.0
 */
export const describeCallOf = (ops: ReadonlyArray<Operation.Any>): string => {
  const creations = ops.filter((op) => op.creation).map((op) => op.path)
  return [
    "Calls an operation that the API lists as existing without documenting its parameters or its answer:",
    "their parameters are not documented, so params is sent as given and the answer comes back as the API gave",
    "it. The operations (with who may call each):",
    ops.map((op) => `${op.path}: ${op.summary} (${callAccess(op)})`).join("; ") + ".",
    creations.length === 0
      ? `Every call counts against ${Operation.requestLimit}, which this server paces.`
      : `Creations (${creations.join(", ")}) count against the creation limit of ` +
        `${Operation.creationLimit.join(" and ")}; every call counts against ${Operation.requestLimit}, which ` +
        "this server paces."
  ].join(" ")
}

/**
 * The description of `call` over every operation it may reach.
 *
 * @since 0.1.0
 */
export const describeCall: string = describeCallOf(callable)

/**
 * The input schema of `call` over `ops`: `path` is one of theirs.
 *
 * @since 0.1.0
 */
export const callInputSchemaOf = (ops: ReadonlyArray<Operation.Any>): JsonSchema.JsonObject => ({
  type: "object",
  properties: {
    path: {
      type: "string",
      enum: ops.map((op) => op.path),
      description: "The operation, as section/method."
    },
    params: {
      type: "object",
      additionalProperties: true,
      description: "The parameters, sent as given (not documented; a community is group_id with channel, ids are " +
        "24 characters of 0-9 and a-f). Default: none."
    }
  },
  required: ["path"],
  additionalProperties: false
})

/**
 * The input schema of `call` over every operation it may reach.
 *
 * @since 0.1.0
 */
export const callInputSchema: JsonSchema.JsonObject = callInputSchemaOf(callable)

/**
 * The hints of `call` over `ops`. Over reads alone it is read-only (their declarations say they only
 * read, and the contract holds every read safe to repeat and no creation). Otherwise it may do anything
 * they do, with parameters nobody documented: nothing read-only, idempotent or only additive is
 * promised.
 *
 * @since 0.1.0
 */
export const callHints = (ops: ReadonlyArray<Operation.Any>): NonNullable<Mcp.Tool["annotations"]> =>
  ops.every((op) => op.reads)
    ? { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }
    : { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }

/**
 * The tool of `ops`, some of the operations the API lists without documenting their parameters.
 *
 * @since 0.1.0
 */
export const callToolOf = (ops: ReadonlyArray<Operation.Any>): CallTool => ({
  _tag: "Call",
  ops,
  definition: {
    name: callName,
    description: describeCallOf(ops),
    inputSchema: objectSchema(callInputSchemaOf(ops)),
    outputSchema: Output.forCall,
    annotations: { title: "call an operation whose parameters are not documented", ...callHints(ops) }
  }
})

/**
 * The tool of the operations the API lists without documenting their parameters, every one of them.
 *
 * @since 0.1.0
 */
export const callTool: CallTool = callToolOf(callable)

/**
 * The tool of what is left of the user's limits.
 *
 * @since 0.1.0
 */
export const limitsTool: LimitsTool = { _tag: "Limits", definition: Limits.definition }

/**
 * What a tool is about, for finding and describing it (the compact tools): the sections and paths of
 * the operations it reaches, what it does, who may call it and the limits it counts against, and the
 * words it is found by.
 *
 * @since 0.1.0
 */
export interface About {
  readonly sections: ReadonlyArray<string>
  readonly paths: ReadonlyArray<string>
  /** One line on what it does. */
  readonly summary: string
  /** Who may call it. */
  readonly access: string
  /** The limits it counts against, as sentences. */
  readonly limits: string
  /** The text a search looks in, in lower case: name, paths, sections and summaries. */
  readonly words: string
}

/** The limits of `call` over `ops`, as sentences. */
const callLimits = (ops: ReadonlyArray<Operation.Any>): string => {
  const creations = ops.filter((op) => op.creation).map((op) => op.path)
  return [
    `Limits: every call counts against the user's ${Operation.requestLimit}, which this server paces.`,
    ...(creations.length === 0 ? [] : [
      `Creations (${creations.join(", ")}) count against the creation limit of ` +
      `${Operation.creationLimit.join(" and ")}.`
    ])
  ].join(" ")
}

/**
 * What a tool is about.
 *
 * @since 0.1.0
 */
export const about = (tool: Tool): About => {
  if (tool._tag === "Operation") {
    const { op } = tool
    return {
      sections: [op.section],
      paths: [op.path],
      summary: op.summary,
      access: Operation.describe(op).whoMay,
      limits: describeLimits(op),
      words: [tool.definition.name, op.path, op.section, op.summary].join(" ").toLowerCase()
    }
  }
  if (tool._tag === "Limits") {
    return {
      sections: [],
      paths: [],
      summary: Limits.summary,
      access: "any token",
      limits: "Limits: none; it reads the server's own limiters and sends nothing to the API.",
      words: [tool.definition.name, "budget rate quota", Limits.summary].join(" ").toLowerCase()
    }
  }
  const { ops } = tool
  const paths = ops.map((op) => op.path)
  const summary = `Calls an operation the API lists without documenting its parameters: ${paths.join(", ")}.`
  return {
    sections: [...new Set(ops.map((op) => op.section))],
    paths,
    summary,
    access: `Each operation's own: ${ops.map((op) => `${op.path} ${callAccess(op)}`).join(", ")}.`,
    limits: callLimits(ops),
    words: [tool.definition.name, summary, ...ops.map((op) => `${op.section} ${op.summary}`)].join(" ")
      .toLowerCase()
  }
}

/**
 * Every tool: one per documented operation, in the contract's order, then `call`, then `limits_get`.
 *
 * @since 0.1.0
 */
export const all: ReadonlyArray<Tool> = [...Operations.documented.map(operationTool), callTool, limitsTool]

/**
 * The hints of a tool in words: `read-only`, or `destructive` or `additive`, and `idempotent`.
 *
 * @since 0.1.0
 */
export const hintWords = (annotations: Mcp.Tool["annotations"]): string => {
  if (annotations === undefined) return ""
  if (annotations.readOnlyHint) return "read-only"
  return [
    annotations.destructiveHint ? "destructive" : "additive",
    ...(annotations.idempotentHint ? ["idempotent"] : [])
  ]
    .join(", ")
}

/** Who may call an operation, in a table cell. */
const accessCell = (group: Operation.RoleGroup): string =>
  group === "none" ? "any token" : group === "any" ? "any role" : group === "admin" ? "admins" : `${group} role`

/**
 * The tools as a Markdown table, for `docs/mcp.md` (a test keeps it equal).
 *
 * @since 0.1.0
 */
export const markdown = (): string =>
  [
    "| Tool | What it does | Who may call it | Hints |",
    "|---|---|---|---|",
    ...all.map((tool) => {
      const hints = hintWords(tool.definition.annotations)
      switch (tool._tag) {
        case "Operation":
          return `| \`${tool.definition.name}\` | ${tool.op.summary}${
            Operation.isPageable(tool.op) ? " Paged, with `all`." : ""
          } | ${accessCell(tool.op.roleGroup)} | ${hints} |`
        case "Call":
          return `| \`${callName}\` | Any of the ${callable.length} operations the API lists without documenting ` +
            `their parameters, by path, with parameters as given. | each operation's | ${hints} |`
        case "Limits":
          return `| \`${Limits.name}\` | ${Limits.summary} Sends nothing to the API. | any token | ${hints} |`
      }
    })
  ].join("\n")
