/**
 * One exchange with the server: a request sent through the client's `HttpClient` and its JSON body
 * read within the client's bound on a body (`body.ts`); the call bounds it by the timeout of one
 * attempt (`deadline.ts`). Every failure becomes a client error that names the operation and never
 * the request (which holds the token); its words are the core's (`@community-api/core/CallRequest`).
 */
import * as CallRequest from "@community-api/core/CallRequest"
import type { HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import * as ClientError from "../ClientError.js"
import * as Body from "./body.js"

/** @internal */
export type Failure = ClientError.TransportError | ClientError.ResponseDecodeError

const failureOf = (operation: string, error: HttpClientError.HttpClientError): Failure => {
  if (error._tag === "ResponseError" && error.reason === "Decode") {
    // The body is read by `Body`, which reports its own failures; this one came from elsewhere.
    return new ClientError.ResponseDecodeError({ operation, reason: CallRequest.unreadableBody })
  }
  if (error._tag === "ResponseError") {
    const reason = error.reason === "StatusCode"
      ? CallRequest.statusReason(error.response.status)
      : error.description ?? error.reason
    return new ClientError.TransportError({ operation, reason })
  }
  // A failed connection is read from its cause (its code, host and port; of the URL nothing else).
  return new ClientError.TransportError({
    operation,
    ...CallRequest.transportFailure(error.reason, error.description, error.cause, error.request.url)
  })
}

/**
 * The exchange of a client over `http`, each body allowed `maxBytes`.
 *
 * @internal
 */
export const make =
  (http: HttpClient.HttpClient, maxBytes: number) =>
  (operation: string, request: HttpClientRequest.HttpClientRequest): Effect.Effect<unknown, Failure> =>
    http.execute(request).pipe(
      Effect.mapError((error) => failureOf(operation, error)),
      Effect.flatMap((response) => Body.text(operation, response, maxBytes)),
      Effect.flatMap((text) => Body.parse(operation, text))
    )
