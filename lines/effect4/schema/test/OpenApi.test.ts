/**
 * The Effect 4 line builds the OpenAPI document from its own schemas, and it is the Effect 3 line's:
 * equal, key for key, to the checked-in `lines/effect3/schema/openapi.json`, with the same examples (the
 * Effect 3 line keeps them in `lines/effect3/schema/scripts/examples.json`, captured from the reference
 * server).
 */
import { describe, expect, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as JsonSchema from "../src/internal/jsonSchema.js"
import * as OpenApi from "../src/OpenApi.js"

const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"))

/** The Effect 3 line's document, as the file has it. */
const effect3Document = readJson("../../../effect3/schema/openapi.json")

/** This line's document, with the examples the Effect 3 line's document carries, as JSON writes it. */
const document: unknown = JSON.parse(
  JSON.stringify(
    OpenApi.make({ examples: readJson("../../../effect3/schema/scripts/examples.json") as OpenApi.Examples })
  )
)

const isObject = (json: unknown): json is Record<string, unknown> =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/** Where two JSON values first differ, depth first (`$.components.schemas.Int.title`), with both values. */
const firstDifference = (
  actual: unknown,
  expected: unknown,
  path = "$"
): { readonly path: string; readonly actual: unknown; readonly expected: unknown } | undefined => {
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
      const found = firstDifference(actual[i], expected[i], `${path}[${i}]`)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (isObject(actual) && isObject(expected)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const found = firstDifference(actual[key], expected[key], `${path}.${key}`)
      if (found !== undefined) return found
    }
    return undefined
  }
  return Object.is(actual, expected) ? undefined : { path, actual, expected }
}

describe("OpenAPI document", () => {
  it("C1 the document built from this line's schemas is the Effect 3 line's openapi.json", () => {
    expect(firstDifference(document, effect3Document)).toBeUndefined()
    expect(document).toStrictEqual(effect3Document)
  })

  it.effect("C1 the document is valid OpenAPI 3.1", () =>
    Effect.gen(function*() {
      const validator = new Validator()
      const result = yield* Effect.promise(() => validator.validate(document as Parameters<Validator["validate"]>[0]))
      expect(result.errors ?? []).toStrictEqual([])
      expect(result.valid).toBe(true)
      expect(validator.version).toBe("3.1")
    }))

  it("a difference is reported at the first JSON path where the documents part", () => {
    const changed = structuredClone(effect3Document) as any
    changed.components.schemas.Int.title = "integer"
    changed.paths["/bots/get"].post.tags = ["bots", "more"]
    expect(firstDifference(changed, effect3Document)).toStrictEqual({
      path: "$.paths./bots/get.post.tags[1]",
      actual: "more",
      expected: undefined
    })
    delete changed.paths["/bots/get"]
    expect(firstDifference(changed, effect3Document)?.path).toBe("$.paths./bots/get")
  })

  it("a schema the derivation does not know is refused with its path, never described by guess", () => {
    const options: JsonSchema.Options = {
      references: { definitions: {}, path: OpenApi.schemaPath },
      otherProperties: true
    }
    const tuple = Schema.Struct({ pair: Schema.Tuple([Schema.String, Schema.Number]) })
    expect(() => JsonSchema.make(tuple.ast, options, "test")).toThrow("test.pair: a tuple is not described")
    const email = Schema.Struct({ to: Schema.String.check(Schema.isIncluding("@")) })
    expect(() => JsonSchema.make(email.ast, options, "test")).toThrow(
      "test.to: the check effect/schema/isIncluding is not described"
    )
  })
})
