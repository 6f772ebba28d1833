/**
 * The tools a server offers, from its options: every tool, or those the filters leave (`--read-only`,
 * `--toolsets`, `--tools`, which compose: a tool is kept when every filter given keeps it), or the
 * compact three over them (`--compact`). Each offered tool is its definition, what it is about, and
 * how to run it.
 *
 * `call` is rebuilt for the selection: its `path` reaches only the operations the filters leave, and
 * it is dropped when none is left. `limits_get` only reads, and concerns every section alike (every
 * call spends the limits it tells): `--read-only` and `--toolsets` keep it, `--tools` when named.
 *
 * @since 0.1.0
 */
import type * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import { type Operation, Operations } from "@community-api/schema"
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import * as Answer from "./Answer.js"
import * as Compact from "./Compact.js"
import * as Handlers from "./Handlers.js"
import * as Options from "./Options.js"
import * as Tools from "./Tools.js"

/**
 * A tool as a server offers it.
 *
 * @since 0.1.0
 */
export interface Offered {
  readonly definition: Mcp.Tool
  /** What it is about, for the compact tools to find and describe it. */
  readonly about: Tools.About
  readonly run: (
    client: CommunityApiClient.Client,
    args: Handlers.Arguments,
    settings: Handlers.Settings
  ) => Effect.Effect<Mcp.CallToolResult>
}

/**
 * The refusal of a `path` that `call` could reach, but not on this server: the filters left it out.
 */
const notOffered = (tool: Tools.CallTool, path: string): Mcp.CallToolResult => {
  const allowed = tool.ops.map((op) => op.path)
  const issue: Answer.Issue & { readonly allowed: ReadonlyArray<string> } = {
    parameter: "path",
    message: `${JSON.stringify(path.slice(0, 80))} is not offered by this server; one of ${allowed.join(", ")}`,
    allowed
  }
  return Answer.invalidInput(Tools.callName, [issue])
}

/**
 * A tool of {@link Tools} as offered. A `call` rebuilt for fewer operations refuses any other path
 * before anything is sent, naming the paths it reaches; everything else is {@link Handlers.run}'s.
 *
 * @since 0.1.0
 */
export const offer = (tool: Tools.Tool): Offered => ({
  definition: tool.definition,
  about: Tools.about(tool),
  run: (client, args, settings) => {
    const { path } = args
    // A rebuilt call names the paths it reaches; a documented path is left to the handler, which names
    // the tool to use instead.
    if (
      tool._tag === "Call" && tool.ops.length < Tools.callable.length && typeof path === "string" &&
      !tool.ops.some((op) => op.path === path) && Operations.byPath.get(path)?.documented !== true
    ) {
      return Effect.succeed(notOffered(tool, path))
    }
    return Handlers.run(client, tool, args, settings)
  }
})

/**
 * The toolsets `--toolsets` takes: the sections of the API.
 *
 * @since 0.1.0
 */
export const toolsets: ReadonlyArray<string> = Operations.sectionNames

/**
 * The names `--tools` takes: every tool's.
 *
 * @since 0.1.0
 */
export const toolNames: ReadonlyArray<string> = Tools.all.map((tool) => tool.definition.name)

/** Refuses names not among `allowed`, in one line that lists them. */
const checkNames = (
  flag: string,
  what: string,
  given: ReadonlyArray<string> | undefined,
  allowed: ReadonlyArray<string>
) => {
  const unknown = (given ?? []).filter((name) => !allowed.includes(name))
  if (unknown.length > 0) {
    throw new Options.UsageError(
      `${flag}: no ${what} named ${unknown.map((name) => JSON.stringify(name)).join(", ")}; ` +
        `the ${what}s are ${allowed.join(", ")}`
    )
  }
}

/**
 * Whether `call` may reach an operation under `--read-only`: only the operations whose declaration
 * says they only read. The other flags would not do: "safe to repeat and no creation" also holds for
 * `lists/rename`, `vars/set` or `bots/removeUser`, which change data.
 */
const readsOnly = (op: Operation.Any): boolean => op.reads

/**
 * The tools of {@link Tools} that `surface`'s filters leave, `call` rebuilt over the operations left.
 * Throws an {@link Options.UsageError} for a toolset or a tool that does not exist, or filters that
 * leave no tool.
 *
 * @since 0.1.0
 */
export const select = (surface: Options.Surface): ReadonlyArray<Tools.Tool> => {
  checkNames("--toolsets", "toolset", surface.toolsets, toolsets)
  checkNames("--tools", "tool", surface.tools, toolNames)
  const inToolsets = (section: string) => surface.toolsets === undefined || surface.toolsets.includes(section)
  const named = (name: string) => surface.tools === undefined || surface.tools.includes(name)
  const selected: Array<Tools.Tool> = []
  for (const tool of Tools.all) {
    if (tool._tag === "Limits") {
      if (named(tool.definition.name)) selected.push(tool)
      continue
    }
    if (tool._tag === "Operation") {
      const readOnly = tool.definition.annotations?.readOnlyHint === true
      if ((!surface.readOnly || readOnly) && inToolsets(tool.op.section) && named(tool.definition.name)) {
        selected.push(tool)
      }
      continue
    }
    const ops = tool.ops.filter((op) => (!surface.readOnly || readsOnly(op)) && inToolsets(op.section))
    if (ops.length > 0 && named(tool.definition.name)) {
      selected.push(ops.length === tool.ops.length ? tool : Tools.callToolOf(ops))
    }
  }
  if (selected.length === 0) {
    throw new Options.UsageError(
      "the tool filters leave no tool: --read-only keeps the tools that only read, --toolsets those of the " +
        "sections named, --tools those named, and a tool must pass every filter given"
    )
  }
  return selected
}

/**
 * The tools offered under `surface`: those {@link select} leaves, or the compact three over them.
 * Throws an {@link Options.UsageError} as {@link select} does.
 *
 * @since 0.1.0
 */
export const offered = (surface: Options.Surface): ReadonlyArray<Offered> => offeredOf(select(surface), surface.compact)

/**
 * The tools offered over `selected` (those {@link select} left): each one, or under `compact` the
 * three that reach them.
 *
 * @since 0.1.0
 */
export const offeredOf = (selected: ReadonlyArray<Tools.Tool>, compact: boolean): ReadonlyArray<Offered> => {
  const tools = selected.map(offer)
  return compact ? Compact.tools(tools) : tools
}

/**
 * Every tool, with no filter: what `tools/list` gives when no flag is set.
 *
 * @since 0.1.0
 */
export const full: Options.Surface = Options.defaults.surface
