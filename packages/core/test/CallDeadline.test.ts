/**
 * The deadline of one call and the timeout of each exchange, as both lines' clients decide them: the
 * races are the lines', what an attempt fails with is decided here.
 */
import { describe, expect, it } from "vitest"
import * as CallDeadline from "../src/CallDeadline.js"
import * as CallFailure from "../src/CallFailure.js"

const make = (ambiguous: boolean) =>
  CallDeadline.make({ now: 1_000, deadlineMillis: 4_500, timeoutMillis: 2_000, ambiguous })

describe("CallDeadline", () => {
  it("X1 the deadline is counted from the call's start; each exchange's timeout from its own", () => {
    const call = make(false)
    expect(call.untilDeadline(1_000)).toBe(4_500)
    expect(call.untilDeadline(6_000)).toBe(0)
    expect(call.exchangeStarted(2_000)).toBe(4_000)
    const unbounded = CallDeadline.make({ now: 0, deadlineMillis: 10, timeoutMillis: Infinity, ambiguous: false })
    expect(unbounded.exchangeStarted(0)).toBeUndefined()
  })

  it("X1 an exchange that outlasts its timeout fails its attempt, whatever the operation", () => {
    for (const ambiguous of [false, true]) {
      const call = make(ambiguous)
      call.attemptStarted()
      call.exchangeStarted(1_000)
      call.timedOut()
      expect(call.verdict()).toBe("attempt-timeout")
      // Stopped at its timeout, the exchange ended: the next attempt starts with none in flight.
      call.exchangeEnded(true)
      call.attemptStarted()
      expect(call.verdict()).toBe("call-timeout")
    }
  })

  it("X1 the deadline while an exchange of an operation not safe to repeat is in flight leaves the outcome unknown", () => {
    const call = make(true)
    call.attemptStarted()
    expect(call.verdict()).toBe("call-timeout")
    call.exchangeStarted(1_000)
    expect(call.verdict()).toBe("outcome-unknown")
    // Stopped by the deadline, it stays in flight for the verdict of the rest of the call.
    call.exchangeEnded(true)
    expect(call.deadlineVerdict()).toBe("outcome-unknown")
  })

  it("X1 the deadline of an operation safe to repeat is a timeout of the call, in flight or not", () => {
    const call = make(false)
    call.attemptStarted()
    call.exchangeStarted(1_000)
    expect(call.verdict()).toBe("call-timeout")
    call.exchangeEnded(false)
    expect(call.deadlineVerdict()).toBe("call-timeout")
  })

  it("X1 an exchange that answered is no longer in flight", () => {
    const call = make(true)
    call.attemptStarted()
    call.exchangeStarted(1_000)
    call.exchangeEnded(false)
    expect(call.verdict()).toBe("call-timeout")
  })

  it("X1 each verdict's error: the exchange's timeout, the call's with its scope, or an unknown outcome", () => {
    const call = make(true)
    expect(call.failureOf("attempt-timeout")).toEqual({ _tag: "TimeoutError", fields: { timeoutMillis: 2_000 } })
    expect(call.failureOf("call-timeout")).toEqual({
      _tag: "TimeoutError",
      fields: { timeoutMillis: 4_500, scope: "call" }
    })
    expect(call.failureOf("outcome-unknown")).toEqual({
      _tag: "OutcomeUnknownError",
      fields: { reason: "deadline: the call's deadline of 4500 ms passed while an attempt was in flight" }
    })
  })

  it("X1 L2 a timeout leaves the outcome unknown unless the operation is safe to repeat and not a creation", () => {
    expect(CallDeadline.isAmbiguous({ safeToRepeat: true, creation: false })).toBe(false)
    expect(CallDeadline.isAmbiguous({ safeToRepeat: false, creation: false })).toBe(true)
    expect(CallDeadline.isAmbiguous({ safeToRepeat: true, creation: true })).toBe(true)
  })

  it("X1 the deadline's failure is carried out of the retries as a final error", () => {
    const passed = new CallDeadline.Passed("the call's error")
    expect(CallDeadline.isPassed(passed)).toBe(true)
    expect(CallDeadline.isPassed({ _tag: "DeadlinePassed" })).toBe(false)
    expect(passed.error).toBe("the call's error")
    expect(CallFailure.decide({ safeToRepeat: true, creation: false }, passed)).toBe("fail")
  })

  it("X1 with the line's errors: a watch ends on the exchange's timeout, or on the deadline carried out of the retries", () => {
    const errors: CallDeadline.Errors<readonly ["timeout", unknown], readonly ["unknown", unknown]> = {
      timeout: (operation, fields) => ["timeout", { operation, ...fields }],
      unknown: (operation, fields) => ["unknown", { operation, ...fields }]
    }
    const settings = { deadlineMillis: 4_500, timeoutMillis: 2_000 }
    const call = CallDeadline.withErrors(
      1_000,
      settings,
      { safeToRepeat: false, creation: false, path: "bots/create" },
      errors
    )
    expect(call.untilDeadline(1_000)).toBe(4_500)
    call.attemptStarted()
    call.exchangeStarted(1_000)
    call.timedOut()
    expect(call.stopped()).toStrictEqual(["timeout", { operation: "bots/create", timeoutMillis: 2_000 }])
    call.exchangeEnded(true)
    call.attemptStarted()
    call.exchangeStarted(3_000)
    // An exchange of an operation not safe to repeat in flight at the deadline: the outcome is unknown.
    const unknown = call.stopped()
    expect(CallDeadline.isPassed(unknown)).toBe(true)
    expect(call.passed().error).toStrictEqual(call.errorOf("outcome-unknown"))
    expect(call.errorOf("outcome-unknown")[0]).toBe("unknown")
    const safe = CallDeadline.withErrors(
      1_000,
      settings,
      { safeToRepeat: true, creation: false, path: "bots/get" },
      errors
    )
    safe.attemptStarted()
    safe.exchangeStarted(1_000)
    expect(safe.passed().error).toStrictEqual(["timeout", {
      operation: "bots/get",
      timeoutMillis: 4_500,
      scope: "call"
    }])
  })
})
