/**
 * `community-api limits [--creations N --by INSTANT]`: what is left of the limits of the token's user,
 * as the client's limiters see them (`client.budget`): the requests of the rate window and when the
 * next one comes back, the creations of the calendar minute and day and when each resets; and with
 * `--creations N --by INSTANT`, whether N creations fit by then, or the earliest instant they would
 * (the core's `Budget.estimate` over the same reading, so that the answer agrees with the table). It
 * sends no request to the API.
 *
 * @since 0.1.0
 */
import type * as ClientError from "@community-api/client/ClientError"
import * as Target from "@community-api/client/Target"
import * as Budget from "@community-api/core/Budget"
import { Limits } from "@community-api/schema"
import { Clock, Console, DateTime, Effect, Option } from "effect"
import { Api } from "./Api.js"
import type * as Flags from "./Flags.js"
import * as Instant from "./internal/instant.js"
import * as Output from "./Output.js"
import * as Report from "./Report.js"
import { UsageError } from "./UsageError.js"

/**
 * The command's name.
 *
 * @since 0.1.0
 */
export const name = "limits"

/**
 * A flag of `limits`, as its help shows it.
 *
 * @since 0.1.0
 */
export type Flag = Flags.CommandFlag

/**
 * The flags of `limits` besides `--token-stdin`, which every command that reads the token has. It has
 * no `--retries`: it sends nothing.
 *
 * @since 0.1.0
 */
export const flags = {
  creations: {
    name: "creations",
    typeName: "N",
    optional: true,
    description: `With --by: how many creations to fit, 1 to ${Budget.maxCreations}.`
  },
  by: {
    name: "by",
    typeName: "INSTANT",
    optional: true,
    description: `With --creations: when they must all be sent by, ${Instant.expected}.`
  },
  json: {
    name: "json",
    optional: true,
    description: "Print JSON instead of a table: limiters, requests, creations.minute and creations.day (used, " +
      "limit, left, resets_at in ISO 8601, null for the requests while every permit held waits for its answer), " +
      "and estimate (creations, by, in_time, last_at) with --creations and --by."
  }
} as const satisfies Record<string, Flag>

/**
 * What `limits` does, in one line.
 *
 * @since 0.1.0
 */
export const summary = "Show what is left of the token's user's limits and when it comes back, and whether N " +
  "creations fit by an instant."

/**
 * What `limits` shows and whose limits they are, for its help.
 *
 * @since 0.1.0
 */
export const description = `The requests left of ${Limits.requestsPerWindow} in the rate window of one second ` +
  "and when the next one held comes back; the creations left of " +
  `${Limits.creationsPerMinute} this calendar minute and ${Limits.creationsPerDay} this day (from 03:00 Moscow ` +
  "time, 00:00 UTC) and when each resets, in local time and ISO 8601. With --creations N --by INSTANT, also " +
  "whether N creations can all be sent by then, counting the limits only (not the time the requests take), or " +
  "the earliest instant the last of them could be. These are the limits the client paces with, read from its " +
  `limiters; no request is sent. Without ${Target.redisUrlVariable} they are this process's own, so a new ` +
  "process has all of them, whatever the user's other processes spend; with it (and a real API), they are kept " +
  "in that Redis and shared by every process of the user, and this shows what all of them have left."

/**
 * What `--by` takes, as its refusal says it.
 *
 * @since 0.1.0
 */
export const expectedBy = Instant.expected

/**
 * The instant of `--by` in epoch milliseconds; none for a text that is not {@link expectedBy}.
 *
 * @since 0.1.0
 */
export const parseBy = (text: string): Option.Option<number> => Option.fromNullable(Instant.parse(text))

/**
 * The question of `--creations` and `--by`: both or neither; one alone is a usage error.
 *
 * @since 0.1.0
 */
export const question = (
  creations: Option.Option<number>,
  by: Option.Option<number>
): Effect.Effect<Option.Option<Budget.Question>, UsageError> => {
  if (Option.isSome(creations) && Option.isSome(by)) {
    return Effect.succeed(Option.some({ creations: creations.value, by: by.value }))
  }
  if (Option.isNone(creations) && Option.isNone(by)) return Effect.succeed(Option.none())
  const [given, missing] = Option.isSome(creations) ? ["--creations", "--by"] : ["--by", "--creations"]
  return Effect.fail(
    new UsageError({
      reason: `${name} ${given} needs ${missing} too: --creations N --by INSTANT asks whether N creations fit by then`
    })
  )
}

/** What the requests' `resets` says while every permit held waits for its answer. */
const onAnswer = "after an answer"

/**
 * The rows of the table: the requests, the creations of the minute and of the day, each with what is
 * used and left of its limit and when it comes back, in local time and ISO 8601.
 *
 * @since 0.1.0
 */
export const rows = (budget: Budget.OfUser): ReadonlyArray<Record<string, string | number>> => {
  const row = (window: string, limit: Omit<Budget.Requests, "resetsAt">, resetsAt: number | undefined) => ({
    window,
    used: limit.used,
    left: limit.left,
    limit: limit.limit,
    resets: resetsAt === undefined ? onAnswer : Instant.local(resetsAt),
    resets_at: resetsAt === undefined ? "" : Instant.iso(resetsAt)
  })
  const { creations, requests } = budget
  return [
    row("requests (second)", requests, requests.resetsAt),
    row("creations (minute)", creations.minute, creations.minute.resetsAt),
    row("creations (day)", creations.day, creations.day.resetsAt)
  ]
}

const both = (epochMillis: number) => `${Instant.local(epochMillis)} (${Instant.iso(epochMillis)})`

/**
 * The line under the table that answers `--creations N --by INSTANT`.
 *
 * @since 0.1.0
 */
export const estimateLine = (question: Budget.Question, estimate: Budget.Estimate): string =>
  `${question.creations} creations by ${both(question.by)}: ` +
  (estimate._tag === "InTime"
    ? `yes, the last can be sent from ${both(estimate.lastAt)}`
    : `no, the last could be sent at the earliest at ${both(estimate.earliest)}`)

/**
 * The line on standard error under the table when the limits are this process's own.
 *
 * @since 0.1.0
 */
export const ownNote = `${Report.prefix} these are this process's own limits, all of them at its start: without ` +
  `${Target.redisUrlVariable} the user's other processes are not counted`

/**
 * Reads the budget through {@link Api} and writes it: a table (with {@link estimateLine} and, for the
 * limits of this process alone, {@link ownNote} on standard error) or JSON.
 *
 * @since 0.1.0
 */
export const run = (options: {
  readonly question: Option.Option<Budget.Question>
  readonly json: boolean
}): Effect.Effect<void, ClientError.LimiterUnavailable, Api> =>
  Effect.gen(function*() {
    const api = yield* Api
    // The client's instants (`DateTime`) in epoch milliseconds, as the question and the table take them.
    const budget = Budget.mapInstants(yield* api.budget, DateTime.toEpochMillis)
    const now = yield* Clock.currentTimeMillis
    const asked = Option.map(options.question, (question) => ({
      ...question,
      estimate: Budget.estimate(budget.creations, question.creations, now, question.by)
    }))
    if (options.json) {
      return yield* Console.log(Output.json(Budget.toJson(budget, api.limiters, Option.getOrUndefined(asked))))
    }
    const table = Output.table(rows(budget))
    yield* Console.log(
      Option.match(asked, {
        onNone: () => table,
        onSome: (asked) => `${table}\n${estimateLine(asked, asked.estimate)}`
      })
    )
    if (api.limiters === "memory") yield* Console.error(ownNote)
  })
