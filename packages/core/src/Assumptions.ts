/**
 * The contract's assumptions about the answers of the API, as data beside the declarations they
 * qualify: where the spec says "not shown", the contract decides, and each decision here says what in
 * an answer would confirm or refute it. Each has the id its line of `docs/assumptions/*.md` ends with
 * (`{#id}`); the other lines there are about behaviour no single answer can judge.
 *
 * What sends the calls (`verify`) hands the answers it got, each with its {@link ContractCheck} verdict,
 * to {@link judge}: confirmed, refuted with the evidence, or not reached and why.
 *
 * @since 0.1.0
 */
import * as ContractCheck from "./ContractCheck.js"
import * as Operations from "./Operations.js"

/**
 * What in the answers of one operation judges an assumption.
 *
 * - `Answers`: the operation exists under the name the contract gives it: any answer but error 1 or 3
 *   (no such section or method) confirms it; one of those refutes it.
 * - `Holds`: the answers hold what the contract declares at `at` (a path as {@link ContractCheck}
 *   names them, `response.items[].type`): a success holding a value there with no difference at or
 *   below it confirms it; a difference there refutes it.
 * - `Codes`: the operation answers only the error codes the contract declares for it: any answer
 *   confirms it; an undeclared code refutes it.
 *
 * @since 0.1.0
 * @category models
 */
export type Evidence =
  | { readonly _tag: "Answers"; readonly operation: string }
  | { readonly _tag: "Holds"; readonly operation: string; readonly at: string }
  | { readonly _tag: "Codes"; readonly operation: string }

/**
 * One assumption of the contract about answers.
 *
 * @since 0.1.0
 * @category models
 */
export interface Assumption {
  /** The id its line of `docs/assumptions/*.md` ends with, as `{#id}`. */
  readonly id: string
  /** The rule IDs its line starts with. */
  readonly rules: ReadonlyArray<string>
  /** What is assumed, in one line. */
  readonly summary: string
  /** What judges it: every piece must confirm it for the assumption to be confirmed. */
  readonly evidence: ReadonlyArray<Evidence>
}

/** The operations whose method names the spec gives only in words. */
const assumedNames = [
  "bots/getSteps",
  "bots/removeUser",
  "mailings/getById",
  "lists/getUsers",
  "lists/removeUser",
  "contacts/getById",
  "contacts/getVars",
  "contacts/getLists",
  "funnels/get",
  "funnels/getById"
]

/** The reading operations the spec lists without details. */
const undocumentedReads = Operations.reading.filter((op) => !op.documented).map((op) => op.path)

const assume = (id: string, rules: string, summary: string, evidence: ReadonlyArray<Evidence>): Assumption => ({
  id,
  rules: rules.split(" "),
  summary,
  evidence
})

const holds = (operation: string, ...at: ReadonlyArray<string>): ReadonlyArray<Evidence> =>
  at.map((path) => ({ _tag: "Holds", operation, at: path }))

/**
 * Every assumption about answers, in the order of `docs/assumptions/schema.md`.
 *
 * @since 0.1.0
 * @category constants
 */
export const all: ReadonlyArray<Assumption> = [
  assume(
    "employees-paged",
    "E3",
    "groups/getEmployees answers a page, {items, total}.",
    holds("groups/getEmployees", "response.items", "response.total")
  ),
  assume(
    "employee-fields",
    "E3 R2",
    "An employee has roles; its other fields are kept as they come.",
    holds("groups/getEmployees", "response.items[]")
  ),
  assume(
    "mailing-by-id",
    "E17",
    "mailings/getById answers the mailing as mailings/get lists it.",
    holds("mailings/getById", "response")
  ),
  assume(
    "lists-get",
    "E17",
    "lists/get answers a page of lists {id, name, create_at}.",
    holds("lists/get", "response")
  ),
  assume("list-members", "E17", "lists/getUsers answers a page of {uid}.", holds("lists/getUsers", "response")),
  assume(
    "community-variable-get",
    "E17",
    "globalVars/get answers the community variable as globalVars/list lists it.",
    holds("globalVars/get", "response")
  ),
  assume(
    "method-names",
    "E17",
    "The method names the spec gives only in words.",
    assumedNames.map((operation) => ({ _tag: "Answers", operation }))
  ),
  assume(
    "undocumented-codes",
    "E17",
    "The operations listed without details answer 6, 7 and 8 besides the common codes, never 1 or 3.",
    undocumentedReads.map((operation) => ({ _tag: "Codes", operation }))
  ),
  assume(
    "bot-unknown-types",
    "R4",
    "A bot's public_id, activity_param and subscription_ids items are of any type.",
    holds("bots/getById", "response.public_id", "response.activity_param", "response.subscription_ids")
  ),
  assume("mailing-type", "R6", "A mailing's type is an integer.", holds("mailings/get", "response.items[].type")),
  assume(
    "account-strings",
    "R10",
    "users/me's auth and client_id are strings.",
    holds("users/me", "response.auth", "response.client_id")
  )
]

/**
 * One answer that a run got: the operation, the envelope as plain JSON, and its verdict.
 *
 * @since 0.1.0
 * @category models
 */
export interface Observation {
  readonly operation: string
  readonly envelope: ContractCheck.Json
  readonly verdict: ContractCheck.Verdict
}

/**
 * What the answers say of an assumption, or of one piece of its evidence.
 *
 * @since 0.1.0
 * @category models
 */
export type Judgement =
  | { readonly _tag: "Confirmed" }
  | { readonly _tag: "Refuted"; readonly operation: string; readonly evidence: string }
  | { readonly _tag: "NotReached"; readonly reason: string }

const isObject = (json: ContractCheck.Json | undefined): json is { readonly [key: string]: ContractCheck.Json } =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/**
 * The values at `path` (`response.items[].type`) in `json`: none when the path leads nowhere.
 *
 * @since 0.1.0
 * @category utils
 */
export const valuesAt = (json: ContractCheck.Json, path: string): ReadonlyArray<ContractCheck.Json> => {
  let here: ReadonlyArray<ContractCheck.Json> = [json]
  for (const segment of path.split(".")) {
    const [key = "", ...lists] = segment.split("[]")
    here = here.flatMap((value) => isObject(value) && Object.hasOwn(value, key) ? [value[key]!] : [])
    for (const _ of lists) here = here.flatMap((value) => Array.isArray(value) ? value : [])
  }
  return here
}

const within = (path: string, at: string) => path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[]`)

const differencesOf = (verdict: ContractCheck.Verdict) => verdict._tag === "Conforms" ? [] : verdict.differences

const codeOf = (envelope: ContractCheck.Json): number | undefined =>
  isObject(envelope) && envelope.status === "error" && typeof envelope.error_code === "number"
    ? envelope.error_code
    : undefined

/**
 * What `observations` say of one piece of evidence.
 *
 * @since 0.1.0
 * @category utils
 */
export const weigh = (evidence: Evidence, observations: ReadonlyArray<Observation>): Judgement => {
  const seen = observations.filter((observation) => observation.operation === evidence.operation)
  if (seen.length === 0) return { _tag: "NotReached", reason: `${evidence.operation} was not called` }
  switch (evidence._tag) {
    case "Answers": {
      const missing = seen.find((observation) => [1, 3].includes(codeOf(observation.envelope) ?? 0))
      return missing === undefined
        ? { _tag: "Confirmed" }
        : {
          _tag: "Refuted",
          operation: evidence.operation,
          evidence: `error ${codeOf(missing.envelope)}: no such method`
        }
    }
    case "Codes": {
      for (const observation of seen) {
        const undeclared = differencesOf(observation.verdict).find((d) => d._tag === "UndeclaredErrorCode")
        if (undeclared !== undefined) {
          return { _tag: "Refuted", operation: evidence.operation, evidence: ContractCheck.describe(undeclared) }
        }
      }
      return { _tag: "Confirmed" }
    }
    case "Holds": {
      for (const observation of seen) {
        const found = differencesOf(observation.verdict).find((d) => "path" in d && within(d.path, evidence.at))
        if (found !== undefined) {
          return { _tag: "Refuted", operation: evidence.operation, evidence: ContractCheck.describe(found) }
        }
      }
      const held = seen.some((observation) =>
        isObject(observation.envelope) && observation.envelope.status === "ok" &&
        valuesAt(observation.envelope, evidence.at).length > 0
      )
      return held
        ? { _tag: "Confirmed" }
        : { _tag: "NotReached", reason: `no answer of ${evidence.operation} held ${evidence.at}` }
    }
  }
}

/**
 * What `observations` say of `assumption`: refuted when a piece of its evidence is, confirmed when
 * every piece is, not reached otherwise (with the reason of each piece not reached).
 *
 * @since 0.1.0
 * @category utils
 */
export const judge = (assumption: Assumption, observations: ReadonlyArray<Observation>): Judgement => {
  const judgements = assumption.evidence.map((evidence) => weigh(evidence, observations))
  const refuted = judgements.find((judgement) => judgement._tag === "Refuted")
  if (refuted !== undefined) return refuted
  const reasons = judgements.flatMap((judgement) => judgement._tag === "NotReached" ? [judgement.reason] : [])
  return reasons.length === 0 ? { _tag: "Confirmed" } : { _tag: "NotReached", reason: reasons.join("; ") }
}

/**
 * The id tags (`{#id}`) of the lines of an assumptions file.
 *
 * @since 0.1.0
 * @category utils
 */
export const idsIn = (markdown: string): ReadonlyArray<string> =>
  [...markdown.matchAll(/\{#([a-z0-9-]+)\}\s*$/gm)].map((match) => match[1]!)
