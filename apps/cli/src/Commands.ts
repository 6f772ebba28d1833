/**
 * The command tree, derived from the contract: a command per section, and under it a command per
 * documented operation whose flags come from the payload schema. `record` writes the account as a
 * fixture, `call` reaches every operation by path (meant for those the API lists without documenting
 * their parameters), `serve` runs the sandbox, `mcp` the MCP server.
 *
 * @since 0.1.0
 */
import * as Budget from "@community-api/client/Budget"
import { Operation, Operations, Page } from "@community-api/schema"
import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { Duration, Effect, Option, Schema } from "effect"
import manifest from "../package.json" with { type: "json" }
import * as Credentials from "./Credentials.js"
import * as Flags from "./Flags.js"
import * as Global from "./Global.js"
import { quote } from "./internal/text.js"
import * as KeyValue from "./KeyValue.js"
import * as Limits from "./Limits.js"
import * as Mcp from "./Mcp.js"
import * as Record from "./Record.js"
import * as Run from "./Run.js"
import * as Sandbox from "./Sandbox.js"
import * as Session from "./Session.js"
import { UsageError } from "./UsageError.js"
import * as Verify from "./Verify.js"

/**
 * A flag every operation command has besides its parameters, as its help shows it.
 *
 * @since 0.1.0
 */
export interface CommonFlag {
  readonly name: string
  /** The value it takes, for the usage line; absent for a switch. */
  readonly typeName?: string
  readonly description: string
}

/**
 * The flags of the command line itself, for every operation command (`all` for list operations only),
 * from which both the parser's options and the help are made.
 *
 * @since 0.1.0
 */
export const commonFlags = {
  json: {
    name: "json",
    description: "Print JSON (the API's response field) instead of a table; with --all, one item per line."
  },
  all: {
    name: "all",
    description: `Stream every page (pages of ${Page.maxCount}) from --offset on; a progress bar on standard error ` +
      "when it is a terminal."
  },
  tokenStdin: {
    name: "token-stdin",
    description:
      `Read the token from the first line of standard input (a pipe) instead of ${Credentials.tokenVariable}.`
  },
  retries: {
    name: "retries",
    typeName: "N",
    description: "How many times a call is sent again after a transient failure (9; and 101, network errors and " +
      `timeouts for operations safe to repeat); default ${Session.budget.retries}, at most ` +
      `${Session.budget.maxRetries}. Each attempt may take ${Duration.format(Session.budget.attemptTimeout)}, the ` +
      `whole call ${Duration.format(Session.budget.deadline)}.`
  }
} as const satisfies Record<string, CommonFlag>

const switchOf = (flag: CommonFlag) => Options.boolean(flag.name).pipe(Options.withDescription(flag.description))

const json = switchOf(commonFlags.json)
const tokenStdin = switchOf(commonFlags.tokenStdin)
const all = switchOf(commonFlags.all)
// Decoded as a parameter is: a word that is not a count is refused in the same words.
const retries = Flags.toOption({
  key: commonFlags.retries.name,
  name: commonFlags.retries.name,
  optional: true,
  schema: Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative()),
  typeName: commonFlags.retries.typeName,
  description: commonFlags.retries.description,
  expected: "an integer 0 or more"
}) as Options.Options<Option.Option<number>>

/** The flags every operation command has; a payload parameter must not take their names. */
const reserved = [...Object.values(commonFlags).map((flag) => flag.name), ...Global.names]

/**
 * Who may call an operation, as a sentence of its help.
 *
 * @since 0.1.0
 */
export const describeAccess = (op: Operation.Any): string => `Open to ${Operation.describe(op).whoMay}.`

/**
 * What the help says of an operation besides its summary, from its declaration: who may call it,
 * whether it counts against the creation limit or may be sent again, and its error codes.
 *
 * @since 0.1.0
 */
export const operationDetails = (op: Operation.Any): ReadonlyArray<string> => {
  const { creations, notRepeated, summary } = Operation.describe(op)
  return [
    describeAccess(op),
    // A summary that already names the creation limit is not told it again.
    ...(creations === undefined ? [] : [
      `${/creation limit/i.test(summary) ? "The" : "Counts against the"} creation limit: ${creations.join(", ")}.`
    ]),
    ...(notRepeated === undefined ? [] : [notRepeated]),
    `Error codes: ${op.errorCodes.join(", ")}.`
  ]
}

/**
 * The help text of an operation: its summary and {@link operationDetails}.
 *
 * @since 0.1.0
 */
export const describeOperation = (op: Operation.Any): string =>
  [Operation.describe(op).summary, ...operationDetails(op)].join(" ")

/**
 * The command of a documented operation: `community-api <section> <method> --flag value …`.
 *
 * @since 0.1.0
 */
export const operationCommand = (op: Operation.Any) => {
  const { options, toParams } = Flags.options(op.payload)
  for (const flag of Flags.fromPayload(op.payload)) {
    if (reserved.includes(flag.name)) throw new Error(`${op.path}: parameter ${flag.key} clashes with --${flag.name}`)
  }
  const pageable = Operation.isPageable(op)
  return Command.make(
    op.method,
    { params: options, json, tokenStdin, retries, all: pageable ? all : Options.map(Options.none, () => false) },
    (config) =>
      Run.operation(op, toParams(config.params), { json: config.json, all: config.all }).pipe(
        Session.provide(config)
      )
  ).pipe(Command.withDescription(describeOperation(op)))
}

const nonEmpty = <A>(items: Array<A>): [A, ...Array<A>] => items as [A, ...Array<A>]

/**
 * A command per section with documented operations, each with its operations' commands.
 *
 * @since 0.1.0
 */
export const sectionCommands = () =>
  Operations.sectionNames.flatMap((section) => {
    const documented = Operations.inSection(section).filter((op) => op.documented)
    if (documented.length === 0) return []
    return [
      Command.make(section).pipe(
        Command.withDescription(`The operations of ${section}/*.`),
        Command.withSubcommands(nonEmpty(documented.map(operationCommand)))
      )
    ]
  })

/**
 * The version shown by `--version`: the package's own, as Changesets sets it at each release (read from the
 * manifest when the program is bundled, never written a second time).
 *
 * @since 0.1.0
 */
export const version: string = manifest.version

/**
 * What the command line is, for the top of its help.
 *
 * @since 0.1.0
 */
export const about = `the community API from the shell, over the client. With no ${Credentials.baseUrlVariable} ` +
  "the calls go to an embedded sandbox with the demo data, and it says so on standard error."

/**
 * Where the address and the token come from, for the help.
 *
 * @since 0.1.0
 */
export const credentials = `${Credentials.baseUrlVariable} (ending in /v2) and ${Credentials.tokenVariable}, or ` +
  "the token from standard input with --token-stdin; never a flag, since the process list and the shell's " +
  `history would show it. With no ${Credentials.baseUrlVariable} the calls go to an embedded sandbox with the ` +
  "demo data."

/**
 * What `call` does.
 *
 * @since 0.1.0
 */
export const callSummary = "Call an operation by path with key=value parameters, for the operations the API " +
  "lists without documenting their parameters."

/**
 * What `serve` does.
 *
 * @since 0.1.0
 */
export const serveSummary = "Run the sandbox server with the demo data, the same as pnpm start."

/**
 * How `call` takes parameters.
 *
 * @since 0.1.0
 */
export const keyValueDescription =
  "key=value sends text, key:=json sends a JSON value (number, array, object). A documented operation " +
  "given by path is checked against its schema."

const pathArg = Args.text({ name: "section/method" }).pipe(
  Args.withDescription(
    `The operation, one of: ${Operations.undocumented.map((op) => op.path).join(", ")} (or any documented one).`
  )
)

const paramArgs = Args.text({ name: "key=value" }).pipe(
  Args.repeated,
  Args.withDescription(keyValueDescription)
)

/**
 * Finds an operation by path; an unknown path is a usage error.
 *
 * @since 0.1.0
 */
export const lookup = (path: string): Effect.Effect<Operation.Any, UsageError> => {
  const op = Operations.byPath.get(path)
  return op === undefined
    ? Effect.fail(new UsageError({ reason: `no operation ${path}; see community-api call --help` }))
    : Effect.succeed(op)
}

/**
 * `community-api call <section>/<method> key=value …`: the operations the API lists without
 * documenting their parameters, sent as given. A documented operation given this way is checked against its schema.
 *
 * @since 0.1.0
 */
export const callCommand = Command.make(
  "call",
  { path: pathArg, params: paramArgs, json, tokenStdin, retries },
  (config) =>
    Effect.gen(function*() {
      const op = yield* lookup(config.path)
      const params = yield* KeyValue.parse(config.params)
      if (!op.documented) {
        return yield* Run.undocumented(op, params, config).pipe(Session.provide(config))
      }
      const decoded = yield* Schema.decodeUnknown(Operation.payloadOf(op))(params).pipe(
        Effect.mapError((error) => new UsageError({ reason: `${op.path}: ${Flags.formatIssue(error.issue)}` }))
      )
      const format = { json: config.json, all: false, pageNote: false }
      return yield* Run.operation(op, decoded, format).pipe(
        Session.provide(config)
      )
    })
).pipe(Command.withDescription(callSummary))

/** A count flag of `record`, decoded and refused as `--retries` is. */
const countOf = (flag: Record.Flag) =>
  Flags.toOption({
    key: flag.name,
    name: flag.name,
    optional: true,
    schema: Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative()),
    typeName: flag.typeName ?? "N",
    description: flag.description,
    expected: "an integer 0 or more"
  }) as Options.Options<Option.Option<number>>

/** A flag of a command that takes a text, as its help shows it. */
const textOf = (flag: Flags.CommandFlag) =>
  Options.text(flag.name).pipe(
    Options.withPseudoName(flag.typeName ?? "TEXT"),
    Options.withDescription(flag.description)
  )

/**
 * `community-api verify`: the contract checked against the account of the token (see `Verify`).
 *
 * @since 0.1.0
 */
export const verifyCommand = Command.make(
  Verify.name,
  {
    json: switchOf(Verify.flags.json),
    keepPersonalData: switchOf(Verify.flags.keepPersonalData),
    maxSeconds: countOf(Verify.flags.maxSeconds),
    discover: textOf(Verify.flags.discover).pipe(Options.repeated),
    param: textOf(Verify.flags.param).pipe(Options.repeated),
    out: textOf(Verify.flags.out).pipe(Options.optional),
    tokenStdin,
    retries
  },
  (config) =>
    Verify.run(
      {
        json: config.json,
        keepPersonalData: config.keepPersonalData,
        seed: Record.defaultSeed,
        maxSeconds: Option.getOrElse(config.maxSeconds, () => Verify.defaultMaxSeconds),
        pages: 1,
        sample: 2
      },
      Session.provide(config),
      { operations: config.discover, params: config.param, out: Option.getOrUndefined(config.out) }
    )
).pipe(Command.withDescription(`${Verify.summary} ${Verify.description} ${Verify.discoverDescription}`))

/**
 * `community-api record --out FILE`: the account of the token written as a fixture the sandbox
 * replays (see `Record`).
 *
 * @since 0.1.0
 */
export const recordCommand = Command.make(
  Record.name,
  {
    out: textOf(Record.flags.out),
    keepPersonalData: switchOf(Record.flags.keepPersonalData),
    seed: countOf(Record.flags.seed),
    maxSubscribers: countOf(Record.flags.maxSubscribers),
    tokenStdin,
    retries
  },
  (config) =>
    Record.run({
      out: config.out,
      keepPersonalData: config.keepPersonalData,
      seed: Option.getOrElse(config.seed, () => Record.defaultSeed),
      maxSubscribers: config.maxSubscribers
    }, Session.provide(config))
).pipe(Command.withDescription(`${Record.summary} ${Record.description}`))

/**
 * `community-api limits [--creations N --by INSTANT]`: what is left of the limits of the token's user
 * and when it comes back, from the client's limiters, and whether N creations fit by an instant (see
 * `Limits`). It sends no request, so it has no `--retries`.
 *
 * @since 0.1.0
 */
export const limitsCommand = Command.make(
  Limits.name,
  {
    // Decoded and refused as the other counts are.
    creations: Flags.toOption({
      key: Limits.flags.creations.name,
      name: Limits.flags.creations.name,
      optional: true,
      schema: Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, Budget.maxCreations)),
      typeName: Limits.flags.creations.typeName,
      description: Limits.flags.creations.description,
      expected: `an integer from 1 to ${Budget.maxCreations}`
    }) as Options.Options<Option.Option<number>>,
    by: Options.text(Limits.flags.by.name).pipe(
      Options.withPseudoName(Limits.flags.by.typeName),
      Options.withDescription(Limits.flags.by.description),
      Options.mapEffect((raw) =>
        Option.match(Limits.parseBy(raw), {
          onNone: () =>
            Effect.fail(
              ValidationError.invalidValue(
                HelpDoc.p(`--${Limits.flags.by.name}: ${quote(raw)} is not ${Limits.expectedBy}`)
              )
            ),
          onSome: Effect.succeed
        })
      ),
      Options.optional
    ),
    json: switchOf(Limits.flags.json),
    tokenStdin
  },
  (config) =>
    Effect.flatMap(
      Limits.question(config.creations, config.by),
      (question) =>
        Limits.run({ question, json: config.json }).pipe(
          Session.provide({ tokenStdin: config.tokenStdin, retries: Option.none() })
        )
    )
).pipe(Command.withDescription(`${Limits.summary} ${Limits.description}`))

/**
 * `community-api serve`: the sandbox on a port, the same as `pnpm start`. Its flags belong to the
 * sandbox, so the command line hands `serve …` to it without parsing them (see `Cli.run`); this
 * command names it for the parser's completions.
 *
 * @since 0.1.0
 */
export const serveCommand = Command.make("serve", {}, () => Sandbox.serve([])).pipe(
  Command.withDescription(`${serveSummary} Flags: ${Sandbox.flags}.`)
)

/**
 * `community-api mcp`: the MCP server on standard input and output. It takes no flags of its own, so
 * the command line runs it without parsing (see `Cli.run`); this command names it for the parser's
 * completions.
 *
 * @since 0.1.0
 */
export const mcpCommand = Command.make("mcp", {}, () => Effect.asVoid(Mcp.serve)).pipe(
  Command.withDescription(Mcp.summary)
)

/**
 * The root command.
 *
 * @since 0.1.0
 */
export const root = Command.make("community-api").pipe(
  Command.withDescription(about),
  Command.withSubcommands(
    nonEmpty([...sectionCommands(), recordCommand, verifyCommand, limitsCommand, callCommand, serveCommand, mcpCommand])
  )
)
