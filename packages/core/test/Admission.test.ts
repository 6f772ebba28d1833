/**
 * What an admission does once its answer is read (`Admission`), the table both lines run on their
 * limiters: 9 gives back, 5 is told to its limit, and a creation's refusal gives back and waits off the
 * beat (the rate) or uses up the quota's window.
 */
import { describe, expect, it } from "vitest"
import * as Admission from "../src/Admission.js"

const ordinary = { safeToRepeat: true, creation: false }
const creation = { safeToRepeat: false, creation: true }

describe("Admission", () => {
  it("A6 L1 L2 error 9 gives the admission back, error 5 tells its limit, any other failure nothing", () => {
    expect(Admission.afterFailure(creation, { _tag: "KeyServiceUnavailableError", code: 9 })).toBe("give-back")
    expect(Admission.afterFailure(ordinary, { _tag: "KeyServiceUnavailableError", code: 9 })).toBe("give-back")
    expect(Admission.afterFailure(creation, { _tag: "RateLimitError", code: 5 })).toBe("refused")
    expect(Admission.afterFailure(ordinary, { _tag: "RateLimitError", code: 5 })).toBe("refused")
    expect(Admission.afterFailure(creation, { _tag: "InternalServerError", code: 101 })).toBe("none")
    expect(Admission.afterFailure(creation, { _tag: "TransportError" })).toBe("none")
  })

  it("L2 L5 a creation refused by the rate is given back and waits off the beat; by the quota, uses up its window", () => {
    expect(Admission.creationRefused("rate")).toBe("give-back-and-wait")
    expect(Admission.creationRefused("minute")).toBe("exhaust-minute")
    expect(Admission.creationRefused("day")).toBe("exhaust-day")
    expect(Admission.offBeatMillis({ marginMillis: 50 }, 0)).toBe(50)
    expect(Admission.offBeatMillis({ marginMillis: 50 }, 999)).toBe(1_049)
  })

  it("L2 a creation whose last count finds the minute used up starts over in wait mode only", () => {
    const minute = { _tag: "CreationQuotaExceeded", window: "minute" }
    expect(Admission.startsOver("wait", minute)).toBe(true)
    expect(Admission.startsOver("fail", minute)).toBe(false)
    expect(Admission.startsOver("wait", { _tag: "CreationQuotaExceeded", window: "day" })).toBe(false)
    expect(Admission.startsOver("wait", { _tag: "LimiterUnavailable" })).toBe(false)
    expect(Admission.startsOver("wait", undefined)).toBe(false)
  })

  it("A6 L1 the step after a failure is the admission's own: its give-back, its refusal of the error, or none", () => {
    const admitted = { answer: 1, giveBack: "gave back", refused: (error: unknown) => `refused ${String(error)}` }
    const nine = { _tag: "KeyServiceUnavailableError", code: 9, toString: () => "9" }
    const five = { _tag: "RateLimitError", code: 5, toString: () => "5" }
    expect(Admission.stepAfter(creation, admitted, nine, "none")).toBe("gave back")
    expect(Admission.stepAfter(creation, admitted, five, "none")).toBe("refused 5")
    expect(Admission.stepAfter(creation, admitted, { _tag: "InternalServerError", code: 101 }, "none")).toBe("none")
  })
})
