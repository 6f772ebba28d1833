/**
 * The body of an answer, read within the client's bound and parsed as JSON within a depth the decoder
 * can walk (the core's rules, `@community-api/core/JsonBody`). A body of a declared length within the
 * bound is read as the transport delivers it; any other is read as a stream, its bytes counted as they
 * arrive, and at the first byte past the bound reading stops, which closes the connection. A body that
 * breaks off is a transport failure, not an unreadable answer.
 */
import * as JsonBody from "@community-api/core/JsonBody"
import { Effect, Stream } from "effect"
import type { HttpClientError, HttpClientResponse } from "effect/http"
import * as ClientError from "../ClientError.js"

const causeOf = (error: HttpClientError.HttpClientError): string =>
  error.cause instanceof Error ? `: ${error.cause.message}` : ""

/** A sentinel for the bound, so that the stream's own errors stay apart from it. */
class OverBound {
  readonly _tag = "OverBound"
}

/** Reads the body of `response` as text, at most `limitBytes` bytes of it. */
export const text = (
  operation: string,
  response: HttpClientResponse.HttpClientResponse,
  limitBytes: number
): Effect.Effect<string, ClientError.TransportError | ClientError.ResponseDecodeError> =>
  JsonBody.isDeclaredWithin(response.headers, limitBytes)
    ? Effect.catch(response.text, (error) =>
      // The transport read up to the declared length and no further: the body can only have broken off.
      Effect.fail(
        new ClientError.TransportError({
          operation,
          reason: `the answer broke off before its declared ${response.headers["content-length"]} bytes${
            causeOf(error)
          }`
        })
      ))
    : streamed(operation, response, limitBytes)

const streamed = (
  operation: string,
  response: HttpClientResponse.HttpClientResponse,
  limitBytes: number
): Effect.Effect<string, ClientError.TransportError | ClientError.ResponseDecodeError> =>
  Effect.suspend(() => {
    const declared = Number(response.headers["content-length"] ?? 0)
    const decoder = new TextDecoder()
    const parts: Array<string> = []
    let size = 0
    return response.stream.pipe(
      Stream.runForEach((bytes) => {
        size += bytes.byteLength
        // Failing here ends the stream, and ending the stream aborts the request.
        if (size > limitBytes || declared > limitBytes) return Effect.fail(new OverBound())
        parts.push(decoder.decode(bytes, { stream: true }))
        return Effect.void
      }),
      Effect.map(() => parts.join("") + decoder.decode()),
      Effect.catch((error): Effect.Effect<string, ClientError.TransportError | ClientError.ResponseDecodeError> => {
        if (error instanceof OverBound) {
          return Effect.fail(
            new ClientError.ResponseDecodeError({ operation, reason: JsonBody.tooLarge(limitBytes), limitBytes })
          )
        }
        // No body at all reads as an empty one.
        if (error.reason._tag === "EmptyBodyError") return Effect.succeed("")
        return Effect.fail(
          new ClientError.TransportError({
            operation,
            reason: `the answer broke off after ${size} bytes${causeOf(error)}`
          })
        )
      })
    )
  })

/** The JSON of a body, or a `ResponseDecodeError` naming why it is none an answer can be. */
export const parse = (operation: string, body: string): Effect.Effect<unknown, ClientError.ResponseDecodeError> => {
  const parsed = JsonBody.parse(body)
  return parsed._tag === "Parsed"
    ? Effect.succeed(parsed.value)
    : Effect.fail(new ClientError.ResponseDecodeError({ operation, reason: parsed.reason }))
}
