/**
 * The body of an answer, read within the client's bound and parsed as JSON within a depth the decoder
 * can walk. The body is never held whole beyond the bound: a body of a declared length within the
 * bound is read as the transport delivers it (never more than that length); any other is read as a
 * stream, its bytes counted as they arrive, and at the first byte past the bound (or at once, when the
 * declared length is past it) reading stops, which closes the connection. A body that breaks off is a
 * transport failure, not an unreadable answer: what came was not the whole answer.
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
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // Most of a body is inside strings: jump to the closing quote (native search), the first one
      // not escaped, that is not preceded by an odd number of backslashes. Each backslash is counted
      // once, for the quote right after its run.
      for (;;) {
        const close = text.indexOf("\"", i + 1)
        if (close === -1) return false
        let slashes = 0
        for (let k = close - 1; text.charCodeAt(k) === 0x5c; k--) slashes++
        i = close
        if (slashes % 2 === 0) break
      }
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
 * A body whose length is declared, within the bound and not compressed, is read whole by the
 * transport (every client of Node stops at the declared length: a longer body cannot be delivered
 * as this answer's), so it cannot go past the bound; such a body is read as text in one step,
 * which costs a fraction of reading it as a stream. Anything else (no declared length, a declared
 * length past the bound, any content encoding, which the transport may undo into any size) is read
 * as a stream and counted as it arrives.
 */
const isDeclaredWithin = (headers: HttpClientResponse.HttpClientResponse["headers"], limitBytes: number): boolean => {
  const length = headers["content-length"]
  if (length === undefined || !/^\d+$/.test(length) || Number(length) > limitBytes) return false
  const encoding = headers["content-encoding"]
  return (encoding === undefined || encoding === "identity") && headers["transfer-encoding"] === undefined
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
  isDeclaredWithin(response.headers, limitBytes)
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
