/**
 * The query string and the three body formats (C2), parsed by one set of rules:
 *
 * - within one source the first occurrence of a name wins (JSON included, where `JSON.parse` alone
 *   would keep the last);
 * - every name is kept as an own property, `__proto__` included, so the `_` check (C3) sees it;
 * - names and values must be UTF-8 (percent-escapes decoded first), else the source is unreadable;
 * - a source holds at most {@link maxParameters} names (repeats counted), and parsing stops there.
 *
 * Each parser makes one pass and stops at the first broken rule, so a hostile body costs little more
 * than its bytes.
 *
 * @internal
 */
import { Either } from "effect"
import { Buffer } from "node:buffer"
import * as Texts from "./texts.js"

/**
 * The most names one source (the query, or the body) may carry. An assumption: the spec gives no
 * bound, and no operation takes more than a dozen parameters.
 */
export const maxParameters = 1_000

/** Parameters by name. */
export type Parameters = Record<string, unknown>

/** A source's parameters, or the text of the error 7 that says why it cannot be read. */
export type Parsed = Either.Either<Parameters, string>

const utf8 = new TextDecoder("utf-8", { fatal: true })
const encoder = new TextEncoder()

/** Text of UTF-8 bytes, or `undefined` when they are not UTF-8. */
const decodeUtf8 = (bytes: Uint8Array): string | undefined => {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

/** Collects the pairs of one source: the first occurrence wins, and `__proto__` is an ordinary name. */
class Collector {
  readonly out: Parameters = {}
  private count = 0

  /** False once the source holds more than {@link maxParameters} names. */
  add(name: string, value: unknown): boolean {
    if (++this.count > maxParameters) return false
    if (!Object.hasOwn(this.out, name)) {
      // A plain assignment to `__proto__` would set the prototype and drop the name.
      Object.defineProperty(this.out, name, { value, enumerable: true, writable: true, configurable: true })
    }
    return true
  }

  /** Counts a part that carries no parameter (a file); false past the bound. */
  skip(): boolean {
    return ++this.count <= maxParameters
  }
}

/** The value of a hex digit, or -1. */
const hexValue = (code: number): number => {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1
}

/**
 * One urlencoded name or value: `+` is a space, `%XX` a byte, a character up to U+00FF a byte (a
 * request line or body read as Latin-1, byte for byte), and the bytes must be UTF-8. A `%` without two
 * hex digits stays itself, as in the URL standard. `undefined` when the bytes are not UTF-8.
 */
const decodeComponent = (raw: string): string | undefined => {
  let plain = true
  for (let i = 0; i < raw.length && plain; i++) {
    const code = raw.charCodeAt(i)
    plain = code !== 0x25 && code !== 0x2b && code < 0x80
  }
  if (plain) return raw
  const bytes: Array<number> = []
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i)
    if (code === 0x25 && i + 2 < raw.length) {
      const high = hexValue(raw.charCodeAt(i + 1))
      const low = hexValue(raw.charCodeAt(i + 2))
      if (high >= 0 && low >= 0) {
        bytes.push(high * 16 + low)
        i += 2
        continue
      }
    }
    if (code === 0x2b) bytes.push(0x20)
    else if (code <= 0xff) bytes.push(code)
    else {
      // Text that was never bytes (a URL given as text): its own UTF-8.
      const point = raw.codePointAt(i)!
      for (const byte of encoder.encode(String.fromCodePoint(point))) bytes.push(byte)
      if (point > 0xffff) i++
    }
  }
  return decodeUtf8(Uint8Array.from(bytes))
}

/**
 * `application/x-www-form-urlencoded` (a body read as Latin-1, or a query string): pairs split on `&`,
 * name and value on the first `=`.
 */
export const urlEncoded = (text: string): Parsed => {
  const collector = new Collector()
  let start = 0
  while (start < text.length) {
    let end = text.indexOf("&", start)
    if (end < 0) end = text.length
    if (end > start) {
      const pair = text.slice(start, end)
      const eq = pair.indexOf("=")
      const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq))
      const value = eq < 0 ? "" : decodeComponent(pair.slice(eq + 1))
      if (name === undefined || value === undefined) return Either.left(Texts.notUtf8)
      if (!collector.add(name, value)) return Either.left(Texts.tooManyParameters(maxParameters))
    }
    start = end + 1
  }
  return Either.right(collector.out)
}

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d

const skipSpace = (text: string, at: number): number => {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  return at
}

/** Where the JSON string opening at `at` ends (after its closing quote), or -1. */
const stringEnd = (text: string, at: number): number => {
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x5c) i++
    else if (code === 0x22) return i + 1
  }
  return -1
}

/** Where the JSON value starting at `at` ends: the index of the `,` or `}` after it, or -1. */
const valueEnd = (text: string, at: number): number => {
  let depth = 0
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22) {
      const end = stringEnd(text, i)
      if (end < 0) return -1
      i = end - 1
    } else if (code === 0x7b || code === 0x5b) {
      depth++
    } else if (code === 0x7d || code === 0x5d) {
      if (depth === 0) return code === 0x7d ? i : -1
      depth--
    } else if (code === 0x2c && depth === 0) {
      return i
    }
  }
  return -1
}

interface Member {
  readonly name: string
  readonly start: number
  readonly end: number
}

/**
 * The members of a JSON object text at its top level, in order, found without recursion (a body nested
 * 20,000 deep costs one pass). `undefined` when the text is no object this scan understands: then
 * `JSON.parse` decides, and a valid text always scans.
 */
const topLevel = (text: string): { readonly members: Array<Member>; readonly repeated: boolean } | undefined => {
  let at = skipSpace(text, 0)
  if (text.charCodeAt(at) !== 0x7b) return undefined
  at = skipSpace(text, at + 1)
  const members: Array<Member> = []
  const seen = new Set<string>()
  let repeated = false
  if (text.charCodeAt(at) === 0x7d) return { members, repeated }
  for (;;) {
    if (text.charCodeAt(at) !== 0x22) return undefined
    const keyEnd = stringEnd(text, at)
    if (keyEnd < 0) return undefined
    let name: unknown
    try {
      name = JSON.parse(text.slice(at, keyEnd))
    } catch {
      return undefined
    }
    at = skipSpace(text, keyEnd)
    if (text.charCodeAt(at) !== 0x3a || typeof name !== "string") return undefined
    const start = at + 1
    const end = valueEnd(text, start)
    if (end < 0) return undefined
    if (seen.has(name)) repeated = true
    seen.add(name)
    members.push({ name, start, end })
    // Past the bound the scan stops: the caller refuses the body without parsing it.
    if (members.length > maxParameters) return { members, repeated }
    if (text.charCodeAt(end) === 0x7d) return { members, repeated }
    at = skipSpace(text, end + 1)
  }
}

/** A JSON body: an object, UTF-8; its members counted before it is parsed. */
export const json = (bytes: Uint8Array): Parsed => {
  const text = decodeUtf8(bytes)
  if (text === undefined) return Either.left(Texts.notUtf8)
  const scanned = topLevel(text)
  if (scanned !== undefined && scanned.members.length > maxParameters) {
    return Either.left(Texts.tooManyParameters(maxParameters))
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return Either.left(Texts.malformedJson)
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return Either.left(Texts.malformedJson)
  if (scanned === undefined || !scanned.repeated) return Either.right(parsed as Parameters)
  // A repeated name: the first occurrence wins, as in every other source.
  const collector = new Collector()
  for (const member of scanned.members) {
    if (!Object.hasOwn(collector.out, member.name)) {
      collector.add(member.name, JSON.parse(text.slice(member.start, member.end)))
    }
  }
  return Either.right(collector.out)
}

const boundaryOf = /;\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^\s;]{1,200}))/i
const dispositionOf = /^content-disposition\s*:(.*)$/im
const parameterOf = (key: string) => new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i")
const nameOf = parameterOf("name")
const filenameOf = parameterOf("filename\\*?")
const crlf2 = Buffer.from("\r\n\r\n", "latin1")

/** A quoted name as browsers write it: `"` as `%22`, line breaks as `%0D` and `%0A`, or backslash-escaped. */
const unquote = (quoted: string): string =>
  quoted.replace(/\\(.)/g, "$1").replace(/%22/g, "\"").replace(/%0D/gi, "\r").replace(/%0A/gi, "\n")

/**
 * A `multipart/form-data` body: parts between `--boundary` lines, each with a `Content-Disposition`
 * naming it; a part with a file name is a file and carries no parameter (C2). The whole body is
 * needed (the last delimiter ends it).
 */
export const multipart = (bytes: Uint8Array, contentType: string): Parsed => {
  const found = boundaryOf.exec(contentType)
  if (found === null) return Either.left(Texts.unreadableBody)
  const boundary = found[1] ?? found[2]!
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const delimiter = Buffer.from(`--${boundary}`, "latin1")
  const next = Buffer.from(`\r\n--${boundary}`, "latin1")
  const collector = new Collector()
  // The first delimiter opens the body, or ends a preamble.
  let at = body.subarray(0, delimiter.length).equals(delimiter) ? 0 : body.indexOf(next)
  if (at < 0) return Either.left(Texts.unreadableBody)
  if (at > 0) at += 2
  for (;;) {
    at += delimiter.length
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return Either.right(collector.out)
    while (body[at] === 0x20 || body[at] === 0x09) at++
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) return Either.left(Texts.unreadableBody)
    const headersEnd = body.indexOf(crlf2, at)
    if (headersEnd < 0) return Either.left(Texts.unreadableBody)
    const contentStart = headersEnd + 4
    const contentEnd = body.indexOf(next, contentStart)
    if (contentEnd < 0) return Either.left(Texts.unreadableBody)
    const headers = decodeUtf8(body.subarray(at + 2, Math.max(at + 2, headersEnd)))
    if (headers === undefined) return Either.left(Texts.notUtf8)
    const disposition = dispositionOf.exec(headers)?.[1] ?? ""
    const name = nameOf.exec(disposition)
    if (name === null) return Either.left(Texts.unreadableBody)
    if (filenameOf.test(disposition)) {
      if (!collector.skip()) return Either.left(Texts.tooManyParameters(maxParameters))
    } else {
      const value = decodeUtf8(body.subarray(contentStart, contentEnd))
      if (value === undefined) return Either.left(Texts.notUtf8)
      const text = name[1] === undefined ? name[2]! : unquote(name[1])
      if (!collector.add(text, value)) return Either.left(Texts.tooManyParameters(maxParameters))
    }
    at = contentEnd + 2
  }
}
