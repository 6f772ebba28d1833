/**
 * What the words of a command line name, read from the contract before the parser sees them: the
 * top level, a section, one of its documented operations, `record`, `limits`, `call`, `serve` or `mcp`. Words that name nothing
 * are a usage error that lists what there is (the methods of the section, the sections). Errors the
 * parser finds later (a flag, a value) are put in the same one-line form here.
 *
 * @since 0.1.0
 */
import { Operation, Operations } from "@community-api/schema"
import { HelpDoc, ValidationError } from "@effect/cli"
import { Either } from "effect"
import * as Commands from "./Commands.js"
import * as Credentials from "./Credentials.js"
import * as Flags from "./Flags.js"
import * as Global from "./Global.js"
import { nearest, orList, quote } from "./internal/text.js"
import * as Limits from "./Limits.js"
import * as Record from "./Record.js"
import { UsageError } from "./UsageError.js"
import * as Verify from "./Verify.js"

/**
 * The name of the executable.
 *
 * @since 0.1.0
 */
export const executable = "community-api"

/**
 * The command that records the account as a fixture.
 *
 * @since 0.1.0
 */
export const recordName = Record.name

/**
 * The command that checks the contract against the account.
 *
 * @since 0.1.0
 */
export const verifyName = Verify.name

/**
 * The command that shows what is left of the user's limits.
 *
 * @since 0.1.0
 */
export const limitsName = Limits.name

/**
 * The command that runs an operation by path.
 *
 * @since 0.1.0
 */
export const callName = "call"

/**
 * The command that runs the sandbox.
 *
 * @since 0.1.0
 */
export const serveName = "serve"

/**
 * The command that runs the MCP server.
 *
 * @since 0.1.0
 */
export const mcpName = "mcp"

/**
 * A section of the contract with the operations the command line gives as commands (the documented
 * ones) and those it calls by path (listed by the API without their parameters).
 *
 * @since 0.1.0
 */
export interface Section {
  readonly name: string
  readonly documented: ReadonlyArray<Operation.Any>
  readonly undocumented: ReadonlyArray<Operation.Any>
}

/**
 * Every section, in the contract's order.
 *
 * @since 0.1.0
 */
export const sections: ReadonlyArray<Section> = Operations.sectionNames.map((name) => {
  const all = Operations.inSection(name)
  return { name, documented: all.filter((op) => op.documented), undocumented: all.filter((op) => !op.documented) }
})

/**
 * The sections that are commands: those with a documented operation.
 *
 * @since 0.1.0
 */
export const commandSections: ReadonlyArray<Section> = sections.filter((section) => section.documented.length > 0)

/**
 * What the words name.
 *
 * @since 0.1.0
 */
export type Route =
  | { readonly _tag: "Root" }
  | { readonly _tag: "Section"; readonly section: Section }
  | { readonly _tag: "Operation"; readonly op: Operation.Any }
  | { readonly _tag: "Record" }
  | { readonly _tag: "Verify" }
  | { readonly _tag: "Limits" }
  | { readonly _tag: "Call" }
  | { readonly _tag: "Serve" }
  | { readonly _tag: "Mcp" }

/**
 * The command a route names, as typed: `community-api bots get`.
 *
 * @since 0.1.0
 */
export const command = (route: Route): string => {
  switch (route._tag) {
    case "Root":
      return executable
    case "Section":
      return `${executable} ${route.section.name}`
    case "Operation":
      return `${executable} ${route.op.section} ${route.op.method}`
    case "Record":
      return `${executable} ${recordName}`
    case "Verify":
      return `${executable} ${verifyName}`
    case "Limits":
      return `${executable} ${limitsName}`
    case "Call":
      return `${executable} ${callName}`
    case "Serve":
      return `${executable} ${serveName}`
    case "Mcp":
      return `${executable} ${mcpName}`
  }
}

const byPath = (ops: ReadonlyArray<Operation.Any>) => ops.map((op) => op.path)

const usage = (reason: string) => Either.left(new UsageError({ reason }))

/**
 * Reads what the words (after the executable, global flags taken out) name. The first word that is
 * not a flag is the section (or `record`, `verify`, `limits`, `call`, `serve`, `mcp`); the next, the method.
 *
 * @since 0.1.0
 */
export const resolve = (words: ReadonlyArray<string>): Either.Either<Route, UsageError> => {
  const [first, second] = Global.flagWords(words)
  if (first === undefined || first.startsWith("-")) return Either.right({ _tag: "Root" })
  if (first === recordName) return Either.right({ _tag: "Record" })
  if (first === verifyName) return Either.right({ _tag: "Verify" })
  if (first === limitsName) return Either.right({ _tag: "Limits" })
  if (first === callName) return Either.right({ _tag: "Call" })
  if (first === serveName) return Either.right({ _tag: "Serve" })
  if (first === mcpName) return Either.right({ _tag: "Mcp" })
  const section = sections.find((candidate) => candidate.name === first)
  if (section === undefined) {
    const commands = [
      ...commandSections.map((s) => s.name),
      recordName,
      verifyName,
      limitsName,
      callName,
      serveName,
      mcpName
    ]
    return usage(`there is no command ${quote(first)}; the commands: ${orList(commands)} (${executable} --help)`)
  }
  if (section.documented.length === 0) {
    return usage(
      `the operations of ${section.name} are called by path, as the API does not document their parameters: ` +
        `${executable} ${callName} ` +
        `${orList(byPath(section.undocumented))} key=value …`
    )
  }
  if (second === undefined || second.startsWith("-")) return Either.right({ _tag: "Section", section })
  const op = section.documented.find((candidate) => candidate.method === second)
  if (op !== undefined) return Either.right({ _tag: "Operation", op })
  const hidden = section.undocumented.find((candidate) => candidate.method === second)
  if (hidden !== undefined) {
    return usage(
      `${hidden.path} is called by path, as the API does not document its parameters: ` +
        `${executable} ${callName} ${hidden.path} key=value …`
    )
  }
  const methods = orList(section.documented.map((candidate) => candidate.method))
  const more = section.undocumented.length === 0
    ? ""
    : `; by path with ${executable} ${callName}: ${orList(byPath(section.undocumented))}`
  return usage(`${section.name} has no method ${quote(second)}; its methods: ${methods}${more}`)
}

/**
 * The words that would pass a token on the command line: refused before anything is parsed, since a
 * token there is visible to other users in the process list and stays in the shell's history.
 *
 * @since 0.1.0
 */
export const tokenOnCommandLine = (words: ReadonlyArray<string>): UsageError | undefined => {
  const word = Global.flagWords(words).find((candidate) => /^--(?:api-key|token)(?:=|$)/.test(candidate))
  if (word === undefined) return undefined
  return new UsageError({
    reason: `${word.split("=")[0]} is not accepted: the token is read only from ${Credentials.tokenVariable} or, ` +
      "with --token-stdin, from standard input, since on the command line it would be visible in the process " +
      "list and kept in the shell's history"
  })
}

const colourCodes = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g")

/**
 * The text of a help document of `@effect/cli` on one line, without colours.
 *
 * @since 0.1.0
 */
export const plainText = (doc: HelpDoc.HelpDoc): string =>
  HelpDoc.toAnsiText(doc).replace(colourCodes, "").replace(/\s+/g, " ").trim()

/** The flags a route takes, as `Flags` describes them, for the usage errors. */
const flagsOf = (route: Route): ReadonlyArray<{ readonly name: string; readonly description: string }> => {
  const { all, json, retries, tokenStdin } = Commands.commonFlags
  switch (route._tag) {
    case "Operation":
      return [
        ...Flags.fromPayload(route.op.payload),
        ...(Operation.isPageable(route.op) ? [json, all, tokenStdin, retries] : [json, tokenStdin, retries])
      ]
    case "Record":
      return [...Object.values(Record.flags), tokenStdin, retries]
    case "Verify":
      return [...Object.values(Verify.flags), tokenStdin, retries]
    case "Limits":
      return [...Object.values(Limits.flags), tokenStdin]
    case "Call":
      return [json, tokenStdin, retries]
    default:
      return []
  }
}

/**
 * A parse error of `@effect/cli` as a usage error of the route: the command, what is wrong, and what
 * would be right, on one line.
 *
 * @since 0.1.0
 */
export const refused = (route: Route, error: ValidationError.ValidationError): UsageError => {
  const name = command(route).slice(executable.length + 1) || executable
  const text = "error" in error ? plainText(error.error) : ""
  const flags = flagsOf(route)
  const known = (word: string) => flags.find((flag) => `--${flag.name}` === word)
  const unknown = /^Received unknown argument: '(.*)'$/.exec(text)
  if (unknown !== null) {
    const [, word] = unknown
    const flag = known(word)
    if (flag !== undefined) {
      return new UsageError({ reason: `${name} --${flag.name} needs a value: ${flag.description}` })
    }
    if (!word.startsWith("-")) {
      return new UsageError({ reason: `${name} takes no word ${quote(word)} (${command(route)} --help)` })
    }
    const guess = nearest(word.split("=")[0], flags.map((candidate) => `--${candidate.name}`))
    return new UsageError({
      reason: `${name} has no flag ${word.split("=")[0]}${guess === undefined ? "" : `; did you mean ${guess}?`} ` +
        `(${command(route)} --help)`
    })
  }
  const missing = /^Expected to find option: '(--[\w-]+)'/.exec(text)
  if (missing !== null) {
    const flag = known(missing[1])
    return new UsageError({
      reason: `${name} needs ${missing[1]}${
        flag === undefined ? "" : ` (${flag.description.replace(/ \(required\)$/, "")})`
      }`
    })
  }
  // The flags' own refusals (see Flags.refusal) already name the flag and what it wants.
  return new UsageError({ reason: `${name}${text.startsWith("--") ? " " : ": "}${text}` })
}
