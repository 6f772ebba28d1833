/**
 * The sandbox's journal and limits routes:
 *
 * - `GET /_sandbox/requests` answers the journal: the last requests answered (the ring's `size`),
 *   newest last, filtered by `operation` (`users/me`), `user` (an id), `outcome` (an error code, `ok`
 *   or `dropped`) and `since` (an instant, ISO or unix milliseconds, on the server's clock), with the
 *   count of older entries `dropped` from the ring; times are ISO instants.
 * - `DELETE /_sandbox/requests` empties it.
 * - `GET /_sandbox/limits` answers the limits of `user`, or of every user with something counted.
 *
 * A query that does not decode is refused with one line (error 7) and nothing changes.
 *
 * @internal
 */
import { Operations } from "@community-api/schema"
import { HttpServerRequest } from "@effect/platform"
import { Effect, Either } from "effect"
import type { JournalFilter, LimitCount, RequestLogEntry, UserLimits } from "../ReferenceServer.js"
import { parseInstant } from "./clockRoutes.js"
import * as Answers from "./controlAnswers.js"
import type { Engine } from "./engine.js"

const filters = ["operation", "user", "outcome", "since"] as const

/** A user id: digits. */
const userOf = (route: string, value: unknown): Either.Either<number, string> => {
  const id = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : undefined
  return id === undefined
    ? Either.left(`${route}: user: expected a user id (digits), actual ${Answers.shown(String(value))}`)
    : Either.right(id)
}

/** The filter a query asks for, or the line that says what is wrong with it. */
export const decodeFilter = (query: Record<string, unknown>): Either.Either<JournalFilter, string> => {
  const wrong = Answers.unexpected("requests", query, filters)
  if (wrong !== undefined) return Either.left(wrong)
  const filter: { -readonly [K in keyof JournalFilter]: JournalFilter[K] } = {}
  const { operation, outcome, since, user } = query
  if (operation !== undefined) {
    if (typeof operation !== "string" || !Operations.byPath.has(operation)) {
      return Either.left(
        `requests: operation: expected an operation as section/method (users/me), actual ${
          Answers.shown(String(operation))
        }`
      )
    }
    filter.operation = operation
  }
  if (user !== undefined) {
    const id = userOf("requests", user)
    if (Either.isLeft(id)) return Either.left(id.left)
    filter.user = id.right
  }
  if (outcome !== undefined) {
    if (outcome === "ok" || outcome === "dropped") filter.outcome = outcome
    else if (typeof outcome === "string" && /^\d{1,4}$/.test(outcome)) filter.outcome = Number(outcome)
    else {
      return Either.left(
        `requests: outcome: expected an error code, ok or dropped, actual ${Answers.shown(String(outcome))}`
      )
    }
  }
  if (since !== undefined) {
    const at = parseInstant(since)
    if (at === undefined) {
      return Either.left(
        `requests: since: expected an ISO instant with its offset (2026-01-01T00:00:00Z) or unix milliseconds, actual ${
          Answers.shown(String(since))
        }`
      )
    }
    filter.since = at
  }
  return Either.right(filter)
}

/** An entry as the route shows it: its time as an ISO instant. */
const shownEntry = (entry: RequestLogEntry) => ({ ...entry, at: Answers.iso(entry.at) })

const shownCount = (count: LimitCount) => ({ ...count, resetsAt: Answers.iso(count.resetsAt) })

const shownLimits = (limits: UserLimits) => ({
  user: limits.user,
  second: shownCount(limits.second),
  minute: shownCount(limits.minute),
  day: shownCount(limits.day)
})

/** `GET /_sandbox/requests`. */
export const list = (engine: Engine) =>
  Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request) =>
      Either.match(Either.flatMap(Answers.queryOf("requests", request), decodeFilter), {
        onLeft: (text) => Effect.succeed(Answers.refused(7, text)),
        onRight: (filter) =>
          Effect.sync(() => {
            const journal = engine.journal(filter)
            return Answers.ok({ ...journal, entries: journal.entries.map(shownEntry) })
          })
      })
  )

/** `DELETE /_sandbox/requests`. */
export const clear = (engine: Engine) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const query = Answers.queryOf("requests", request)
    const wrong = Either.isLeft(query) ? query.left : Answers.unexpected("requests", query.right, [])
    return wrong === undefined
      ? Effect.as(Effect.sync(() => engine.clearJournal()), Answers.ok())
      : Effect.succeed(Answers.refused(7, wrong))
  })

/** `GET /_sandbox/limits`. */
export const limits = (engine: Engine) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const user = Either.flatMap(
      Answers.queryOf("limits", request),
      (query): Either.Either<number | undefined, string> => {
        const wrong = Answers.unexpected("limits", query, ["user"])
        if (wrong !== undefined) return Either.left(wrong)
        return query.user === undefined ? Either.right(undefined) : userOf("limits", query.user)
      }
    )
    return Either.match(user, {
      onLeft: (text) => Effect.succeed(Answers.refused(7, text)),
      onRight: (id) =>
        Effect.map(
          engine.limits(id),
          ({ now, users }) => Answers.ok({ at: Answers.iso(now), users: users.map(shownLimits) })
        )
    })
  })
