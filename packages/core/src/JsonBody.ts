/**
 * How a client reads the body of an answer, in either Effect line: the bound on its size, whether a
 * declared length may be trusted, its depth checked before it is parsed (a hostile peer's body of
 * 100,000 nested brackets would otherwise overflow the parser's stack), and the words of a refusal.
 *
 * @since 0.1.0
 */

/**
 * The largest body a client reads by default, in bytes.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxBytes = 16 * 1024 * 1024

/**
 * The deepest nesting of brackets a body may have; no answer of the API nests more than a few levels.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxDepth = 256

/**
 * Whether `text` nests brackets deeper than `max`, outside strings, read character by character as a
 * parser would.
 *
 * @since 0.1.0
 * @category utils
 */
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

/**
 * Whether the headers declare a plain body within `limitBytes`: a length that is a number, no
 * compression and no chunks, so that the transport reads no more than that length.
 *
 * @since 0.1.0
 * @category utils
 */
export const isDeclaredWithin = (
  headers: { readonly [name: string]: string | undefined },
  limitBytes: number
): boolean => {
  const length = headers["content-length"]
  if (length === undefined || !/^\d+$/.test(length) || Number(length) > limitBytes) return false
  const encoding = headers["content-encoding"]
  return (encoding === undefined || encoding === "identity") && headers["transfer-encoding"] === undefined
}

/**
 * A body read as JSON: its value (an empty body is `null`), or why it is not JSON an answer can be.
 *
 * @since 0.1.0
 * @category decoding
 */
export const parse = (
  body: string
): { readonly _tag: "Parsed"; readonly value: unknown } | { readonly _tag: "Refused"; readonly reason: string } => {
  if (nestsDeeperThan(body, maxDepth)) {
    return { _tag: "Refused", reason: `the body nests deeper than ${maxDepth} levels` }
  }
  try {
    return { _tag: "Parsed", value: body === "" ? null : JSON.parse(body) as unknown }
  } catch {
    return { _tag: "Refused", reason: "the body is not JSON" }
  }
}

/**
 * The words of the refusal of a body longer than `limitBytes`.
 *
 * @since 0.1.0
 * @category constants
 */
export const tooLarge = (limitBytes: number): string =>
  `the body exceeds the client's bound of ${limitBytes} bytes (maxResponseBytes); reading stopped there and the ` +
  `connection was closed`
