/**
 * The body of an answer, read within the client's bound and parsed as JSON within a depth the decoder
 * can walk. The body is never held whole beyond the bound: a body of a declared length within the
 * bound is read as the transport delivers it (never more than that length); any other is read as a
 * stream, its bytes counted as they arrive, and at the first byte past the bound (or at once, when the
 * declared length is past it) reading stops, which closes the connection. A body that breaks off is a
 * transport failure, not an unreadable answer: what came was not the whole answer.
 */
import * as JsonBody from "@community-api/core/JsonBody"
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import { Effect, Stream } from "effect"
import * as ClientError from "../ClientError.js"

/** @internal */
export const defaultMaxBytes = JsonBody.defaultMaxBytes

/** @internal */
export const maxDepth = JsonBody.maxDepth

/** @internal */
export const nestsDeeperThan = JsonBody.nestsDeeperThan

const causeOf = (error: HttpClientError.ResponseError): string =>
  error.cause instanceof Error ? `: ${error.cause.message}` : ""

/** A sentinel for the bound, so that the stream's own errors stay apart from it. */
class OverBound {
  readonly _tag = "OverBound"
}

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
  JsonBody.isDeclaredWithin(response.headers, limitBytes)
    ? Effect.catchAll(response.text, (error) =>
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

/** Reads the body as a stream, counting its bytes as they arrive. */
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
        // Failing here ends the stream, and ending the platform's stream aborts the request.
        if (size > limitBytes || declared > limitBytes) return Effect.fail(new OverBound())
        parts.push(decoder.decode(bytes, { stream: true }))
        return Effect.void
      }),
      Effect.map(() => parts.join("") + decoder.decode()),
      Effect.catchAll((error): Effect.Effect<string, ClientError.TransportError | ClientError.ResponseDecodeError> => {
        if (error instanceof OverBound) {
          return Effect.fail(
            new ClientError.ResponseDecodeError({
              operation,
              reason: JsonBody.tooLarge(limitBytes),
              limitBytes
            })
          )
        }
        // No body at all reads as an empty one, as the platform's `json` reads it.
        if (error.reason === "EmptyBody") return Effect.succeed("")
        return Effect.fail(
          new ClientError.TransportError({
            operation,
            reason: `the answer broke off after ${size} bytes${causeOf(error)}`
          })
        )
      })
    )
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
