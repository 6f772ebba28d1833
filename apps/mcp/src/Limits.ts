/**
 * The tool `limits_get`: what is left of the limits of the server's user, as the client's limiters
 * see them (`client.budget`): the requests of the rate window and when the next one comes back, the
 * creations of the calendar minute and day and when each resets; and with `creations` and `by`,
 * whether that many creations fit by then, or the earliest instant they would (the core's
 * `Budget.estimate` over the same reading, so that the answer agrees with itself). It reads the
 * limiters only and sends nothing to the API.
 *
 * @since 0.1.0
 */
import * as Budget from "@community-api/client/Budget"
import type * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Target from "@community-api/client/Target"
import * as CoreBudget from "@community-api/core/Budget"
import { Limits } from "@community-api/schema"
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { Cause, Clock, DateTime, Effect } from "effect"
import * as Answer from "./Answer.js"
import * as Issues from "./Issues.js"
import * as Output from "./Output.js"

/**
 * The tool's name.
 *
 * @since 0.1.0
 * @category constants
 */
export const name = "limits_get"

/** An ISO 8601 date-time with its offset: an assistant always knows which zone it means. */
const isoInstant = "^(\\d{4})-(\\d{2})-(\\d{2})T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:\\d{2})$"

const instantPattern = new RegExp(isoInstant, "i")

/**
 * The epoch milliseconds of an ISO 8601 date-time with its offset; `undefined` for anything else, or
 * a day the calendar does not have (`Date` would read `02-30` as March 2nd).
 *
 * @since 0.1.0
 * @category utils
 */
export const parseInstant = (text: string): number | undefined => {
  const match = instantPattern.exec(text)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined
  const millis = Date.parse(text)
  return Number.isNaN(millis) ? undefined : millis
}

/**
 * What the tool does, for its description and the compact tools.
 *
 * @since 0.1.0
 * @category constants
 */
export const summary = "Tells what is left of the user's request and creation limits, when each comes back, and " +
  "whether a number of creations fit by an instant."

/**
 * The tool's description: what it answers, whose limits they are, and that it sends nothing.
 *
 * @since 0.1.0
 * @category constants
 */
export const description = [
  summary,
  `requests: of the user's ${Limits.requestsPerWindow} a second, how many are used (in flight or held back after`,
  "their answers) and left, and resets_at, when the next one held comes back (null while every one held waits",
  `for its answer). creations.minute and creations.day: of ${Limits.creationsPerMinute} a calendar minute and`,
  `${Limits.creationsPerDay} a day (from 03:00 Moscow time, 00:00 UTC), how many are used and left, and when`,
  "each resets. With creations and by (both or neither), estimate says whether that many creations can all be",
  "sent by then (in_time), counting the limits only, not the time the calls take, and last_at, the earliest the",
  "last of them can be sent. Times are ISO 8601, UTC. These are the limits this server paces its calls with; it",
  "sends nothing to the API.",
  `limiters says whose they are: memory, this server's own calls alone (so a new server has all of them); redis,`,
  `every process of the user that shares ${Target.redisUrlVariable}.`
].join(" ")

/**
 * The tool's input schema: nothing, or `creations` with `by`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const inputSchema: Mcp.Tool["inputSchema"] = {
  type: "object",
  properties: {
    creations: {
      type: "integer",
      minimum: 1,
      maximum: Budget.maxCreations,
      description: "With by: how many creations to fit."
    },
    by: {
      type: "string",
      pattern: isoInstant,
      description: "With creations: when they must all be sent by, ISO 8601 with its offset " +
        "(2026-01-01T18:00:00+03:00)."
    }
  },
  additionalProperties: false
}

/**
 * The tool's definition. Read-only and idempotent; a closed world: it reads the server's own limiters.
 *
 * @since 0.1.0
 * @category constants
 */
export const definition: Mcp.Tool = {
  name,
  description,
  inputSchema,
  outputSchema: Output.make(Output.fromSchema(Budget.Json, name)),
  annotations: {
    title: "the limits left",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false
  }
}

/** The tool's parameters, in the order of its input schema. */
const parameters = Object.keys(inputSchema.properties ?? {})

/**
 * The question of the arguments (none when neither is given), or every issue with them.
 *
 * @since 0.1.0
 * @category utils
 */
export const questionOf = (
  args: Readonly<Record<string, unknown>>
): { readonly question: CoreBudget.Question | undefined } | { readonly issues: ReadonlyArray<Answer.Issue> } => {
  const { by, creations, ...rest } = args
  const issues: Array<Answer.Issue> = Object.keys(rest).map((key) => Issues.notAParameter(key, parameters))
  const count = typeof creations === "number" && Number.isInteger(creations) && creations >= 1 &&
      creations <= Budget.maxCreations
    ? creations
    : undefined
  if (creations !== undefined && count === undefined) {
    issues.push({ parameter: "creations", message: `must be a whole number from 1 to ${Budget.maxCreations}` })
  }
  const at = typeof by === "string" ? parseInstant(by) : undefined
  if (by !== undefined && at === undefined) {
    issues.push({
      parameter: "by",
      message: "must be an ISO 8601 date and time with its offset, such as 2026-01-01T18:00:00+03:00"
    })
  }
  if ((creations === undefined) !== (by === undefined)) {
    const [missing, given] = creations === undefined ? ["creations", "by"] : ["by", "creations"]
    issues.push({ parameter: missing, message: `is required with ${given}: the two go together` })
  }
  if (issues.length > 0) return { issues }
  return { question: count === undefined || at === undefined ? undefined : { creations: count, by: at } }
}

/** The answer's line: everything the result holds, for a client that shows the model only text. */
const line = (result: Budget.Json): string => {
  const { creations, estimate, requests } = result
  // Nothing held: none is to come back. All held awaiting their answers: the next comes back a hold after one.
  const back = requests.used === 0
    ? "none held"
    : requests.resets_at === null
    ? "the next back after an answer"
    : `the next back at ${requests.resets_at}`
  const asked = estimate === undefined ?
    "" :
    `; ${estimate.creations} creations by ${estimate.by}: ${
      estimate.in_time ? "in time, the last from" : "not in time, the last at the earliest at"
    } ${estimate.last_at}`
  return `${name}: ${requests.left} of ${requests.limit} requests left, ${back}; creations left ` +
    `${creations.minute.left} of ${creations.minute.limit} this minute (resets at ${creations.minute.resets_at}) ` +
    `and ${creations.day.left} of ${creations.day.limit} this day (resets at ${creations.day.resets_at})${asked}; ` +
    `limits kept in ${result.limiters === "redis" ? "Redis, for every process of the user" : "this server's memory"}.`
}

/**
 * Runs the tool on a client whose limiters keep the limits where `limiters` says. Arguments that do
 * not fit are refused, every issue named; a limiter that cannot be read (`LimiterUnavailable`) is a
 * tool error, as is anything unforeseen (an internal error).
 *
 * @since 0.1.0
 * @category utils
 */
export const run = (
  client: CommunityApiClient.Client,
  args: Readonly<Record<string, unknown>>,
  limiters: Target.Limiters
): Effect.Effect<Mcp.CallToolResult> => {
  const checked = questionOf(args)
  if ("issues" in checked) return Effect.succeed(Answer.invalidInput(name, checked.issues))
  const { question } = checked
  return Effect.gen(function*() {
    // The client's instants (`DateTime`) in epoch milliseconds, as the question takes them.
    const budget = Budget.mapInstants(yield* client.budget, DateTime.toEpochMillis)
    const now = yield* Clock.currentTimeMillis
    const result = CoreBudget.toJson(
      budget,
      limiters,
      question === undefined
        ? undefined
        : { ...question, estimate: Budget.estimate(budget.creations, question.creations, now, question.by) }
    )
    return { content: [{ type: "text" as const, text: line(result) }], structuredContent: { result } }
  }).pipe(
    Effect.catchAll((error) => Effect.succeed(Answer.failure(name, error))),
    // As every tool: never a protocol error; a defect is an internal error, told without its detail.
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.succeed(Answer.failure(name, undefined))
    )
  )
}
