/**
 * The answers of the sandbox's inspection routes (`/_sandbox/requests`, `/_sandbox/limits`,
 * `/_sandbox/state`): the envelope's shape, times as ISO instants, and one readable line for a query
 * or a body that does not decode. They are no operations of the contract, so there is no schema to
 * encode with; their errors are the contract's error envelope.
 *
 * @internal
 */
import { Envelope } from "@community-api/schema"
import type { HttpServerRequest } from "@effect/platform"
import { HttpServerResponse } from "@effect/platform"
import { Either } from "effect"
import * as Journal from "./journal.js"
import * as Params from "./params.js"

/** A success: `{status: "ok", response}`. */
export const ok = (response?: unknown): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(response === undefined ? { status: "ok" } : { status: "ok", response })

/** A refusal with the error envelope of `code` and one line. */
export const refused = (code: number, text: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(Envelope.encodeError({ code, text }))

/** A time on the server's clock as the routes show it. */
export const iso = (epochMillis: number): string => new Date(epochMillis).toISOString()

/** A value as a refusal quotes it: anything shaped like a token masked, cut short. */
export const shown = (value: string): string => {
  const text = JSON.stringify(Journal.scrub(value))
  return text.length > 60 ? `${text.slice(0, 57)}..."` : text
}

/** The query of `request`, or the line that says why it cannot be read (`route: …`). */
export const queryOf = (
  route: string,
  request: HttpServerRequest.HttpServerRequest
): Either.Either<Record<string, unknown>, string> =>
  Either.mapLeft(Params.queryOf(request.url), (text) => `${route}: the query cannot be read: ${text}`)

/** The first name of `query` not in `known`, as the line of its refusal. */
export const unexpected = (
  route: string,
  query: Record<string, unknown>,
  known: ReadonlyArray<string>
): string | undefined => {
  const name = Object.keys(query).find((key) => !known.includes(key))
  if (name === undefined) return undefined
  const takes = known.length === 0 ? "it takes no parameters" : `it takes ${known.join(", ")}`
  return `${route}: ${shown(name)} is unexpected; ${takes}`
}
