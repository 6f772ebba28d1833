/**
 * The body of an answer, read within the client's bound and parsed as JSON within a depth the decoder
 * can walk: the core's reader and rules (`@community-api/core/BodyReader`, `JsonBody`) over this
 * line's stream. A body of a declared length within the bound is read as the transport delivers it;
 * any other is handed to the reader as it arrives, and at the first byte past the bound reading
 * stops, which closes the connection. A body that breaks off is a transport failure, not an
 * unreadable answer.
 */
import * as BodyReader from "@community-api/core/BodyReader"
import * as JsonBody from "@community-api/core/JsonBody"
import { Effect, Stream } from "effect"
import type { HttpClientError, HttpClientResponse } from "effect/http"
import * as ClientError from "../ClientError.js"

type Failure = ClientError.TransportError | ClientError.ResponseDecodeError

/** Reads the body of `response` as text, at most `limitBytes` bytes of it. */
export const text = (
  operation: string,
  response: HttpClientResponse.HttpClientResponse,
  limitBytes: number
): Effect.Effect<string, Failure> =>
  Effect.suspend(() => {
    const reader = BodyReader.make(response.headers, limitBytes)
    const failed = (error: HttpClientError.HttpClientError | "over"): Effect.Effect<string, Failure> =>
      error === "over"
        ? Effect.fail(new ClientError.ResponseDecodeError({ operation, reason: reader.tooLarge, limitBytes }))
        // No body at all reads as an empty one.
        : !reader.whole && error.reason._tag === "EmptyBodyError"
        ? Effect.succeed("")
        : Effect.fail(new ClientError.TransportError({ operation, reason: reader.brokeOff(error.cause) }))
    if (reader.whole) return Effect.catch(response.text, failed)
    // Failing here ends the stream, and ending the stream aborts the request.
    const pushed = Stream.runForEach(response.stream, (bytes) =>
      reader.push(bytes) ? Effect.void : Effect.fail("over" as const))
    return Effect.catch(Effect.map(pushed, reader.text), failed)
  })

/** The JSON of a body, or a `ResponseDecodeError` naming why it is none an answer can be. */
export const parse = (operation: string, body: string): Effect.Effect<unknown, ClientError.ResponseDecodeError> => {
  const parsed = JsonBody.parse(body)
  return parsed._tag === "Parsed"
    ? Effect.succeed(parsed.value)
    : Effect.fail(new ClientError.ResponseDecodeError({ operation, reason: parsed.reason }))
}
