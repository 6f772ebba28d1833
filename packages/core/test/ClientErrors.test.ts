/**
 * The client's own errors' messages, as both Effect lines give them: the operation first, the cause
 * after, never more than the error's fields.
 */
import { describe, expect, it } from "vitest"
import * as ClientErrors from "../src/ClientErrors.js"

describe("ClientErrors", () => {
  it("X1 each message names the operation and what failed", () => {
    expect(ClientErrors.transport({ operation: "bots/get", reason: "ECONNREFUSED" }))
      .toBe("bots/get: transport failed: ECONNREFUSED")
    // A failed connection read from its cause names the host, and says so in its own words, once.
    expect(ClientErrors.transport({
      operation: "bots/get",
      reason: "connection refused by 127.0.0.1:1 (ECONNREFUSED)",
      host: "127.0.0.1"
    })).toBe("bots/get: connection refused by 127.0.0.1:1 (ECONNREFUSED)")
    expect(ClientErrors.requestEncode({ operation: "bots/get", reason: "bot_id" }))
      .toBe("bots/get: invalid parameters, nothing was sent: bot_id")
    expect(ClientErrors.responseDecode({ operation: "bots/get", reason: "not JSON" }))
      .toBe("bots/get: unreadable answer: not JSON")
    expect(ClientErrors.outcomeUnknown({ operation: "lists/create", reason: "error 101" })).toBe(
      "lists/create: the outcome is unknown (error 101); the action may or may not have happened, so it was not sent again"
    )
    expect(ClientErrors.invalidConfig({ option: "userKey", reason: "it is empty" }))
      .toBe("the client's userKey is refused: it is empty")
  })

  it("a timeout names its limit: an attempt's, or the call's deadline", () => {
    expect(ClientErrors.timeout({ operation: "bots/get", timeoutMillis: 30_000 }))
      .toBe("bots/get: no answer within 30000 ms")
    expect(ClientErrors.timeout({ operation: "bots/get", timeoutMillis: 120_000, scope: "call" }))
      .toBe("bots/get: no result within the call's deadline of 120000 ms (all attempts and waits)")
  })

  it("L2 a quota refusal names its window and when it opens again", () => {
    expect(ClientErrors.quotaExceeded({ operation: "lists/create", window: "minute" }, "2026-01-01T00:01:00.000Z"))
      .toBe("lists/create: the creation quota of the minute is used up; it resets at 2026-01-01T00:01:00.000Z")
    expect(ClientErrors.quotaWindows).toEqual(["minute", "day"])
  })

  it("a limiter's store is named without credentials, by the caller; nothing was sent", () => {
    expect(ClientErrors.limiterUnavailable({ limiter: "pacing", store: "redis://h:6379/0", reason: "timeout" }))
      .toBe("the shared pacing limiter is unavailable (redis://h:6379/0): timeout; nothing was sent")
    expect(ClientErrors.isTooLarge({ limitBytes: 10 })).toBe(true)
    expect(ClientErrors.isTooLarge({})).toBe(false)
  })

  it("X1 a class with its message reads it by its tag, and keeps its own constructor", () => {
    class Encode extends Error {
      readonly _tag = "RequestEncodeError"
      constructor(readonly operation: string, readonly reason: string) {
        super()
      }
    }
    class Quota extends Error {
      readonly _tag = "CreationQuotaExceeded"
      readonly operation = "lists/create"
      readonly window = "minute"
      readonly resetsAt = { toJSON: () => "2025-01-01T00:01:00.000Z" }
    }
    const encode = new (ClientErrors.withMessage(Encode))("bots/get", "bot_id is missing")
    expect(encode).toBeInstanceOf(Encode)
    expect(encode.message).toBe(ClientErrors.requestEncode(encode))
    expect(new (ClientErrors.withMessage(Quota))().message).toBe(
      "lists/create: the creation quota of the minute is used up; it resets at 2025-01-01T00:01:00.000Z"
    )
    expect(
      ClientErrors.message({ _tag: "LimiterUnavailable", limiter: "pacing", store: "redis://h:1", reason: "down" })
    )
      .toBe(ClientErrors.limiterUnavailable({ limiter: "pacing", store: "redis://h:1", reason: "down" }))
  })

  it("each error's fields come from one table, declared by a line's own schemas", () => {
    const makers: ClientErrors.Makers = {
      string: "S",
      number: "N",
      instant: "I",
      literals: (literals) => `L(${literals.join("|")})`,
      optional: (schema) => `${String(schema)}?`
    }
    expect(ClientErrors.fieldsOf("TransportError", makers))
      .toEqual({ operation: "S", reason: "S", code: "S?", host: "S?", port: "N?" })
    expect(ClientErrors.fieldsOf("TimeoutError", makers))
      .toEqual({ operation: "S", timeoutMillis: "N", scope: "L(attempt|call)?" })
    expect(ClientErrors.fieldsOf("CreationQuotaExceeded", makers))
      .toEqual({ operation: "S", window: "L(minute|day)", resetsAt: "I" })
    expect(ClientErrors.fieldsOf("LimiterUnavailable", makers))
      .toEqual({ limiter: "L(pacing|creation quota)", store: "S", reason: "S" })
    expect(Object.keys(ClientErrors.fields)).toEqual([
      "TransportError",
      "TimeoutError",
      "RequestEncodeError",
      "ResponseDecodeError",
      "CreationQuotaExceeded",
      "OutcomeUnknownError",
      "LimiterUnavailable",
      "InvalidConfig"
    ])
  })
})
