/**
 * One exchange with the server: a request sent through the client's `HttpClient` and its JSON body
 * read within the client's bound on a body (`body.ts`); the call bounds it by the timeout of one
 * attempt (`deadline.ts`). Every failure becomes a client error that names the operation and never
 * the request (which holds the token).
 */
import type { HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import * as ClientError from "../ClientError.js"
import * as Body from "./body.js"
import * as Http from "./http.js"

/** @internal */
export type Failure = ClientError.TransportError | ClientError.ResponseDecodeError

/** @internal */
export type Exchange = (
  operation: string,
  request: HttpClientRequest.HttpClientRequest
) => Effect.Effect<unknown, Failure>

// The platform's message names the URL (which never holds the token); the cause names the socket error.
const transportReason = (error: HttpClientError.HttpClientError): string => {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ""
  return `${error.reason}${error.description === undefined ? "" : `: ${error.description}`}${cause}`
}

const failureOf = (operation: string, error: HttpClientError.HttpClientError): Failure => {
  if (error._tag === "RequestError") {
    return new ClientError.TransportError({ operation, reason: transportReason(error) })
  }
  switch (error.reason) {
    case "StatusCode": {
      const status = error.response.status
      return new ClientError.TransportError({
        operation,
        reason: Http.isRedirect(status) ? `redirect not followed: HTTP status ${status}` : `HTTP status ${status}`
      })
    }
    case "Decode":
      // The body is read by `Body`, which reports its own failures; this one came from elsewhere.
      return new ClientError.ResponseDecodeError({ operation, reason: "the body could not be read" })
    case "EmptyBody":
      return new ClientError.TransportError({ operation, reason: error.description ?? error.reason })
  }
}

/**
 * The exchange of a client over `http`, each body allowed `maxBytes`.
 *
 * @internal
 */
export const make = (http: HttpClient.HttpClient, maxBytes: number): Exchange => (operation, request) =>
  http.execute(request).pipe(
    Effect.mapError((error) => failureOf(operation, error)),
    Effect.flatMap((response) => Body.text(operation, response, maxBytes)),
    Effect.flatMap((text) => Body.parse(operation, text))
  )
