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
 * Runs `verify` on the client `provide` gives, the work loaded when it runs.
 *
 * @since 0.1.0
 */
export const run = (
  options: Verification.Options & { readonly json: boolean },
  provide: <A>(effect: Effect.Effect<A, unknown, Api>) => Effect.Effect<A, unknown>
): Effect.Effect<void, unknown> =>
  Effect.flatMap(Effect.promise(() => import("./Verification.js")), (module) => provide(module.run(options)))
