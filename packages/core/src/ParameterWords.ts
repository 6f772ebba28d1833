/**
 * What a parameter of an operation takes, in plain words, and a refused value said in those words:
 * `channel: "vkontakte" is not one of VK, TG, OK, MAX, CHAT or AVITO, any case`. Derived from the JSON
 * Schema of the parameter (both lines derive the same one from their payload schemas), so that the
 * client's `RequestEncodeError`, the command line's usage errors and the MCP server's refusals say the
 * same thing in both lines, in words that tell what to send rather than the schema's type names.
 *
 * @since 0.1.0
 */
import * as Wire from "./Wire.js"

/**
 * What the JSON Schema of a parameter says about its value: the keywords read here.
 *
 * @since 0.1.0
 * @category models
 */
export interface Facts {
  readonly type?: string | undefined
  readonly enum?: ReadonlyArray<unknown> | undefined
  readonly description?: string | undefined
  readonly minimum?: number | undefined
  readonly maximum?: number | undefined
  readonly minLength?: number | undefined
  readonly maxLength?: number | undefined
  readonly pattern?: string | undefined
  readonly not?: { readonly pattern?: string | undefined } | undefined
  readonly default?: unknown
}

/**
 * A parameter's value in words.
 *
 * @since 0.1.0
 * @category models
 */
export interface Words {
  /** A short type name for a usage line: `INT`, `TEXT`, `VK|TG|OK|MAX|CHAT|AVITO`. */
  readonly typeName: string
  /** Everything the contract says of the value, for a help: `integer 1..500, default 100, …`. */
  readonly text: string
  /** The value wanted, for a refusal: `an integer`, `one of 0 or 1`, `24 characters of 0-9 and a-f`. */
  readonly expected: string
  /** The values it takes, when they are a few literals, and whether in any letter case. */
  readonly allowed?: { readonly values: ReadonlyArray<string | number | boolean | null>; readonly anyCase: boolean }
}

/**
 * `a`, `a or b`, `a, b or c` (with `and` when asked).
 *
 * @since 0.1.0
 * @category utils
 */
export const orList = (items: ReadonlyArray<unknown>, conjunction: "or" | "and" = "or"): string => {
  const words = items.map(String)
  if (words.length <= 1) return words.join("")
  return `${words.slice(0, -1).join(", ")} ${conjunction} ${words.at(-1)}`
}

/**
 * A value as a refusal quotes it: text in double quotes, at most `max` characters of it; anything else
 * as JSON.
 *
 * @since 0.1.0
 * @category utils
 */
export const quote = (value: unknown, max = 40): string => {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value)
  const cut = text.length > max ? `${text.slice(0, max)}…` : text
  return typeof value === "string" ? JSON.stringify(cut) : cut
}

/** `0-9a-f` → `0-9 and a-f`: the ranges and characters of a character class, in words. */
const classInWords = (body: string): string => orList(body.match(/\\?.-.|\\?./g) ?? [], "and")

const unescape = (text: string): string => text.replace(/\\(.)/g, "$1")

/**
 * A pattern of the contract in words, for the shapes it uses: `^[0-9a-f]{24}$` (so many characters of
 * a class) and `^[^…]*$` (none of some characters). `undefined` for any other shape.
 */
const patternInWords = (pattern: string): { readonly whole: boolean; readonly text: string } | undefined => {
  const counted = /^\^\[([^\]^][^\]]*)\]\{(\d+)(?:,(\d+))?\}\$$/.exec(pattern)
  if (counted !== null) {
    const [, body = "", min, max] = counted
    const count = max === undefined ? min : `${min} to ${max}`
    return { whole: true, text: `${count} characters of ${classInWords(body)}` }
  }
  const excluded = /^\^\[\^((?:\\.|[^\]\\])+)\]\*\$$/.exec(pattern)
  if (excluded !== null) return { whole: false, text: `none of ${[...unescape(excluded[1] ?? "")].join(" ")}` }
  return undefined
}

/** The values of a parameter that takes a few literals: an `enum`, or a channel in any letter case. */
const allowedOf = (facts: Facts): Words["allowed"] => {
  if (facts.pattern === Wire.channelPattern) return { values: [...Wire.channels], anyCase: true }
  if (facts.type === "boolean") return { values: [true, false], anyCase: false }
  if (facts.enum === undefined || facts.enum.length === 0) return undefined
  return {
    values: facts.enum.map((value) =>
      typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null
        ? value
        : JSON.stringify(value)
    ),
    anyCase: false
  }
}

/**
 * Whether a value of the parameter past its maximum is replaced by that maximum rather than refused:
 * a page's `count` (the API answers a larger one with its largest page).
 */
const isClamped = (key: string, facts: Facts) => key === "count" && facts.maximum === Wire.maxCount

/** A description derived from the schema's checks ("a string at most 120 character(s) long") repeats the facts. */
const derived = /^an? /

/**
 * The words of the parameter `key` whose JSON Schema is `facts`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const of = (key: string, facts: Facts): Words => {
  const allowed = allowedOf(facts)
  if (allowed !== undefined) {
    const values = `${orList(allowed.values)}${allowed.anyCase ? ", any case" : ""}`
    return {
      typeName: allowed.values.length <= 8 ? allowed.values.join("|") : "VALUE",
      text: values,
      expected: allowed.values.length <= 2 ? values : `one of ${values}`,
      allowed
    }
  }
  const parts: Array<string> = []
  let expected: string
  let typeName: string
  if (facts.type === "integer") {
    typeName = "INT"
    const { maximum: max, minimum: min } = facts
    const bounds = min !== undefined && max !== undefined
      ? ` ${min}..${max}`
      : min !== undefined
      ? ` ${min} or more`
      : max !== undefined
      ? ` at most ${max}`
      : ""
    parts.push(`integer${bounds}`)
    expected = `an integer${bounds}`
    if (facts.default !== undefined) parts.push(`default ${JSON.stringify(facts.default)}`)
    if (max !== undefined && isClamped(key, facts)) parts.push(`a larger value is replaced by ${max}`)
  } else {
    typeName = facts.type === "string" || facts.type === undefined ? "TEXT" : facts.type.toUpperCase()
    const shape = facts.pattern === undefined ? undefined : patternInWords(facts.pattern)
    const length = facts.maxLength !== undefined
      ? ` of ${facts.minLength ?? 0} to ${facts.maxLength} characters`
      : facts.minLength === 1
      ? ", not empty"
      : ""
    const noun = shape?.whole === true ? shape.text : `text${length}`
    parts.push(noun)
    expected = noun
    if (shape !== undefined && !shape.whole) parts.push(shape.text)
    else if (facts.pattern !== undefined && shape === undefined) parts.push(`matching ${facts.pattern}`)
    if (facts.not?.pattern !== undefined) parts.push(`not containing ${facts.not.pattern}`)
    if (facts.default !== undefined) parts.push(`default ${JSON.stringify(facts.default)}`)
  }
  if (facts.description !== undefined && !derived.test(facts.description)) parts.push(facts.description)
  return { typeName, text: parts.join(", "), expected }
}

/**
 * The words of every parameter of a payload's JSON Schema (an object schema), by name.
 *
 * @since 0.1.0
 * @category constructors
 */
export const ofPayload = (schema: { readonly [keyword: string]: unknown }): ReadonlyMap<string, Words> => {
  const { properties } = schema
  if (typeof properties !== "object" || properties === null) return new Map()
  return new Map(
    Object.entries(properties as Record<string, Facts>).map(([key, facts]) => [key, of(key, facts)])
  )
}

/**
 * A value refused, after the parameter's name: what it is not, in the parameter's words, or, when the
 * contract has a message of its own for it (`count is at least 1`), that message.
 *
 * @since 0.1.0
 * @category utils
 */
export const refused = (words: Pick<Words, "expected">, value: unknown, said: ReadonlyArray<string> = []): string =>
  said.length === 0 ? `${quote(value)} is not ${words.expected}` : `${quote(value)} is refused: ${said.join("; ")}`

/**
 * A required parameter not given, after its name.
 *
 * @since 0.1.0
 * @category utils
 */
export const missing = (words: Pick<Words, "expected">): string => `is missing: give ${words.expected}`

/**
 * A name given that is not a parameter, after that name: the parameters there are.
 *
 * @since 0.1.0
 * @category utils
 */
export const notAParameter = (parameters: ReadonlyArray<string>): string =>
  parameters.length === 0
    ? "is not a parameter: this operation takes none"
    : `is not a parameter; the parameters are ${orList(parameters, "and")}`

/**
 * One failure of a payload's schema as a line's formatter gives it: where, and the schema's message.
 *
 * @since 0.1.0
 * @category models
 */
export interface Failure {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * The reason of a `RequestEncodeError`: every refused parameter once, in the order of the payload's
 * schema, each in the words of {@link of} (`group_id: "coffee-shop" is not an integer; channel:
 * "vkontakte" is not one of VK, TG, OK, MAX, CHAT or AVITO, any case`); a parameter missing as
 * {@link missing} says; a failure below a parameter, or of a parameter the schema does not describe,
 * in the schema's own message. `schema` is the payload's JSON Schema, `input` the parameters given.
 *
 * @since 0.1.0
 * @category utils
 */
export const encodeRefusal = (
  schema: { readonly [keyword: string]: unknown },
  input: unknown,
  failures: ReadonlyArray<Failure>
): string => {
  const words = ofPayload(schema)
  const given = typeof input === "object" && input !== null ? input as Record<PropertyKey, unknown> : {}
  const byKey = new Map<string, Array<Failure>>()
  for (const failure of failures) {
    const key = failure.path.length === 0 ? "" : String(failure.path[0])
    byKey.set(key, [...byKey.get(key) ?? [], failure])
  }
  const order = [...words.keys()]
  const rank = (key: string) => order.includes(key) ? order.indexOf(key) : order.length
  return [...byKey].sort(([a], [b]) => rank(a) - rank(b)).map(([key, entries]) => {
    const parameter = words.get(key)
    const top = entries.every((entry) => entry.path.length === 1)
    if (parameter === undefined || !top) {
      const messages = [...new Set(entries.map((entry) => entry.message.replace(/\s+/g, " ")))]
      return key === "" ? messages.join("; ") : `${key}: ${messages.join("; ")}`
    }
    return key in given ? `${key}: ${refused(parameter, given[key])}` : `${key} ${missing(parameter)}`
  }).join("; ")
}

/**
 * The reason of a `RequestEncodeError` as a line's client gives it: {@link encodeRefusal} of the
 * payload's JSON Schema and the schema's failures, read from the line's schema library; when either
 * cannot be read (a payload the JSON Schema cannot describe), the library's own words, `otherwise`.
 *
 * @since 0.1.0
 * @category utils
 */
export const encodeReason = (input: unknown, read: {
  readonly schema: () => { readonly [keyword: string]: unknown }
  readonly failures: () => ReadonlyArray<Failure>
  readonly otherwise: () => string
}): string => {
  try {
    return encodeRefusal(read.schema(), input, read.failures())
  } catch {
    return read.otherwise()
  }
}
