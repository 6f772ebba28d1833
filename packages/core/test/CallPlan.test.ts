/**
 * The plan of a call's attempts (`CallPlan`), sans I/O: each failure in, the next step out, the
 * attempts numbered, the last failure kept for the retries' metric.
 */
import { describe, expect, it } from "vitest"
import * as CallPlan from "../src/CallPlan.js"

const ordinary = { safeToRepeat: true, creation: false }
const notSafe = { safeToRepeat: false, creation: false }
const creation = { safeToRepeat: false, creation: true }

const e = (code: number) => ({ _tag: `E${code}`, code })

describe("CallPlan", () => {
  it("A6 X1 error 9 goes on the schedule for every operation; 101 and timeouts only when safe to repeat", () => {
    expect(CallPlan.make(creation, 5).failed(e(9))).toBe("schedule")
    expect(CallPlan.make(ordinary, 5).failed(e(101))).toBe("schedule")
    expect(CallPlan.make(ordinary, 5).failed({ _tag: "TransportError" })).toBe("schedule")
    expect(CallPlan.make(notSafe, 5).failed(e(101))).toBe("outcome-unknown")
    expect(CallPlan.make(creation, 5).failed({ _tag: "TimeoutError" })).toBe("outcome-unknown")
    expect(CallPlan.make(ordinary, 5).failed(e(7))).toBe("fail")
    expect(CallPlan.make(ordinary, 5).failed({ _tag: "DeadlinePassed" })).toBe("fail")
  })

  it("L1 L2 error 5 is sent again at most limitRetries times in a row; a retry on the schedule starts the count afresh", () => {
    const plan = CallPlan.make(creation, 2)
    expect(plan.failed(e(5))).toBe("again")
    expect(plan.failed(e(5))).toBe("again")
    expect(plan.failed(e(5))).toBe("fail")
    const afresh = CallPlan.make(creation, 2)
    expect(afresh.failed(e(5))).toBe("again")
    expect(afresh.failed(e(5))).toBe("again")
    expect(afresh.failed(e(9))).toBe("schedule")
    expect(afresh.failed(e(5))).toBe("again")
    expect(afresh.failed(e(5))).toBe("again")
    expect(afresh.failed(e(5))).toBe("fail")
    expect(CallPlan.make(ordinary, 0).failed(e(5))).toBe("fail")
  })

  it("X1 attempts are numbered from 1 and the last failure is kept; an unknown outcome says why", () => {
    const plan = CallPlan.make(ordinary, 5)
    expect(plan.last()).toBeUndefined()
    expect(plan.started()).toBe(1)
    plan.failed(e(9))
    expect(plan.started()).toBe(2)
    expect(plan.last()).toEqual(e(9))
    expect(CallPlan.unknownReason({ _tag: "TimeoutError" })).toBe("timeout")
  })
})
