/**
 * The command tree, derived from the contract: a command per section, and under it a command per
 * documented operation whose flags come from the payload schema. `call` reaches every operation by
 * path (meant for E17), `serve` runs the sandbox.
 *
 * @since 0.1.0
 */
import * as CreationQuota from "@community-api/client/CreationQuota"
import * as Retry from "@community-api/client/Retry"
import { Operation, Operations, Page } from "@community-api/schema"
import { Args, Command, Options } from "@effect/cli"
import { Effect, Schema } from "effect"
import * as Flags from "./Flags.js"
import * as KeyValue from "./KeyValue.js"
import * as Run from "./Run.js"
import * as Sandbox from "./Sandbox.js"
import * as Session from "./Session.js"
import { UsageError } from "./UsageError.js"

const json = Options.boolean("json").pipe(
  Options.withDescription("Print JSON (the API's response field) instead of a table; with --all, one item per line.")
)

const tokenStdin = Options.boolean("token-stdin").pipe(
  Options.withDescription("Read the token from the first line of standard input instead of COMMUNITY_API_TOKEN.")
)

const retries = Options.integer("retries").pipe(
  Options.withDescription(
    "How many times a call is sent again after a transient failure (9; and 101, network errors and timeouts " +
      `for operations safe to repeat); default and at most ${Retry.defaultPolicy.limitRetries}.`
  ),
  Options.optional
)

const all = Options.boolean("all").pipe(
  Options.withDescription(
    `Stream every page (pages of ${Page.maxCount}) from --offset on; a progress bar on standard error when it ` +
      "is a terminal."
  )
)

/** The flags every operation command has; a payload parameter must not take their names. */
const reserved = ["json", "token-stdin", "retries", "all", "help", "version", "wizard", "completions", "log-level"]

/**
 * The help text of an operation, from its declaration.
 *
 * @since 0.1.0
 */
export const describeOperation = (op: Operation.Any): string =>
  [
    op.summary,
    `[${op.path}, ${op.rule}; role: ${op.roleGroup}; error codes: ${op.errorCodes.join(", ")}]`,
    ...(op.creation ?
      [
        `Counts against the creation limit (${CreationQuota.defaults.perMinute} a minute, ` +
        `${CreationQuota.defaults.perDay} a day).`
      ] :
      []),
    ...(op.safeToRepeat ? [] : ["Not repeated after an ambiguous failure: the outcome is then reported as unknown."])
  ].join(" ")

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
  Object.entries(Operations.sections).flatMap(([section, operations]) => {
    const documented = (Object.values(operations) as Array<Operation.Any>).filter((op) => op.documented)
    if (documented.length === 0) return []
    return [
      Command.make(section).pipe(
        Command.withDescription(`Operations of ${section}/*: ${documented.map((op) => op.method).join(", ")}.`),
        Command.withSubcommands(nonEmpty(documented.map(operationCommand)))
      )
    ]
  })

const pathArg = Args.text({ name: "section/method" }).pipe(
  Args.withDescription(
    `The operation, one of: ${Operations.undocumented.map((op) => op.path).join(", ")} (or any documented one).`
  )
)

const paramArgs = Args.text({ name: "key=value" }).pipe(
  Args.repeated,
  Args.withDescription("Parameters: key=value sends text, key:=json sends a JSON value (number, array, object).")
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
 * `community-api call <section>/<method> key=value …`: the operations of E17, whose parameters the spec
 * does not show, sent as given. A documented operation given this way is checked against its schema.
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
      const decoded = yield* Schema.decodeUnknown(op.payload as Schema.Schema<unknown, unknown>)(params).pipe(
        Effect.mapError((error) => new UsageError({ reason: `${op.path}: ${Flags.formatIssue(error.issue)}` }))
      )
      return yield* Run.operation(op, decoded as Record<string, unknown>, { json: config.json, all: false }).pipe(
        Session.provide(config)
      )
    })
).pipe(Command.withDescription("Call an operation by path with key=value parameters (for the operations of E17)."))

/**
 * `community-api serve`: the sandbox on a port, the same as `pnpm start`. Its flags belong to the
 * sandbox, so the executable hands `serve …` to it before parsing (see {@link Sandbox.argsOf}); this
 * command gives the help text.
 *
 * @since 0.1.0
 */
export const serveCommand = Command.make("serve", {}, () => Sandbox.serve([])).pipe(
  Command.withDescription(`Run the sandbox server with the demo data, the same as pnpm start. Flags: ${Sandbox.flags}.`)
)

/**
 * The root command.
 *
 * @since 0.1.0
 */
export const root = Command.make("community-api").pipe(
  Command.withDescription(
    "The community API from the shell. With no COMMUNITY_API_BASE_URL the calls go to an embedded sandbox."
  ),
  Command.withSubcommands(nonEmpty([...sectionCommands(), callCommand, serveCommand]))
)
