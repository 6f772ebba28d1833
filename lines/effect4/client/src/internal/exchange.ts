/**
 * One exchange with the server: a request sent through the client's `HttpClient` and its JSON body
 * read within the client's bound on a body. Every failure becomes a client error that names the
 * operation and never the request (which holds the token), in the core's words
 * (`@community-api/core/CallRequest`).
 */
import * as CallRequest from "@community-api/core/CallRequest"
import { Effect } from "effect"
import type { HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import * as ClientError from "../ClientError.js"
import * as Body from "./body.js"

/** What an exchange fails with. */
export type Failure = ClientError.TransportError | ClientError.ResponseDecodeError

// A failed connection is read from its cause (its code, host and port; of the URL nothing else); any
// other failure's own words name the method and the URL (which never holds the token) and the cause.
const failureOf = (operation: string, { cause, reason, request }: HttpClientError.HttpClientError): Failure =>
  reason._tag === "DecodeError"
    // The body is read by `Body`, which reports its own failures; this one came from elsewhere.
    ? new ClientError.ResponseDecodeError({ operation, reason: CallRequest.unreadableBody })
    : new ClientError.TransportError({
      operation,
      ...(reason._tag === "StatusCodeError"
        ? { reason: CallRequest.statusReason(reason.response.status) }
        : CallRequest.transportFailure(
          reason._tag,
          "description" in reason ? reason.description : undefined,
          cause,
          request.url
        ))
    })

/** The exchange of a client over `http`, each body allowed `maxBytes`. */
export const make =
  (http: HttpClient.HttpClient, maxBytes: number) =>
  (operation: string, request: HttpClientRequest.HttpClientRequest): Effect.Effect<unknown, Failure> =>
    Effect.flatMap(
      Effect.flatMap(Effect.mapError(http.execute(request), (error) => failureOf(operation, error)), (response) =>
        Body.text(operation, response, maxBytes)),
      (text) =>
        Body.parse(operation, text)
    )
