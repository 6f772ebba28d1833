/**
 * Parameters of `community-api call` as `key=value` words: the value is text, as a form body would
 * carry it; `key:=json` gives a JSON value (a number, `true`, an array, an object).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { UsageError } from "./UsageError.js"

const pattern = /^([A-Za-z][A-Za-z0-9_]*)(:?=)([\s\S]*)$/

/**
 * Turns the words into parameters; a malformed word, a repeated key, a key starting with `_` (which
 * the API reserves) or invalid JSON after `:=` is a usage error.
 *
 * @since 0.1.0
 */
export const parse = (words: ReadonlyArray<string>): Effect.Effect<Record<string, unknown>, UsageError> =>
  Effect.gen(function*() {
    const params: Record<string, unknown> = {}
    for (const word of words) {
      if (word.startsWith("_")) {
        return yield* new UsageError({ reason: `parameter names starting with _ are reserved: ${word.split("=")[0]}` })
      }
      if (word.startsWith("-")) {
        return yield* new UsageError({
          reason: `call has no flag ${word.split("=")[0]} (community-api call --help)`
        })
      }
      const match = pattern.exec(word)
      if (match === null) {
        return yield* new UsageError({ reason: `expected key=value or key:=json, got ${JSON.stringify(word)}` })
      }
      const [, key, operator, raw] = match
      if (Object.hasOwn(params, key)) return yield* new UsageError({ reason: `parameter ${key} is given twice` })
      if (operator === "=") {
        params[key] = raw
        continue
      }
      params[key] = yield* Effect.try({
        try: () => JSON.parse(raw) as unknown,
        catch: () => new UsageError({ reason: `the value of ${key}:= is not JSON: ${raw}` })
      })
    }
    return params
  })
