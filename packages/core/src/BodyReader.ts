/**
 * The body of an answer read within the client's bound, "sans I/O": each line's transport hands the
 * bytes as they arrive, the reader counts them and says when to stop; the text and the words of a
 * failure are its. The body is never held whole beyond the bound: a body of a declared length within
 * the bound is read as the transport delivers it (never more than that length, {@link BodyReader.whole});
 * any other is read as a stream, its bytes counted as they arrive, and at the first byte past the
 * bound (or at once, when the declared length is past it) reading stops, which closes the connection.
 * A body that breaks off is a transport failure, not an unreadable answer: what came was not the whole
 * answer.
 *
 * @since 0.1.0
 */
import * as CallRequest from "./CallRequest.js"
import * as JsonBody from "./JsonBody.js"

/**
 * The reading of one body.
 *
 * @since 0.1.0
 * @category models
 */
export interface BodyReader {
  /** The declared length is within the bound: the transport's whole read is taken as it is. */
  readonly whole: boolean
  /** Takes the next bytes; `false` when the body is past the bound, and reading is to stop. */
  readonly push: (bytes: Uint8Array) => boolean
  /** The text read so far, once the body ended. */
  readonly text: () => string
  /** The reason of a body that broke off, with the cause the transport gave. */
  readonly brokeOff: (cause: unknown) => string
  /** The reason of a body past the bound. */
  readonly tooLarge: string
  /** The bound, in bytes. */
  readonly limitBytes: number
}

/**
 * A reader of the body of an answer with `headers`, at most `limitBytes` bytes of it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  headers: { readonly [name: string]: string | undefined },
  limitBytes: number
): BodyReader => {
  const whole = JsonBody.isDeclaredWithin(headers, limitBytes)
  const declared = Number(headers["content-length"] ?? 0)
  const decoder = new TextDecoder()
  const parts: Array<string> = []
  let size = 0
  return {
    whole,
    limitBytes,
    push: (bytes) => {
      size += bytes.byteLength
      if (size > limitBytes || declared > limitBytes) return false
      parts.push(decoder.decode(bytes, { stream: true }))
      return true
    },
    text: () => parts.join("") + decoder.decode(),
    brokeOff: (cause) =>
      whole
        // The transport read up to the declared length and no further: the body can only have broken off.
        ? `the answer broke off before its declared ${headers["content-length"]} bytes${CallRequest.causeText(cause)}`
        : `the answer broke off after ${size} bytes${CallRequest.causeText(cause)}`,
    tooLarge: JsonBody.tooLarge(limitBytes)
  }
}
