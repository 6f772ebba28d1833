/**
 * A declared drift: how a world's answers differ from the contract, as plain data, so that a
 * sandbox can serve a service that does not quite keep the contract (for `verify` to find) and a test
 * can say which differences it expects. Each change names the operation whose answers it alters and
 * where, by a path as `ContractCheck` names them (`response.items[].name`, `[]` for every item of a
 * list): a field renamed, removed, added or given another value (of another type, or outside its
 * set), or the whole answer replaced by an error code. {@link apply} alters one envelope; nothing here
 * sends or serves a request.
 *
 * @since 0.1.0
 */
import type * as ContractCheck from "./ContractCheck.js"

/**
 * One change of the answers of `operation` (`section/method`).
 *
 * - `Rename`: the field at `at` is named `to` instead.
 * - `Remove`: the field at `at` is left out.
 * - `Add`: a field at `at` (absent from the contract) holding `value`.
 * - `Set`: the field at `at` holds `value`: of another JSON type, or outside its declared set.
 * - `ErrorCode`: every answer is error `code` instead.
 *
 * @since 0.1.0
 * @category models
 */
export type Change =
  | { readonly _tag: "Rename"; readonly operation: string; readonly at: string; readonly to: string }
  | { readonly _tag: "Remove"; readonly operation: string; readonly at: string }
  | { readonly _tag: "Add"; readonly operation: string; readonly at: string; readonly value: ContractCheck.Json }
  | { readonly _tag: "Set"; readonly operation: string; readonly at: string; readonly value: ContractCheck.Json }
  | { readonly _tag: "ErrorCode"; readonly operation: string; readonly code: number }

/**
 * A drift: its changes, applied in order.
 *
 * @since 0.1.0
 * @category models
 */
export type Drift = ReadonlyArray<Change>

/**
 * No drift: the answers as the contract says.
 *
 * @since 0.1.0
 * @category constants
 */
export const none: Drift = []

type JsonObject = { readonly [key: string]: ContractCheck.Json }

const isObject = (json: ContractCheck.Json | undefined): json is JsonObject =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/** The segments of a path: `response.items[].name` is `response`, `items`, `[]`, `name`. */
const segmentsOf = (path: string): ReadonlyArray<string> =>
  path.split(".").flatMap((segment) => {
    const [key = "", ...lists] = segment.split("[]")
    return [key, ...lists.map(() => "[]")]
  }).filter((segment) => segment !== "")

/** `json` with `edit` applied to the object holding the last segment, wherever the path leads. */
const alter = (
  json: ContractCheck.Json,
  segments: ReadonlyArray<string>,
  edit: (holder: JsonObject, key: string) => JsonObject
): ContractCheck.Json => {
  const [first, ...rest] = segments
  if (first === undefined) return json
  if (first === "[]") return Array.isArray(json) ? json.map((item) => alter(item, rest, edit)) : json
  if (!isObject(json)) return json
  if (rest.length === 0) return edit(json, first)
  if (!Object.hasOwn(json, first)) return json
  return { ...json, [first]: alter(json[first]!, rest, edit) }
}

const without = (holder: JsonObject, key: string): JsonObject =>
  Object.fromEntries(Object.entries(holder).filter(([name]) => name !== key))

const editOf =
  (change: Exclude<Change, { readonly _tag: "ErrorCode" }>) => (holder: JsonObject, key: string): JsonObject => {
    switch (change._tag) {
      case "Rename":
        return Object.hasOwn(holder, key) ? { ...without(holder, key), [change.to]: holder[key]! } : holder
      case "Remove":
        return without(holder, key)
      case "Add":
        return { ...holder, [key]: change.value }
      case "Set":
        return Object.hasOwn(holder, key) ? { ...holder, [key]: change.value } : holder
    }
  }

/**
 * The envelope of `operation` as the drifted world answers it: each change that names the operation
 * applied in order; an `ErrorCode` change answers that error, whatever the answer was. Answers of
 * other operations, and errors, are left as they are.
 *
 * @since 0.1.0
 * @category utils
 */
export const apply = (drift: Drift, operation: string, envelope: ContractCheck.Json): ContractCheck.Json => {
  let answer = envelope
  for (const change of drift) {
    if (change.operation !== operation) continue
    if (change._tag === "ErrorCode") {
      answer = { status: "error", error: "drift: an error the contract does not declare", error_code: change.code }
    } else if (isObject(answer) && answer.status === "ok") {
      answer = alter(answer, segmentsOf(change.at), editOf(change))
    }
  }
  return answer
}

/**
 * The operations a drift alters.
 *
 * @since 0.1.0
 * @category utils
 */
export const operations = (drift: Drift): ReadonlyArray<string> => [
  ...new Set(drift.map((change) => change.operation))
]
