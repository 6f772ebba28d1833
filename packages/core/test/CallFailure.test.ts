/**
 * A failure of a call as both lines read it (`CallFailure`): its kind from its tag and code, the next
 * step, which limit an error 5 is, and the reasons of an unknown outcome and of an undecoded answer.
 */
import { describe, expect, it } from "vitest"
import * as CallFailure from "../src/CallFailure.js"

const ordinary = { safeToRepeat: true, creation: false }
const notSafe = { safeToRepeat: false, creation: false }
const creation = { safeToRepeat: false, creation: true }

const apiError = (code: number, text = "") => ({ _tag: `E${code}`, code, text })

describe("CallFailure", () => {
  it("X1 A6 a transport failure or a timeout is ambiguous; an answer of the API its code's kind; anything else final", () => {
    expect(CallFailure.kindOf({ _tag: "TransportError", reason: "reset" })).toBe("ambiguous")
    expect(CallFailure.kindOf({ _tag: "TimeoutError" })).toBe("ambiguous")
    expect(CallFailure.kindOf(apiError(9))).toBe("transient")
    expect(CallFailure.kindOf(apiError(5))).toBe("limit")
    expect(CallFailure.kindOf(apiError(101))).toBe("ambiguous")
    expect(CallFailure.kindOf(apiError(7))).toBe("final")
    // A code with no tag is no answer of the API; neither is a decode error or a string.
    expect(CallFailure.kindOf({ code: 9 })).toBe("final")
    expect(CallFailure.kindOf({ _tag: "ResponseDecodeError" })).toBe("final")
    expect(CallFailure.kindOf("boom")).toBe("final")
    expect(CallFailure.kindOf(undefined)).toBe("final")
  })

  it("X1 A6 the next step after a failure: retry, wait for the limit, unknown outcome or fail", () => {
    expect(CallFailure.decide(ordinary, apiError(9))).toBe("retry")
    expect(CallFailure.decide(creation, apiError(9))).toBe("retry")
    expect(CallFailure.decide(ordinary, { _tag: "TimeoutError" })).toBe("retry")
    expect(CallFailure.decide(notSafe, { _tag: "TimeoutError" })).toBe("outcome-unknown")
    expect(CallFailure.decide(creation, apiError(101))).toBe("outcome-unknown")
    expect(CallFailure.decide(notSafe, apiError(5))).toBe("wait-for-limit")
    expect(CallFailure.decide(ordinary, apiError(4))).toBe("fail")
  })

  it("L1 L2 an error 5 is read by its text: the rate, or the quota's minute or day", () => {
    expect(CallFailure.refusalOf(notSafe, apiError(5, "Слишком много созданий: 20 в минуту"))).toBe("rate")
    expect(CallFailure.refusalOf(creation, apiError(5, "Слишком много созданий: 20 в минуту"))).toBe("minute")
    expect(CallFailure.refusalOf(creation, apiError(5, "Слишком много созданий: 200 в сутки"))).toBe("day")
    expect(CallFailure.refusalOf(creation, apiError(5, "Слишком много запросов"))).toBe("rate")
    expect(CallFailure.refusalOf(creation, apiError(5), "day")).toBe("day")
    expect(CallFailure.refusalOf(creation, { _tag: "E5", code: 5 })).toBe("rate")
  })

  it("A6 error 9 says the server did nothing", () => {
    expect(CallFailure.isNothingDone({ _tag: "KeyServiceUnavailableError", code: 9 })).toBe(true)
    expect(CallFailure.isNothingDone({ _tag: "InternalServerError", code: 101 })).toBe(false)
  })

  it("X1 the reason of an unknown outcome names the timeout, the transport's reason or the code", () => {
    expect(CallFailure.unknownOutcomeReason({ _tag: "TimeoutError" })).toBe("timeout")
    expect(CallFailure.unknownOutcomeReason({ _tag: "TransportError", reason: "reset" })).toBe("transport: reset")
    expect(CallFailure.unknownOutcomeReason(apiError(101))).toBe("error 101")
    expect(CallFailure.unknownOutcomeReason(new Error("x"))).toBe("unknown failure")
  })

  it("a decode error's reason is bounded, and a failing decoder is named, never untyped", () => {
    const long = "x".repeat(CallFailure.maxReasonLength + 10)
    expect(CallFailure.decodeReason(long)).toBe(`${"x".repeat(CallFailure.maxReasonLength)}…`)
    expect(CallFailure.decodeReason("short")).toBe("short")
    expect(CallFailure.decoderFailed(new RangeError("too deep"))).toBe("the decoder failed: RangeError: too deep")
    expect(CallFailure.decoderFailed(42)).toBe("the decoder failed: defect")
  })
})
