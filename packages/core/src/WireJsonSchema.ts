/**
 * The JSON Schema of the wire's primitives whose schema cannot say what the wire carries by its own
 * shape: an integer that may come as digits, a channel in any letter case, a request's date, a page's
 * `count` and `offset`. Each Effect line puts these on its twin of the primitive, so that the JSON
 * Schema both derive (the OpenAPI document, the MCP tools' inputs) is the same.
 *
 * @since 0.1.0
 */
import * as Wire from "./Wire.js"

/**
 * An integer of the wire: a JSON number, or a string of digits in a form body or the query.
 *
 * @since 0.1.0
 * @category constants
 */
export const int = { type: "integer" } as const

/**
 * An integer of the wire that must be one of `values`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const intLiteral = <const Values extends ReadonlyArray<number>>(values: Values) =>
  ({ type: "integer", enum: values }) as const

/**
 * A channel on the wire: any letter case of a channel value (its decoded schema would only say "a
 * string").
 *
 * @since 0.1.0
 * @category constants
 */
export const channel = {
  type: "string",
  pattern: Wire.channelPattern,
  description: `one of ${Wire.channels.join(", ")}; lower-case letters are accepted`,
  examples: [...Wire.channels]
} as const

/**
 * A request's date on the wire, `dd.mm.yyyy hh:ii`.
 *
 * @since 0.1.0
 * @category constants
 */
export const requestDate = { type: "string", pattern: Wire.requestDatePattern.source } as const

/**
 * A page's `count`: the decoded range, with its default.
 *
 * @since 0.1.0
 * @category constants
 */
export const count = { type: "integer", minimum: 1, maximum: Wire.maxCount, default: Wire.defaultCount } as const

/**
 * A page's `offset`, with its default.
 *
 * @since 0.1.0
 * @category constants
 */
export const offset = { type: "integer", minimum: 0, default: 0 } as const

/**
 * `json` with every `$ref` that starts with `prefix` replaced by its definition in `definitions` (a
 * schema that stands alone, as a reader of one parameter wants it); the contract's schemas are not
 * recursive, so a cycle or an unknown name is an error.
 *
 * @since 0.1.0
 * @category utils
 */
export const inline = (
  json: unknown,
  definitions: { readonly [name: string]: unknown },
  prefix: string,
  seen: ReadonlyArray<string> = []
): unknown => {
  if (Array.isArray(json)) return json.map((item) => inline(item, definitions, prefix, seen))
  if (typeof json !== "object" || json === null) return json
  const { $ref, ...rest } = json as { readonly $ref?: unknown; readonly [key: string]: unknown }
  const inlined = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, inline(value, definitions, prefix, seen)])
  )
  if (typeof $ref !== "string" || !$ref.startsWith(prefix)) return $ref === undefined ? inlined : { $ref, ...inlined }
  const name = $ref.slice(prefix.length)
  if (seen.includes(name) || !Object.hasOwn(definitions, name)) throw new Error(`cannot inline ${$ref}`)
  return { ...inline(definitions[name], definitions, prefix, [...seen, name]) as object, ...inlined }
}
