/**
 * The body of an answer, read within the client's bound and parsed as JSON within a depth the decoder
 * can walk. What is read, when reading stops and the words of each failure are the core's
 * (`@community-api/core/BodyReader`, `@community-api/core/JsonBody`): a body of a declared length
 * within the bound is read as the transport delivers it; any other is read as a stream, its bytes
 * handed to the reader as they arrive, and at the first byte past the bound reading stops, which closes
 * the connection. A body that breaks off is a transport failure, not an unreadable answer.
 */
import * as BodyReader from "@community-api/core/BodyReader"
import * as JsonBody from "@community-api/core/JsonBody"
import type { HttpClientResponse } from "@effect/platform"
import { Effect, Stream } from "effect"
import * as ClientError from "../ClientError.js"

/** A sentinel for the bound, so that the stream's own errors stay apart from it. */
const overBound = { _tag: "OverBound" } as const

/**
 * Reads the body of `response` as text, at most `limitBytes` bytes of it.
 *
 * @internal
 */
export const text = (
  operation: string,
  response: HttpClientResponse.HttpClientResponse,
  limitBytes: number
): Effect.Effect<string, ClientError.TransportError | ClientError.ResponseDecodeError> =>
  Effect.suspend((): Effect.Effect<string, ClientError.TransportError | ClientError.ResponseDecodeError> => {
    const reader = BodyReader.make(response.headers, limitBytes)
    const brokeOff = (cause: unknown) => new ClientError.TransportError({ operation, reason: reader.brokeOff(cause) })
    if (reader.whole) return Effect.mapError(response.text, (error) => brokeOff(error.cause))
    // Failing ends the stream, and ending the platform's stream aborts the request.
    const read = Stream.runForEach(
      response.stream,
      (bytes): Effect.Effect<void, typeof overBound> => reader.push(bytes) ? Effect.void : Effect.fail(overBound)
    )
    return Effect.matchEffect(read, {
      onSuccess: () => Effect.succeed(reader.text()),
      onFailure: (error): Effect.Effect<string, ClientError.TransportError | ClientError.ResponseDecodeError> => {
        if (error._tag === "OverBound") {
          return Effect.fail(new ClientError.ResponseDecodeError({ operation, reason: reader.tooLarge, limitBytes }))
        }
        // No body at all reads as an empty one, as the platform's `json` reads it.
        return error.reason === "EmptyBody" ? Effect.succeed("") : Effect.fail(brokeOff(error.cause))
      }
    })
  })

/**
 * Parses the text of a body as JSON (an empty body is `null`, as the platform's `json` gives it).
 *
 * @internal
 */
export const parse = (operation: string, body: string): Effect.Effect<unknown, ClientError.ResponseDecodeError> => {
  const parsed = JsonBody.parse(body)
  return parsed._tag === "Parsed"
    ? Effect.succeed(parsed.value)
    : Effect.fail(new ClientError.ResponseDecodeError({ operation, reason: parsed.reason }))
}
