/**
 * The help of `--help` and `-h`, written from the contract rather than by `@effect/cli` (which keeps
 * the parsing): each flag described by its payload field, each command by its operation's summary and
 * who may call it, the usage line with the whole command, the global flags once at the top level, and
 * every line wrapped to the width of the terminal (80 columns in a pipe).
 *
 * @since 0.1.0
 */
import { Operation } from "@community-api/schema"
import * as Commands from "./Commands.js"
import * as ExitCode from "./ExitCode.js"
import * as Flags from "./Flags.js"
import * as Global from "./Global.js"
import { definitions, orList, paragraph, wrap, wrapWords } from "./internal/text.js"
import * as Limits from "./Limits.js"
import * as Mcp from "./Mcp.js"
import * as Record from "./Record.js"
import * as Route from "./Route.js"
import * as Sandbox from "./Sandbox.js"
import * as Verify from "./Verify.js"

/**
 * The width of help where the width of the output is not known (a pipe, a file).
 *
 * @since 0.1.0
 */
export const defaultWidth = 80

/** Narrower than this, wrapping would leave a word or two a line. */
const minWidth = 40

/**
 * The width to wrap at: the terminal's columns when standard output is one, else {@link defaultWidth}.
 *
 * @since 0.1.0
 */
export const widthOf = (stdout: { readonly isTTY?: boolean | undefined; readonly columns?: number | undefined }) =>
  stdout.isTTY === true && stdout.columns !== undefined && stdout.columns > 0
    ? Math.max(minWidth, stdout.columns)
    : defaultWidth

interface Shown {
  readonly name: string
  readonly alias?: string
  readonly typeName?: string
  readonly optional: boolean
  readonly description: string
}

const term = (flag: Shown) =>
  `--${flag.name}${flag.alias === undefined ? "" : `, ${flag.alias}`}${
    flag.typeName === undefined ? "" : ` ${flag.typeName}`
  }`

const usageWord = (flag: Shown) => {
  const word = `--${flag.name}${flag.typeName === undefined ? "" : ` ${flag.typeName}`}`
  return flag.optional ? `[${word}]` : word
}

const common = (flags: ReadonlyArray<Commands.CommonFlag>): ReadonlyArray<Shown> =>
  flags.map((flag) => ({ ...flag, optional: true }))

const parameters = (op: Operation.Any): ReadonlyArray<Shown> =>
  Flags.fromPayload(op.payload).map((flag) => ({
    name: flag.name,
    typeName: flag.typeName,
    optional: flag.optional,
    description: flag.description
  }))

const commonOf = (op: Operation.Any) => {
  const { all, json, retries, tokenStdin } = Commands.commonFlags
  return common(Operation.isPageable(op) ? [json, all, tokenStdin, retries] : [json, tokenStdin, retries])
}

/** A usage line: the command, then its words, wrapped under the command with a deeper indent. */
const usage = (words: ReadonlyArray<string>, width: number) => wrapWords(words, width, "  ", "      ")

const block = (title: string, lines: ReadonlyArray<string>) => ["", title, ...lines]

const globalPointer = (width: number) =>
  block(
    "GLOBAL FLAGS",
    paragraph(`${orList(Global.flags.map((flag) => `--${flag.name}`), "and")}: see ${Route.executable} --help.`, width)
  )

const flagRows = (flags: ReadonlyArray<Shown>) => flags.map((flag) => [term(flag), flag.description] as const)

/** The two flags of `limits` that go together, as one word of its usage. */
const limitsQuestion = `[${term(Limits.flags.creations)} ${term(Limits.flags.by)}]`

const root = (width: number): Array<string> => {
  const { executable } = Route
  const operations = Route.commandSections.flatMap((section) => section.documented)
  return [
    ...wrap(`${executable} ${Commands.version}: ${Commands.about}`, width),
    ...block("USAGE", [
      ...usage([executable, "<section>", "<method>", "[flags]"], width),
      ...usage([executable, Route.recordName, "--out", "FILE", "[flags]"], width),
      ...usage([executable, Route.verifyName, "[flags]"], width),
      ...usage([executable, Route.limitsName, limitsQuestion, "[flags]"], width),
      ...usage([executable, Route.callName, "<section/method>", "[key=value …]", "[flags]"], width),
      ...usage([executable, Route.serveName, "[flags]"], width),
      ...usage([executable, Route.mcpName], width),
      ...usage([executable, "<section>", "[<method>]", "--help"], width)
    ]),
    ...block(
      "COMMANDS",
      definitions(
        [
          ...operations.map((op) => [`${op.section} ${op.method}`, op.summary] as const),
          [Route.recordName, Record.summary],
          [Route.verifyName, Verify.summary],
          [Route.limitsName, Limits.summary],
          [Route.callName, Commands.callSummary],
          [Route.serveName, Commands.serveSummary],
          [Route.mcpName, Mcp.summary]
        ],
        width
      )
    ),
    ...block("GLOBAL FLAGS", definitions(flagRows(Global.flags.map((flag) => ({ ...flag, optional: true }))), width)),
    ...block(
      "EXIT CODES",
      // One table, so that the meanings of 0 and 130 start in the same column.
      definitions(
        ExitCode.describe().map((line) => {
          const [code, ...meaning] = line.split("  ")
          return [code, meaning.join("  ")] as const
        }),
        width
      )
    ),
    ...block("CREDENTIALS", paragraph(Commands.credentials, width))
  ]
}

const section = (target: Route.Section, width: number): Array<string> => {
  const command = `${Route.executable} ${target.name}`
  return [
    ...wrap(`${command}: the operations of ${target.name}/*.`, width),
    ...block("USAGE", [
      ...usage([command, "<method>", "[flags]"], width),
      ...usage([command, "<method>", "--help"], width)
    ]),
    ...block(
      "METHODS",
      definitions(
        target.documented.map((op) => [op.method, `${op.summary} ${Commands.describeAccess(op)}`] as const),
        width
      )
    ),
    ...(target.undocumented.length === 0 ? [] : block(
      `UNDOCUMENTED, BY PATH: ${Route.executable} ${Route.callName} <section/method> key=value …`,
      definitions(target.undocumented.map((op) => [op.path, op.summary] as const), width)
    )),
    ...globalPointer(width)
  ]
}

const operation = (op: Operation.Any, width: number): Array<string> => {
  const command = Route.command({ _tag: "Operation", op })
  const flags = parameters(op)
  const own = commonOf(op)
  return [
    ...wrap(`${command}: ${op.summary}`, width),
    ...block("USAGE", usage([command, ...flags.map(usageWord), ...own.map(usageWord)], width)),
    ...block("DESCRIPTION", paragraph(Commands.operationDetails(op).join(" "), width)),
    ...(flags.length === 0 ? [] : block("FLAGS", definitions(flagRows(flags), width))),
    ...block("OUTPUT AND CALL", definitions(flagRows(own), width)),
    ...globalPointer(width)
  ]
}

const call = (width: number): Array<string> => {
  const command = Route.command({ _tag: "Call" })
  const { json, retries, tokenStdin } = Commands.commonFlags
  const own = common([json, tokenStdin, retries])
  return [
    ...wrap(`${command}: ${Commands.callSummary}`, width),
    ...block("USAGE", usage([command, "<section/method>", "[key=value …]", ...own.map(usageWord)], width)),
    ...block("PARAMETERS", paragraph(Commands.keyValueDescription, width)),
    ...block(
      "OPERATIONS WHOSE PARAMETERS THE API DOES NOT DOCUMENT",
      definitions(
        Route.sections.flatMap((s) => s.undocumented).map((op) => {
          const assumed = Flags.fromPayload(op.payload).map((flag) => flag.key)
          const shown = assumed.length === 0 ? "" : ` Assumed parameters: ${orList(assumed, "and")}.`
          return [op.path, `${op.summary}${shown}`] as const
        }),
        width
      )
    ),
    ...block("FLAGS", definitions(flagRows(own), width)),
    ...globalPointer(width)
  ]
}

const record = (width: number): Array<string> => {
  const command = Route.command({ _tag: "Record" })
  const { retries, tokenStdin } = Commands.commonFlags
  const flags: ReadonlyArray<Shown> = [...Object.values(Record.flags), ...common([tokenStdin, retries])]
  return [
    ...wrap(`${command}: ${Record.summary}`, width),
    ...block("USAGE", usage([command, ...flags.map(usageWord)], width)),
    ...block("DESCRIPTION", paragraph(Record.description, width)),
    ...block("FLAGS", definitions(flagRows(flags), width)),
    ...globalPointer(width)
  ]
}

const verify = (width: number): Array<string> => {
  const command = Route.command({ _tag: "Verify" })
  const { retries, tokenStdin } = Commands.commonFlags
  const flags: ReadonlyArray<Shown> = [...Object.values(Verify.flags), ...common([tokenStdin, retries])]
  const { discover, out, param, ...checking } = Verify.flags
  const both = [Verify.flags.json, Verify.flags.keepPersonalData, ...common([tokenStdin, retries])]
  const repeated = (flag: Shown) => `${usageWord(flag).replace(/\]$/, "")} …${flag.optional ? "]" : ""}`
  return [
    ...wrap(`${command}: ${Verify.summary}`, width),
    // Checking the contract, then discovering: the flags of one are not the other's.
    ...block("USAGE", [
      ...usage([command, ...[...Object.values(checking), ...common([tokenStdin, retries])].map(usageWord)], width),
      ...usage(
        [command, repeated({ ...discover, optional: false }), repeated(param), usageWord(out), ...both.map(usageWord)],
        width
      )
    ]),
    ...block("DESCRIPTION", paragraph(`${Verify.description} ${Verify.discoverDescription}`, width)),
    ...block("FLAGS", definitions(flagRows(flags), width)),
    ...globalPointer(width)
  ]
}

const limits = (width: number): Array<string> => {
  const command = Route.command({ _tag: "Limits" })
  const { by, creations, json } = Limits.flags
  const flags: ReadonlyArray<Shown> = [creations, by, json, ...common([Commands.commonFlags.tokenStdin])]
  return [
    ...wrap(`${command}: ${Limits.summary}`, width),
    // The question's two flags, then the others: `--json` and `--token-stdin`.
    ...block("USAGE", usage([command, limitsQuestion, ...flags.slice(2).map(usageWord)], width)),
    ...block("DESCRIPTION", paragraph(Limits.description, width)),
    ...block("FLAGS", definitions(flagRows(flags), width)),
    ...globalPointer(width)
  ]
}

const serve = (width: number): Array<string> => {
  const command = Route.command({ _tag: "Serve" })
  return [
    ...wrap(`${command}: ${Commands.serveSummary}`, width),
    ...block("USAGE", usage([command, "[sandbox flags]", "[--log-level LEVEL]"], width)),
    ...block("SANDBOX FLAGS", paragraph(`${Sandbox.flags}.`, width)),
    ...globalPointer(width)
  ]
}

const mcp = (width: number): Array<string> => {
  const command = Route.command({ _tag: "Mcp" })
  return [
    ...wrap(`${command}: ${Mcp.summary}`, width),
    ...block("USAGE", usage([command, "[--log-level LEVEL]"], width)),
    ...block("DESCRIPTION", paragraph(Mcp.description, width)),
    ...globalPointer(width)
  ]
}

/**
 * The help of what a route names, wrapped at `width`.
 *
 * @since 0.1.0
 */
export const render = (route: Route.Route, width: number): string => {
  switch (route._tag) {
    case "Root":
      return root(width).join("\n")
    case "Section":
      return section(route.section, width).join("\n")
    case "Operation":
      return operation(route.op, width).join("\n")
    case "Record":
      return record(width).join("\n")
    case "Verify":
      return verify(width).join("\n")
    case "Limits":
      return limits(width).join("\n")
    case "Call":
      return call(width).join("\n")
    case "Serve":
      return serve(width).join("\n")
    case "Mcp":
      return mcp(width).join("\n")
  }
}
