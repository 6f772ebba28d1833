import { describe, expect, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Arbitrary, Effect, FastCheck, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as Script from "../scripts/openapi.js"
import { ApiError, Envelope, OpenApi, type Operation, Operations } from "../src/index.js"

const document = OpenApi.make()
const ajv = new Ajv2020({ strict: false, allErrors: true })

/** A validator of one schema of the document, its `#/components/...` references resolved. */
const validatorOf = (schema: unknown) =>
  ajv.compile({ ...(schema as object), components: document.components } as object)

const post = (op: Operation.Any) => (document.paths[`/${op.path}`] as any).post
const requestSchema = (op: Operation.Any) => post(op).requestBody.content["application/json"].schema
const responseSchema = (op: Operation.Any) => post(op).responses["200"].content["application/json"].schema

const samples = <A, I>(schema: Schema.Schema<A, I>, numRuns = 25): Array<A> =>
  FastCheck.sample(Arbitrary.make(schema), { numRuns, seed: 2026 })

describe("OpenAPI document", () => {
  it.effect("C1 the document is valid OpenAPI 3.1", () =>
    Effect.gen(function*() {
      const validator = new Validator()
      const result = yield* Effect.promise(() => validator.validate(JSON.parse(JSON.stringify(document))))
      expect(result.errors ?? []).toStrictEqual([])
      expect(result.valid).toBe(true)
      expect(validator.version).toBe("3.1")
    }))

  it("C1 every operation is a POST path /section/method with operationId section_method, and nothing else", () => {
    expect(Object.keys(document.paths).sort()).toStrictEqual(Operations.all.map((op) => `/${op.path}`).sort())
    for (const op of Operations.all) {
      const item = document.paths[`/${op.path}`] as Record<string, unknown>
      expect(Object.keys(item)).toStrictEqual(["post"])
      expect(post(op).operationId).toBe(`${op.section}_${op.method}`)
      expect(post(op).tags).toStrictEqual([op.section])
    }
  })

  it("A9 L2 X1 each operation carries its role group, creation and safe-to-repeat flags and error codes", () => {
    for (const op of Operations.all) {
      expect(post(op)).toMatchObject({
        "x-rule": op.rule,
        "x-role-group": op.roleGroup,
        "x-creation-limit": op.creation,
        "x-safe-to-repeat": op.safeToRepeat
      })
      expect(post(op)["x-error-codes"].map((e: { code: number }) => e.code)).toStrictEqual([...op.errorCodes])
      for (const code of op.errorCodes) {
        expect(post(op).responses["200"].description).toContain(`${code} ${ApiError.byCode[code].name}`)
      }
    }
  })

  it("A1 A2 bearer and api_key security schemes are declared", () => {
    expect(document.components.securitySchemes).toMatchObject({
      bearer: { type: "http", scheme: "bearer" },
      api_key: { type: "apiKey", name: "api_key" }
    })
    expect(document.security).toStrictEqual([{ bearer: [] }, { api_key: [] }])
  })

  it("C2 every encoded payload is valid for its request schema (the schema describes the wire form)", () => {
    for (const op of Operations.all) {
      const validate = validatorOf(requestSchema(op))
      for (const params of samples(op.payload)) {
        const wire = JSON.parse(JSON.stringify(Schema.encodeSync(op.payload)(params)))
        expect(validate(wire) ? [] : validate.errors, op.path).toStrictEqual([])
      }
    }
  })

  it("C7 C13 E11 the request schema takes the wire forms the server takes and refuses what it refuses", () => {
    const validate = validatorOf(requestSchema(Operations.vars.create))
    const ok = { group_id: 1, channel: "vk", title: "t", name: "n" }
    expect(validate(ok)).toBe(true)
    expect(validate({ ...ok, channel: "Tg" })).toBe(true)
    expect(validate({ ...ok, channel: "FB" })).toBe(false)
    expect(validate({ ...ok, name: "a.b" })).toBe(false)
    expect(validate({ ...ok, name: "x_NAME" })).toBe(false)
    expect(validate({ ...ok, name: "x_name" })).toBe(true)
    expect(validate({ ...ok, title: "x".repeat(121) })).toBe(false)
    const list = validatorOf(requestSchema(Operations.vars.list))
    expect(list({ group_id: 1, channel: "VK", count: 500 })).toBe(true)
    expect(list({ group_id: 1, channel: "VK", count: 0 })).toBe(false)
    expect(list({ group_id: 1, channel: "VK", offset: -1 })).toBe(false)
  })

  it.effect("C5 C6 C11 every encoded success and error body is valid for the response schema", () =>
    Effect.gen(function*() {
      for (const op of Operations.all) {
        const validate = validatorOf(responseSchema(op))
        // `undefined` (from an unknown response) has no JSON form; JSON drops the field.
        for (const value of samples(op.success, 10).filter((v) => v !== undefined)) {
          const body = JSON.parse(JSON.stringify(yield* Envelope.encodeSuccess(op)(value)) ?? "null")
          expect(validate(body) ? [] : validate.errors, op.path).toStrictEqual([])
        }
        for (const code of op.errorCodes) {
          expect(validate(Envelope.encodeError(ApiError.make(code, "Ошибка", op.path))), op.path).toBe(true)
        }
        expect(validate({ status: "error", error: "x" })).toBe(false)
        expect(validate({ status: "ok" })).toBe(!op.hasResponse)
      }
    }))

  it("C1 the checked-in openapi.json is what make() builds (run `pnpm openapi` after changing the contract)", () => {
    expect(readFileSync(Script.target, "utf8")).toBe(Script.render())
  })
})
