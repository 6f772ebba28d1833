/**
 * One exchange with the server: a request sent through the client's `HttpClient` and its JSON body
 * read within the client's bound on a body. Every failure becomes a client error that names the
 * operation and never the request (which holds the token).
 */
import { Effect } from "effect"
import type { HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import * as ClientError from "../ClientError.js"
import * as Body from "./body.js"
import * as Http from "./http.js"

/** What an exchange fails with. */
export type Failure = ClientError.TransportError | ClientError.ResponseDecodeError

/** One exchange of the operation at `operation`. */
export type Exchange = (
  operation: string,
  request: HttpClientRequest.HttpClientRequest
) => Effect.Effect<unknown, Failure>

// The reason's own words name the method and the URL (which never holds the token) and the cause.
const transportReason = (error: HttpClientError.HttpClientError): string => {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ""
  const description = "description" in error.reason && error.reason.description !== undefined
    ? `: ${error.reason.description}`
    : ""
  return `${error.reason._tag}${description}${cause}`
}

const failureOf = (operation: string, error: HttpClientError.HttpClientError): Failure => {
  const reason = error.reason
  switch (reason._tag) {
    case "StatusCodeError": {
      const status = reason.response.status
      return new ClientError.TransportError({
        operation,
        reason: Http.isRedirect(status) ? `redirect not followed: HTTP status ${status}` : `HTTP status ${status}`
      })
    }
    case "DecodeError":
      // The body is read by `Body`, which reports its own failures; this one came from elsewhere.
      return new ClientError.ResponseDecodeError({ operation, reason: "the body could not be read" })
    default:
      return new ClientError.TransportError({ operation, reason: transportReason(error) })
  }
}

/** The exchange of a client over `http`, each body allowed `maxBytes`. */
export const make = (http: HttpClient.HttpClient, maxBytes: number): Exchange => (operation, request) =>
  http.execute(request).pipe(
    Effect.mapError((error) => failureOf(operation, error)),
    Effect.flatMap((response) => Body.text(operation, response, maxBytes)),
    Effect.flatMap((text) => Body.parse(operation, text))
  )
