import { describe, expect, it } from "vitest"
import * as CallFailure from "../src/CallFailure.js"
import * as ErrorCodes from "../src/ErrorCodes.js"
import * as RetryTable from "../src/RetryTable.js"

const ordinary = { safeToRepeat: true, creation: false }
const notSafe = { safeToRepeat: false, creation: false }
const creation = { safeToRepeat: false, creation: true }
const creationMarkedSafe = { safeToRepeat: true, creation: true }

/** The decision for each documented code, in the order of `errorCodes`. */
const byCode = (flags: RetryTable.Flags) =>
  Object.fromEntries(ErrorCodes.errorCodes.map((code) => [code, RetryTable.decide(flags, ErrorCodes.kindOf({ code }))]))

describe("RetryTable", () => {
  it("X1 A6 per code: 9 is retried, 5 waits for its limit, 101 is retried only when safe to repeat, the rest fail", () => {
    const final = { 1: "fail", 3: "fail", 4: "fail", 6: "fail", 7: "fail", 8: "fail" }
    expect(byCode(ordinary)).toEqual({ ...final, 5: "wait-for-limit", 9: "retry", 101: "retry" })
    expect(byCode(notSafe)).toEqual({ ...final, 5: "wait-for-limit", 9: "retry", 101: "outcome-unknown" })
    expect(byCode(creation)).toEqual({ ...final, 5: "wait-for-limit", 9: "retry", 101: "outcome-unknown" })
    // An undocumented code is final.
    expect(RetryTable.decide(ordinary, ErrorCodes.kindOf({ code: 42 }))).toBe("fail")
  })

  it("X1 L2 a creation is never sent again after an ambiguous failure, whatever its flags say", () => {
    expect(RetryTable.repeatable(ordinary)).toBe(true)
    expect(RetryTable.repeatable(notSafe)).toBe(false)
    expect(RetryTable.repeatable(creationMarkedSafe)).toBe(false)
    expect(RetryTable.decide(creationMarkedSafe, "ambiguous")).toBe("outcome-unknown")
    expect(RetryTable.decide(creationMarkedSafe, "transient")).toBe("retry")
    expect(RetryTable.decide(creationMarkedSafe, "limit")).toBe("wait-for-limit")
  })

  it("L1 L2 an error 5 of an ordinary request is the rate; of a creation, what its text or the count says", () => {
    const rate = "Слишком много запросов: не более 30 в секунду"
    const minute = "Слишком много созданий: не более 20 в минуту"
    const day = "Слишком много созданий: не более 200 в сутки"
    expect(RetryTable.refusalOf({ creation: false }, minute)).toBe("rate")
    expect(RetryTable.refusalOf({ creation: true }, rate)).toBe("rate")
    expect(RetryTable.refusalOf({ creation: true }, minute)).toBe("minute")
    expect(RetryTable.refusalOf({ creation: true }, day)).toBe("day")
    expect(RetryTable.refusalOf({ creation: true }, "Too many creations today (per day)")).toBe("day")
    // The text names the rate: the count does not overrule it.
    expect(RetryTable.refusalOf({ creation: true }, rate, "minute")).toBe("rate")
    // The text names neither: the client's own count decides, and without one it is the rate.
    expect(RetryTable.refusalOf({ creation: true }, "", "day")).toBe("day")
    expect(RetryTable.refusalOf({ creation: true }, "", "minute")).toBe("minute")
    expect(RetryTable.refusalOf({ creation: true }, "")).toBe("rate")
  })

  it("A6 the schedule's numbers: 0.5 s doubling, jittered by 0.8 to 1.2, capped at 8 s, 5 retries and 5 after error 5", () => {
    const { baseMillis, capMillis, factor, jitterMax, jitterMin, retries } = RetryTable.backoff
    const bases = Array.from({ length: retries }, (_, i) => baseMillis * factor ** i)
    expect(bases).toEqual([500, 1000, 2000, 4000, 8000])
    expect([jitterMin, jitterMax, capMillis]).toEqual([0.8, 1.2, 8000])
    expect(RetryTable.limitRetries).toBe(5)
  })

  it("A6 a jittered delay is waited in whole milliseconds, never past the cap", () => {
    expect(RetryTable.capDelay(8000 * 1.2)).toBe(8000)
    expect(RetryTable.capDelay(8000.000000000001)).toBe(8000)
    expect(RetryTable.capDelay(412.4)).toBe(412)
    expect(RetryTable.capDelay(599.5)).toBe(600)
    // The jitter's bounds times each base are whole, so rounding keeps a delay within them.
    for (const base of [500, 1000, 2000, 4000]) {
      expect(RetryTable.capDelay(base * 0.8)).toBe(base * 0.8)
      expect(RetryTable.capDelay(base * 1.2)).toBe(base * 1.2)
    }
  })

  it("X1 A6 the schedule sees 9, 101, transport failures and timeouts: the failures the table retries, and no other", () => {
    const failures = [
      { _tag: "KeyServiceUnavailableError", code: 9 },
      { _tag: "InternalServerError", code: 101 },
      { _tag: "TransportError" },
      { _tag: "TimeoutError" },
      ...ErrorCodes.errorCodes.filter((code) => code !== 9 && code !== 101).map((code) => ({ _tag: `E${code}`, code })),
      { _tag: "ResponseDecodeError" }
    ]
    const retried = failures.filter((error) => CallFailure.decide(ordinary, error) === "retry")
    expect(retried.map((error) => error._tag)).toStrictEqual([...RetryTable.retryableTags])
  })
})
