/**
 * The body of an answer, read as a stream within the client's bound and parsed as JSON within a depth
 * the decoder can walk. The body is never held whole beyond the bound: bytes are counted as they
 * arrive, and at the first byte past the bound (or at once, when the declared length is past it)
 * reading stops, which closes the connection. A body that breaks off is a transport failure, not an
 * unreadable answer: what came was not the whole answer.
 */
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import { Effect, Stream } from "effect"
import * as ClientError from "../ClientError.js"

/**
 * The default bound on a body: 16 MiB, about thirty times a page of 500 items of the largest kind.
 *
 * @internal
 */
export const defaultMaxBytes = 16 * 1024 * 1024

/**
 * The deepest nesting of arrays and objects the client parses. The contract's answers nest a few
 * levels; schema errors are formatted by recursion over the value, which overflows the stack some
 * thousands of levels down, so a deeper body is refused before it is parsed.
 *
 * @internal
 */
export const maxDepth = 256

/** Tells whether the JSON text nests arrays and objects deeper than `max`, without parsing it. */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  // Each level takes one character, so a shorter text cannot be deeper.
  if (text.length <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash escapes the next character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return false
}

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
              reason: `the body exceeds the client's bound of ${limitBytes} bytes (maxResponseBytes); ` +
                `reading stopped there and the connection was closed`,
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
  if (nestsDeeperThan(body, maxDepth)) {
    return Effect.fail(
      new ClientError.ResponseDecodeError({ operation, reason: `the body nests deeper than ${maxDepth} levels` })
    )
  }
  try {
    return Effect.succeed(body === "" ? null : JSON.parse(body) as unknown)
  } catch {
    return Effect.fail(new ClientError.ResponseDecodeError({ operation, reason: "the body is not JSON" }))
  }
}
