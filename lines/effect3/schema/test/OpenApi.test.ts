import { describe, expect, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Arbitrary, Effect, Either, FastCheck, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as Script from "../scripts/openapi.js"
import { ApiError, Envelope, Ids, OpenApi, Operation, Operations, Page } from "../src/index.js"

/** The document as the checked-in file has it: built from the contract, with the kept examples. */
const document = Script.document()
const ajv = new Ajv2020({ strict: false, allErrors: true })

/** A validator of one schema of the document, its `#/components/...` references resolved. */
const validatorOf = (schema: unknown) =>
  ajv.compile({ ...(schema as object), components: document.components } as object)

const post = (op: Operation.Any) => (document.paths[`/${op.path}`] as any).post
const requestContent = (op: Operation.Any) => post(op).requestBody.content["application/json"]
const responseContent = (op: Operation.Any) => post(op).responses["200"].content["application/json"]
const requestSchema = (op: Operation.Any) => requestContent(op).schema
const responseSchema = (op: Operation.Any) => responseContent(op).schema
const requestExample = (op: Operation.Any) => requestContent(op).examples[OpenApi.exampleName].value
const responseExample = (op: Operation.Any) => responseContent(op).examples[OpenApi.exampleName].value
const component = (name: string) => (document.components.schemas as any)[name]

const samples = <A, I>(schema: Schema.Schema<A, I>, numRuns = 25): Array<A> =>
  FastCheck.sample(Arbitrary.make(schema), { numRuns, seed: 2026 })

/** Every object of a JSON value, depth first. */
const objects = (json: unknown): Array<Record<string, unknown>> =>
  Array.isArray(json)
    ? json.flatMap(objects)
    : typeof json === "object" && json !== null
    ? [json as Record<string, unknown>, ...Object.values(json).flatMap(objects)]
    : []

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
      const listed = post(op)["x-error-codes"].map((e: { code: number }) => e.code)
      // The contract's codes, and those the server answers to any operation (7), in ascending order.
      expect(listed).toEqual(expect.arrayContaining([...op.errorCodes]))
      expect(listed).toStrictEqual(
        [...new Set([...op.errorCodes, ...OpenApi.anyOperationErrorCodes])].sort((a, b) => a - b)
      )
      for (const code of listed) {
        expect(post(op).responses["200"].description).toContain(
          `${code} ${ApiError.byCode[code as ApiError.ErrorCode].name}`
        )
      }
    }
  })

  it("C2 C3 every operation lists error 7, which the server answers to a `_` name or an unreadable body; users/me too", () => {
    expect(OpenApi.anyOperationErrorCodes).toContain(7)
    for (const op of Operations.all) {
      expect(post(op)["x-error-codes"].map((e: { code: number }) => e.code), op.path).toContain(7)
    }
    expect(post(Operations.users.me).responses["200"].description).toContain("7 InvalidParameterError")
  })

  it("A1 A2 bearer and api_key security schemes are declared", () => {
    expect(document.components.securitySchemes).toMatchObject({
      bearer: { type: "http", scheme: "bearer" },
      api_key: { type: "apiKey", name: "api_key" }
    })
    expect(document.security).toStrictEqual([{ bearer: [] }, { api_key: [] }])
  })

  it("A2 A3 every request body documents api_key, a string, which the api_key scheme points to", () => {
    expect((document.components.securitySchemes as any).api_key.description).toContain("body")
    expect(component("ApiKey")).toMatchObject({ type: "string" })
    expect(component("ApiKey").description).toContain("as a parameter: in the body")
    for (const op of Operations.all) {
      const validate = validatorOf(requestSchema(op))
      const request = requestExample(op)
      expect(validate({ ...request, api_key: "thp_demo_token" }), op.path).toBe(true)
      expect(validate({ ...request, api_key: 42 }), op.path).toBe(false)
      // Documented where readers look: among the body's properties, or beside a referenced payload.
      expect(JSON.stringify(requestSchema(op)), op.path).toContain(`"api_key":{"$ref":"${OpenApi.schemaPath}ApiKey"}`)
    }
  })

  it("C3 every request schema refuses a parameter name starting with `_`, and says why", () => {
    expect(component("ParameterName").description).toContain("starts with `_` is reserved")
    expect(component("ParameterName").description).toContain("error 7")
    for (const op of Operations.all) {
      const validate = validatorOf(requestSchema(op))
      const request = requestExample(op)
      expect(validate({ ...request, _trace: 1 }), op.path).toBe(false)
      expect(validate({ ...request, _: "x" }), op.path).toBe(false)
      expect(validate({ ...request, trace_: 1 }), op.path).toBe(true)
      expect(post(op).requestBody.description, op.path).toContain("starts with `_` is refused with error 7")
    }
  })

  it("C2 every encoded payload is valid for its request schema (the schema describes the wire form)", () => {
    for (const op of Operations.all) {
      const validate = validatorOf(requestSchema(op))
      for (const params of samples(op.payload)) {
        const wire = JSON.parse(JSON.stringify(Schema.encodeSync(op.payload)(params)))
        // The unknown payload of E17 takes any name, but the server refuses the reserved ones (C3).
        if (Object.keys(wire).some((name) => name.startsWith("_"))) expect(validate(wire), op.path).toBe(false)
        else expect(validate(wire) ? [] : validate.errors, op.path).toStrictEqual([])
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

  it("C13 count has no maximum: a larger value than 500 is described as replaced, and every list takes it", () => {
    expect(component("Count")).not.toHaveProperty("maximum")
    expect(component("Count")).toMatchObject({ type: "integer", minimum: 1, default: Page.defaultCount })
    expect(component("Count").description).toContain(`replaced by ${Page.maxCount}`)
    expect(objects(document).filter((o) => o.maximum !== undefined)).toStrictEqual([])
    const lists = Operations.all.filter(Operation.isPageable)
    expect(lists.length).toBeGreaterThan(0)
    for (const op of lists) {
      const validate = validatorOf(requestSchema(op))
      expect(validate({ ...requestExample(op), count: Page.maxCount + 1 }), op.path).toBe(true)
      expect(validate({ ...requestExample(op), count: 1_000_000 }), op.path).toBe(true)
      expect(validate({ ...requestExample(op), count: 0 }), op.path).toBe(false)
    }
  })

  it("C6 R3 R6 S5 every number of the API is `integer`: active, archived and a mailing's status included", () => {
    expect(objects(document).filter((o) => o.type === "number")).toStrictEqual([])
    expect(component("Bot").properties.active).toMatchObject({ type: "integer", enum: [0, 1] })
    expect(component("Bot").properties.archived).toMatchObject({ type: "integer", enum: [0, 1] })
    expect(component("BotDetails").properties.active).toMatchObject({ type: "integer" })
    expect(component("MailingStatus")).toMatchObject({ type: "integer" })
    const bot = responseExample(Operations.bots.enable)
    const validate = validatorOf(responseSchema(Operations.bots.enable))
    expect(validate(bot)).toBe(true)
    expect(validate({ ...bot, response: { ...bot.response, active: 0.5 } })).toBe(false)
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
        for (const code of OpenApi.errorCodes(op)) {
          expect(validate(Envelope.encodeError(ApiError.make(code, "Ошибка", op.path))), op.path).toBe(true)
        }
        expect(validate({ status: "error", error: "x" })).toBe(false)
        expect(validate({ status: "ok" })).toBe(!op.hasResponse)
      }
    }))

  it("every operation has one example of its request and one of its response, each valid for its own schema", () => {
    expect(Object.keys(Script.examples()).sort()).toStrictEqual(Operations.all.map((op) => op.path).sort())
    for (const op of Operations.all) {
      const request = validatorOf(requestSchema(op))
      expect(request(requestExample(op)) ? [] : request.errors, op.path).toStrictEqual([])
      const response = validatorOf(responseSchema(op))
      expect(response(responseExample(op)) ? [] : response.errors, op.path).toStrictEqual([])
      expect(Object.keys(requestContent(op).examples), op.path).toStrictEqual([OpenApi.exampleName])
      expect(Object.keys(responseContent(op).examples), op.path).toStrictEqual([OpenApi.exampleName])
    }
  })

  it.effect("every example decodes with the contract: the request as the payload, the answer as the envelope", () =>
    Effect.gen(function*() {
      for (const op of Operations.all) {
        expect(Either.isRight(Schema.decodeUnknownEither(op.payload)(requestExample(op))), op.path).toBe(true)
        const answer = yield* Effect.either(Envelope.decode(op)(responseExample(op)))
        if (Either.isLeft(answer)) {
          // Only an E17 operation nothing is assumed about may show the server's "not modelled" (6).
          expect([op.documented, op.assumption, (answer.left as { code?: number }).code], op.path)
            .toStrictEqual([false, undefined, 6])
        }
      }
      // The documented operations, and those whose behaviour is assumed, show a success.
      const successes = Operations.all.filter((op) => responseExample(op).status === "ok").map((op) => op.path)
      expect(successes).toEqual(expect.arrayContaining(
        Operations.all.filter((op) => op.documented || op.assumption !== undefined).map((op) => op.path)
      ))
    }))

  it("C10 the examples carry object ids of the document's own pattern, so a mock built from it answers valid ids", () => {
    const idPattern = new RegExp(component("BotId").pattern)
    expect(idPattern.source).toBe(Ids.ObjectIdPattern.source)
    const ids = Operations.all.flatMap((op) => objects(responseExample(op))).flatMap((o) =>
      Object.entries(o).filter(([key, value]) => key === "id" && typeof value === "string").map(([, value]) =>
        value as string
      )
    )
    expect(ids.length).toBeGreaterThan(10)
    for (const id of ids) expect(id).toMatch(idPattern)
    // Sent as `<object>_id` (C10).
    expect(requestExample(Operations.bots.getById).bot_id).toMatch(idPattern)
    expect(requestExample(Operations.vars.get).var_id).toMatch(idPattern)
  })

  it("E17 an operation whose payload the contract assumes is marked x-assumed with the reason, and no other", () => {
    const assumed = Operations.all.filter((op) => op.assumption !== undefined)
    for (const op of Operations.all) {
      if (op.assumption === undefined) {
        expect(post(op), op.path).not.toHaveProperty("x-assumed")
      } else {
        expect(op.documented, op.path).toBe(false)
        expect(post(op)["x-assumed"], op.path).toBe(op.assumption)
        expect(post(op).description, op.path).toContain(op.assumption)
      }
    }
    expect(assumed.map((op) => op.path)).toEqual(expect.arrayContaining(["lists/create", "vars/set"]))
  })

  it("C1 the checked-in openapi.json is what make() builds (run `pnpm openapi` after changing the contract)", () => {
    expect(readFileSync(Script.target, "utf8")).toBe(Script.render())
  })
})
