/**
 * `community-api verify`: the contract checked against a live account. Every reading operation the
 * token's role reaches is called through the client (paced under the limits, a few pages and a few
 * items of each list, within a bound of time), each answer is taken as plain JSON and compared with
 * the contract's declaration (`ContractCheck` of the core), and each assumption the contract marks is
 * judged (`Assumptions`). Nothing but reading operations is ever sent.
 *
 * {@link verify} gives the report as data, for a team's own CI over its own client
 * ({@link fromClient}); {@link run} is the command: the report on standard output, readable or JSON.
 *
 * @since 0.1.0
 */
import * as Assumptions from "@community-api/core/Assumptions"
import * as ContractCheck from "@community-api/core/ContractCheck"
import * as CoreOperations from "@community-api/core/Operations"
import { ApiError, OpenApi } from "@community-api/schema"
import { Clock, Console, Effect, Predicate } from "effect"
import { Api } from "./Api.js"
import * as Fakes from "./Fakes.js"
import * as Progress from "./Progress.js"
import { Stdio } from "./Stdio.js"

/**
 * How a verification goes.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** Keep the values of the answers in the report as read, instead of made-up ones of the same shape. */
  readonly keepPersonalData: boolean
  /** The seed of the made-up values. */
  readonly seed: number
  /** The most seconds the calls may take; what is left is reported as not called. */
  readonly maxSeconds: number
  /** The pages read of each list. */
  readonly pages: number
  /** The items of each list whose details are read (a bot's, a list's members, a subscriber's…). */
  readonly sample: number
}

/**
 * The defaults of {@link Options}.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Options = { keepPersonalData: false, seed: 1, maxSeconds: 60, pages: 1, sample: 2 }

/** The items of a page read at once: enough for a sample, few enough to be quick. */
const pageSize = 100

/** Calls at once: enough to keep the client's pacing busy, few enough to stay polite. */
const concurrency = 4

/**
 * What verifying needs from a client: one call by path, its `response` as plain JSON, or its error.
 *
 * @since 0.1.0
 * @category models
 */
export type Caller = (path: string, params: Record<string, unknown>) => Effect.Effect<unknown, unknown>

/**
 * The {@link Caller} of a client (`CommunityApiClient.Client`): its `call`, which paces and retries as
 * every call of the client does.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromClient = (
  client: { readonly call: (path: string, params?: Record<string, unknown>) => Effect.Effect<unknown, unknown> }
): Caller =>
(path, params) => client.call(path, params)

/**
 * What the report says of one operation: how often it was called and its verdict over every answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface OperationReport {
  readonly operation: string
  readonly calls: number
  readonly verdict: ContractCheck.Verdict
}

/**
 * What the report says of one assumption.
 *
 * @since 0.1.0
 * @category models
 */
export interface AssumptionReport {
  readonly id: string
  readonly summary: string
  readonly judgement: Assumptions.Judgement
}

/**
 * The report of a verification.
 *
 * @since 0.1.0
 * @category models
 */
export interface Report {
  /** No operation differs and no assumption is refuted. */
  readonly conforms: boolean
  /** The calls sent. */
  readonly calls: number
  /** The time they took, in seconds. */
  readonly seconds: number
  /** Each operation called, in the contract's order. */
  readonly operations: ReadonlyArray<OperationReport>
  /** The reading operations not called, and why. */
  readonly notCalled: ReadonlyArray<{ readonly operation: string; readonly reason: string }>
  /** Each assumption of the contract about answers. */
  readonly assumptions: ReadonlyArray<AssumptionReport>
}

/**
 * The failure of a run whose token's role reaches nothing: no community, or none that lets it read.
 *
 * @since 0.1.0
 * @category errors
 */
export const nothingReached = (): ApiError.ApiError =>
  ApiError.make(
    8,
    "the token's role reaches nothing to verify: no community, or none where it may read",
    "verify"
  )

/**
 * Whether an error ends a run at once: the token refused (4), the limits (5), the key service (9), no
 * answer. Any other is an answer of the operation, reported.
 *
 * @since 0.1.0
 * @category utils
 */
export const ends = (error: unknown): boolean =>
  !Predicate.hasProperty(error, "code") || typeof error.code !== "number" || [4, 5, 9].includes(error.code)

type Json = ContractCheck.Json

const isObject = (json: unknown): json is { readonly [key: string]: Json } =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/** The items of a page's `response`, none when it holds no list. */
const itemsOf = (response: Json | undefined): ReadonlyArray<{ readonly [key: string]: Json }> =>
  isObject(response) && Array.isArray(response.items) ? response.items.filter(isObject) : []

/** The values of `key` in the first `n` items. */
const firstValues = (items: ReadonlyArray<{ readonly [key: string]: Json }>, key: string, n: number) =>
  items.flatMap((item) => item[key] === undefined ? [] : [item[key]]).slice(0, n)

interface Crawl {
  /** One call; its `response` when it succeeded, `undefined` otherwise (the answer observed either way). */
  readonly one: (path: string, params: Record<string, unknown>) => Effect.Effect<Json | undefined, unknown>
  /** The first pages of a list, their items together. */
  readonly list: (
    path: string,
    params: Record<string, unknown>
  ) => Effect.Effect<ReadonlyArray<{ readonly [key: string]: Json }>, unknown>
  readonly observations: Array<Assumptions.Observation>
  readonly skipped: Map<string, string>
  readonly calls: () => number
}

const makeCrawl = (
  caller: Caller,
  contracts: ReadonlyMap<string, ContractCheck.Contract>,
  options: Options,
  deadline: number,
  progress: Progress.Progress
): Crawl => {
  const observations: Array<Assumptions.Observation> = []
  const skipped = new Map<string, string>()
  let calls = 0
  const observe = (operation: string, envelope: Json) => {
    const contract = contracts.get(operation)
    const verdict: ContractCheck.Verdict = contract === undefined
      ? { _tag: "Differs", differences: [{ _tag: "NotAnEnvelope", shape: "no declaration in the contract" }] }
      : ContractCheck.check(contract, envelope)
    observations.push({ operation, envelope, verdict })
  }
  const one = (path: string, params: Record<string, unknown>): Effect.Effect<Json | undefined, unknown> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (now > deadline) {
        if (!observations.some((o) => o.operation === path)) skipped.set(path, "the time bound was reached")
        return Effect.succeed(undefined)
      }
      if (!CoreOperations.reading.some((op) => op.path === path)) {
        return Effect.dieMessage(`${path} is not a read: verify does not send it`)
      }
      return caller(path, params).pipe(
        Effect.map((response) => {
          observe(path, response === undefined ? { status: "ok" } : { status: "ok", response: response as Json })
          return response as Json
        }),
        Effect.catchIf((error) => !ends(error), (error) => {
          observe(path, { status: "error", error_code: (error as { readonly code: number }).code })
          return Effect.succeed(undefined)
        }),
        Effect.ensuring(Effect.suspend(() => {
          calls += 1
          return progress.update(calls, Math.max(calls, calls + 1))
        }))
      )
    })
  const list = (path: string, params: Record<string, unknown>) =>
    Effect.gen(function*() {
      const items: Array<{ readonly [key: string]: Json }> = []
      for (let page = 0; page < options.pages; page++) {
        const response = yield* one(path, { ...params, offset: page * pageSize, count: pageSize })
        const found = itemsOf(response)
        items.push(...found)
        if (found.length < pageSize) break
      }
      return items
    })
  return { one, list, observations, skipped, calls: () => calls }
}

/** Every reading operation of one community, and the details of a few items of each of its lists. */
const community = (crawl: Crawl, place: Record<string, unknown>, sample: number) =>
  Effect.gen(function*() {
    const lists = yield* Effect.all({
      employees: crawl.list("groups/getEmployees", place),
      bots: crawl.list("bots/get", place),
      mailings: crawl.list("mailings/get", place),
      lists: crawl.list("lists/get", place),
      variables: crawl.list("vars/list", place),
      communityVariables: crawl.list("globalVars/list", place),
      landings: crawl.list("landings/get", place),
      funnels: crawl.list("funnels/get", place),
      mailingsStats: crawl.one("stats/getMailingsStats", place),
      landingsStats: crawl.one("stats/getLandingsStats", place),
      adsSubscribes: crawl.one("stats/getAdsSubscribes", place)
    }, { concurrency })
    const ids = (items: ReadonlyArray<{ readonly [key: string]: Json }>) => firstValues(items, "id", sample)
    const members = yield* Effect.forEach(
      ids(lists.lists),
      (list_id) => crawl.list("lists/getUsers", { list_id }),
      { concurrency }
    )
    const uids = [...new Set(members.flatMap((found) => firstValues(found, "uid", sample)))].slice(0, sample)
    const calls: Array<readonly [string, Record<string, unknown>]> = [
      ...ids(lists.bots).flatMap((bot_id) => [["bots/getById", { bot_id }], ["bots/getSteps", { bot_id }]] as const),
      ...ids(lists.mailings).flatMap((mailing_id) =>
        [["mailings/getById", { mailing_id }], ["stats/getMailingStats", { ...place, mailing_id }]] as const
      ),
      ...ids(lists.communityVariables).map((var_id) => ["globalVars/get", { var_id }] as const),
      ...ids(lists.landings).map((landing_id) => ["stats/getLandingStats", { ...place, landing_id }] as const),
      // No read names a funnel's or an attachment's id otherwise: asked with the community alone, they
      // still tell whether they exist and which errors they answer.
      ...(lists.funnels.length === 0
        ? [["funnels/getById", place] as const]
        : ids(lists.funnels).map((funnel_id) => ["funnels/getById", { ...place, funnel_id }] as const)),
      ["attachments/getById", place] as const,
      ...uids.flatMap((uid) => [
        ["contacts/getBots", { ...place, uid }] as const,
        ["contacts/getById", { ...place, uid }] as const,
        ["contacts/getVars", { ...place, uid }] as const,
        ["contacts/getLists", { ...place, uid }] as const,
        ...ids(lists.variables).map((var_id) => ["vars/get", { var_id, uid }] as const)
      ])
    ]
    yield* Effect.forEach(calls, ([path, params]) => crawl.one(path, params), { concurrency, discard: true })
  })

/** Why an operation was not called when the time bound does not say it. */
const notCalledReason = "nothing the account could read named what it asks for (or its role reaches none of it)"

/** The verdicts of an operation's answers as one: each difference once. */
const merged = (observations: ReadonlyArray<Assumptions.Observation>): ContractCheck.Verdict =>
  ContractCheck.verdictOf(observations.flatMap((o) => o.verdict._tag === "Conforms" ? [] : o.verdict.differences))

/** A verdict whose values read from the answers are made up (of the same shape), ids and numbers kept. */
const faked = (verdict: ContractCheck.Verdict, fakes: Fakes.Fakes): ContractCheck.Verdict =>
  verdict._tag === "Conforms" ? verdict : {
    _tag: "Differs",
    differences: verdict.differences.map((difference) =>
      difference._tag === "OutsideSet" ? { ...difference, found: fakes.unknown(difference.found) as Json } : difference
    )
  }

/**
 * Verifies the account of `caller`'s token: calls every reading operation its role reaches (see the
 * module), compares each answer with the contract and judges each assumption. Fails with the first
 * error that ends a run (the token refused, the limits, no answer) and with {@link nothingReached}
 * when the role reaches nothing; never with half a report. The progress of the calls is drawn on
 * `progress`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const verify = (
  caller: Caller,
  options: Options = defaults,
  progress: Progress.Progress = { update: () => Effect.void, clear: Effect.void }
): Effect.Effect<Report, unknown> =>
  Effect.gen(function*() {
    const contracts = ContractCheck.fromDocument(OpenApi.make())
    const started = yield* Clock.currentTimeMillis
    const crawl = makeCrawl(caller, contracts, options, started + options.maxSeconds * 1000, progress)
    yield* crawl.one("users/me", {})
    const communities = yield* crawl.list("groups/get", {})
    const places = communities.flatMap((c) =>
      c.group_id === undefined || c.channel === undefined ? [] : [{ group_id: c.group_id, channel: c.channel }]
    )
    yield* Effect.forEach(places, (place) => community(crawl, place, options.sample), { discard: true })
    const reached = crawl.observations.some((o) =>
      !["users/me", "groups/get"].includes(o.operation) && isObject(o.envelope) && o.envelope.status === "ok"
    )
    if (!reached) return yield* Effect.fail(nothingReached())
    const fakes = Fakes.make(options.seed)
    const observations = options.keepPersonalData
      ? crawl.observations
      : crawl.observations.map((o) => ({ ...o, verdict: faked(o.verdict, fakes) }))
    const operations = CoreOperations.reading.flatMap((op): ReadonlyArray<OperationReport> => {
      const seen = observations.filter((o) => o.operation === op.path)
      return seen.length === 0 ? [] : [{ operation: op.path, calls: seen.length, verdict: merged(seen) }]
    })
    const notCalled = CoreOperations.reading.flatMap((op) =>
      operations.some((o) => o.operation === op.path)
        ? []
        : [{ operation: op.path, reason: crawl.skipped.get(op.path) ?? notCalledReason }]
    )
    const assumptions = Assumptions.all.map((assumption) => ({
      id: assumption.id,
      summary: assumption.summary,
      judgement: Assumptions.judge(assumption, observations)
    }))
    const ended = yield* Clock.currentTimeMillis
    return {
      conforms: operations.every((o) => o.verdict._tag === "Conforms") &&
        assumptions.every((a) => a.judgement._tag !== "Refuted"),
      calls: crawl.calls(),
      seconds: Math.round((ended - started) / 100) / 10,
      operations,
      notCalled,
      assumptions
    }
  }).pipe(Effect.ensuring(progress.clear))

/**
 * The report in words, for a terminal: each operation (conforms, or its differences), each
 * reading operation not called and why, each assumption (confirmed, refuted with the evidence, or not
 * reached and why), and the outcome.
 *
 * @since 0.1.0
 * @category utils
 */
export const text = (report: Report): string => {
  const operations = report.operations.flatMap((o) => {
    const calls = `${o.calls} call${o.calls === 1 ? "" : "s"}`
    return o.verdict._tag === "Conforms"
      ? [`  ${o.operation}: conforms (${calls})`]
      : [
        `  ${o.operation}: differs (${calls})`,
        ...o.verdict.differences.map((d) => `    - ${ContractCheck.describe(d)}`)
      ]
  })
  const assumptions = report.assumptions.map((a) => {
    const j = a.judgement
    const verdict = j._tag === "Confirmed"
      ? "confirmed"
      : j._tag === "Refuted"
      ? `refuted by ${j.operation}: ${j.evidence}`
      : `not reached: ${j.reason}`
    return `  ${a.id}: ${verdict}\n      (${a.summary})`
  })
  const differing = report.operations.filter((o) => o.verdict._tag === "Differs").length
  const refuted = report.assumptions.filter((a) => a.judgement._tag === "Refuted").length
  return [
    `Verified the account against the contract: ${report.calls} calls of reading operations in ${report.seconds} s.`,
    "",
    "OPERATIONS",
    ...operations,
    ...(report.notCalled.length === 0 ? [] : [
      "",
      "NOT CALLED",
      ...report.notCalled.map((n) => `  ${n.operation}: ${n.reason}`)
    ]),
    "",
    "ASSUMPTIONS",
    ...assumptions,
    "",
    report.conforms
      ? "Everything the account answered conforms to the contract."
      : `${differing} operation${differing === 1 ? "" : "s"} differ from the contract; ` +
        `${refuted} assumption${refuted === 1 ? "" : "s"} refuted.`
  ].join("\n")
}

/**
 * The failure of a run that found differences: its report is already printed; the exit code says
 * "differs" (`ExitCode`).
 *
 * @since 0.1.0
 * @category errors
 */
export class ContractDiffers extends Error {
  readonly _tag = "ContractDiffers"
  readonly operation = "verify"
  constructor(readonly report: Report) {
    super("the service's answers differ from the contract: the report above names each difference")
  }
}

/**
 * The command: verifies the account of the client `Api` gives, with the progress of the calls on
 * standard error when it is a terminal, then prints the report whole (JSON with `json`) and fails
 * with {@link ContractDiffers} when anything differs.
 *
 * @since 0.1.0
 * @category constructors
 */
export const run = (options: Options & { readonly json: boolean }): Effect.Effect<void, unknown, Api> =>
  Effect.gen(function*() {
    const api = yield* Api
    const { stderr } = yield* Stdio
    const progress = yield* Progress.make(stderr, "calls")
    const report = yield* verify(
      (path, params) => {
        const op = CoreOperations.reading.find((candidate) => candidate.path === path)
        return op === undefined
          ? Effect.dieMessage(`${path} is not a read: verify does not send it`)
          : api.call(op as never, params)
      },
      options,
      progress
    )
    yield* Console.log(options.json ? JSON.stringify(report, null, 2) : text(report))
    if (!report.conforms) return yield* Effect.fail(new ContractDiffers(report))
  })
