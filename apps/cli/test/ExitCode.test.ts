import * as ClientError from "@community-api/client/ClientError"
import { ApiError } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import { Effect, Either } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as ExitCode from "../src/ExitCode.js"
import * as KeyValue from "../src/KeyValue.js"
import * as Report from "../src/Report.js"
import { UsageError } from "../src/UsageError.js"

const op = "bots/get"

describe("ExitCode", () => {
  it("X1 every documented error code has an exit code, and the kinds have distinct codes", () => {
    const codes = Object.values(ExitCode.kinds).map((kind) => kind.code)
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of ApiError.errorCodes) {
      expect(ExitCode.ofError(ApiError.make(code, "текст", op))).toBeGreaterThan(0)
    }
  })

  it("X1 A4 A8 L1 A6 maps API errors to access, limit, parameter, transient and internal codes", () => {
    expect(ExitCode.ofError(ApiError.make(4, "t", op))).toBe(ExitCode.kinds.access.code)
    expect(ExitCode.ofError(ApiError.make(8, "t", op))).toBe(ExitCode.kinds.access.code)
    expect(ExitCode.ofError(ApiError.make(5, "t", op))).toBe(ExitCode.kinds.limit.code)
    expect(ExitCode.ofError(ApiError.make(7, "t", op))).toBe(ExitCode.kinds.parameter.code)
    expect(ExitCode.ofError(ApiError.make(6, "t", op))).toBe(ExitCode.kinds.parameter.code)
    expect(ExitCode.ofError(ApiError.make(9, "t", op))).toBe(ExitCode.kinds.transient.code)
    expect(ExitCode.ofError(ApiError.make(101, "t", op))).toBe(ExitCode.kinds.internal.code)
    expect(ExitCode.ofError(new ApiError.UnexpectedApiError({ code: 42, text: "t", operation: op }))).toBe(
      ExitCode.kinds.internal.code
    )
  })

  it("L2 maps client errors: quota to limit, transport and timeout to transient", () => {
    const resetsAt = DateTime.unsafeMake(0)
    expect(ExitCode.ofError(new ClientError.CreationQuotaExceeded({ operation: op, window: "minute", resetsAt })))
      .toBe(ExitCode.kinds.limit.code)
    expect(ExitCode.ofError(new ClientError.TransportError({ operation: op, reason: "refused" }))).toBe(
      ExitCode.kinds.transient.code
    )
    expect(ExitCode.ofError(new ClientError.TimeoutError({ operation: op, timeoutMillis: 1 }))).toBe(
      ExitCode.kinds.transient.code
    )
    expect(ExitCode.ofError(new Error("bug"))).toBe(ExitCode.kinds.internal.code)
  })

  it("X1 the help text lists every code with its error tags", () => {
    const lines = ExitCode.describe()
    expect(lines).toHaveLength(Object.keys(ExitCode.kinds).length)
    expect(lines.find((line) => line.startsWith("3 "))).toContain("InvalidTokenError")
  })

  it("C6 the error line names the operation, the type, the code and the Russian text", () => {
    expect(Report.line(ApiError.make(7, "Бот не найден", "bots/getById"))).toBe(
      "community-api: bots/getById failed with InvalidParameterError: error 7: Бот не найден"
    )
    expect(Report.line(new ClientError.TransportError({ operation: op, reason: "refused\nagain" }))).toBe(
      "community-api: bots/get failed with TransportError: transport failed: refused again"
    )
    const refused = "connection refused by 127.0.0.1:1 (ECONNREFUSED)"
    expect(Report.line(
      new ClientError.TransportError({
        operation: op,
        reason: refused,
        code: "ECONNREFUSED",
        host: "127.0.0.1",
        port: 1
      })
    )).toBe(`community-api: bots/get failed with TransportError: ${refused}`)
    expect(Report.line(new UsageError({ reason: "bad" }))).toBe("community-api: usage error: bad")
  })
})

describe("KeyValue", () => {
  it.effect("E17 parses key=value as text and key:=json as JSON", () =>
    Effect.gen(function*() {
      expect(yield* KeyValue.parse(["group_id=1", "channel=VK", "ids:=[1,2]"])).toEqual({
        group_id: "1",
        channel: "VK",
        ids: [1, 2]
      })
    }))

  it.effect("C3 refuses reserved, malformed and repeated parameters", () =>
    Effect.gen(function*() {
      for (const words of [["_x=1"], ["novalue"], ["a=1", "a=2"], ["a:={"]]) {
        const result = yield* Effect.either(KeyValue.parse(words))
        expect(Either.isLeft(result)).toBe(true)
      }
    }))
})

describe("docs", () => {
  it("X1 the README section lists the exit codes exactly as the code does", () => {
    const docs = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8")
    const table = /<!-- exit-codes:start[^>]*-->\n([\s\S]*?)\n<!-- exit-codes:end -->/.exec(docs)
    expect(table?.[1]).toBe(ExitCode.markdown())
  })
})
