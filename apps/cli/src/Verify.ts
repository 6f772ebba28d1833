/**
 * `community-api verify`: the contract checked against the account of the token. Here is what the
 * parser and the help need (the name, the flags, the texts); the work itself is `Verification`,
 * loaded only when the command runs.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import type { Api } from "./Api.js"
import type * as Flags from "./Flags.js"
import { UsageError } from "./UsageError.js"
import type * as Verification from "./Verification.js"

/**
 * The command's name.
 *
 * @since 0.1.0
 */
export const name = "verify"

/**
 * The most seconds the calls may take when `--max-seconds` is not given.
 *
 * @since 0.1.0
 */
export const defaultMaxSeconds = 60

/**
 * The most calls of one operation under `--discover`: the combinations of a repeated `--param`'s values.
 *
 * @since 0.1.0
 */
export const maxDiscoveryCalls = 20

/**
 * The flags of `verify` besides `--token-stdin` and `--retries`.
 *
 * @since 0.1.0
 */
export const flags = {
  json: {
    name: "json",
    optional: true,
    description: "Print the report as JSON, for a machine."
  },
  keepPersonalData: {
    name: "keep-personal-data",
    optional: true,
    description: "Keep the values the report quotes from the answers as they were read, instead of made-up ones " +
      "of the same shape."
  },
  discover: {
    name: "discover",
    typeName: "OPERATION",
    optional: true,
    description: "Instead of checking the contract, call this undocumented reading operation (section/method; " +
      "again for more) with the --param values, and print a draft of its declaration inferred from the answers " +
      "(its JSON Schema and the Effect Schema source), for you to review. Anything that is not an undocumented " +
      "read is refused before any call."
  },
  param: {
    name: "param",
    typeName: "KEY=VALUE",
    optional: true,
    description: "With --discover, a parameter of every call: key=value sends text, key:=json a JSON value. A key " +
      `given again adds calls: one per combination of the values, at most ${maxDiscoveryCalls} an operation.`
  },
  out: {
    name: "out",
    typeName: "FILE",
    optional: true,
    description: "With --discover, write the drafts to FILE instead of standard output."
  },
  maxSeconds: {
    name: "max-seconds",
    typeName: "N",
    optional: true,
    description: `The most seconds the calls may take; what is left is reported as not called. Default ` +
      `${defaultMaxSeconds}.`
  }
} as const satisfies Record<string, Flags.CommandFlag>

/**
 * What `verify` does, in one line.
 *
 * @since 0.1.0
 */
export const summary = "Check the contract against the account of the token: every reading operation its role " +
  "reaches, each answer compared with the contract, each assumption judged."

/**
 * What `verify` calls, what it reports and how it ends, for its help.
 *
 * @since 0.1.0
 */
export const description = "Calls, through the client and paced under the request limit, every reading operation " +
  "the token's role reaches: the account, its communities, and in each the first page of every list and the " +
  "details of its first two items (bots, mailings, lists and their subscribers, variables, community variables, " +
  "landings, funnels, statistics). Nothing that changes anything is ever sent. Each answer is compared, as plain " +
  "JSON, with what the contract declares of it: fields it does not know, fields it requires that are missing, " +
  "values of another type or outside a declared set, error codes the operation is not declared to answer. Each " +
  "assumption the contract makes where the API documentation says nothing is confirmed, refuted (with the " +
  "evidence) or not reached (and why). Values quoted from the answers are made up unless --keep-personal-data; " +
  "the token is never printed. Exits 0 when everything conforms, 7 when anything differs; a refused token, a " +
  "role that reaches nothing or an API that does not answer ends with one line and the exit code of that failure, " +
  "with no report. See docs/verify.md."

/**
 * What `--discover` asks: the operations, the `--param` words and `--out`.
 *
 * @since 0.1.0
 */
export interface Discovery {
  readonly operations: ReadonlyArray<string>
  readonly params: ReadonlyArray<string>
  readonly out: string | undefined
}

/**
 * What `verify --discover` does, for its help.
 *
 * @since 0.1.0
 */
export const discoverDescription = "With --discover, it checks nothing: it calls each undocumented reading " +
  "operation named (only those; anything else is refused before a call) with the --param values, once per " +
  "combination of the values of a repeated key, and prints for each a draft of its declaration for you to " +
  "review: the JSON Schema of its answers (types; fields present in every answer required; a set of at most 5 " +
  "values when a value came back more than once) and the Effect Schema source of the contract's entry, to paste " +
  "into lines/effect3/schema/src/operations/<section>.ts once reviewed. Nothing is applied. Texts of the answers " +
  "are made up unless --keep-personal-data. An operation that answered only errors ends the run with the exit code " +
  "of its error, after the drafts of the others."

/**
 * Runs `verify` on the client `provide` gives, the work loaded when it runs: the discovery of the
 * operations `discovery` names (`Discover`) when it names any, the contract checked (`Verification`)
 * otherwise. `--param` or `--out` without `--discover` is a usage error.
 *
 * @since 0.1.0
 */
export const run = (
  options: Verification.Options & { readonly json: boolean },
  provide: <A>(effect: Effect.Effect<A, unknown, Api>) => Effect.Effect<A, unknown>,
  discovery: Discovery = { operations: [], params: [], out: undefined }
): Effect.Effect<void, unknown> => {
  if (discovery.operations.length > 0) {
    return Effect.flatMap(Effect.promise(() => import("./Discover.js")), (module) =>
      provide(module.run({
        operations: discovery.operations,
        params: discovery.params,
        maxCalls: maxDiscoveryCalls,
        out: discovery.out,
        json: options.json,
        keepPersonalData: options.keepPersonalData,
        seed: options.seed
      })))
  }
  const stray = discovery.params.length > 0
    ? flags.param.name
    : discovery.out === undefined
    ? undefined
    : flags.out.name
  if (stray !== undefined) {
    return Effect.fail(new UsageError({ reason: `verify --${stray} goes with --${flags.discover.name} OPERATION` }))
  }
  return Effect.flatMap(Effect.promise(() => import("./Verification.js")), (module) => provide(module.run(options)))
}
